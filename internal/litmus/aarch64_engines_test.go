package litmus_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestAArch64InstructionLitmus runs the litmus tests of
// testdata/aarch64 (sign-extending loads, pre/post-indexed accesses,
// data-processing instructions, atomic minimum and maximum, LDP and
// STP) under the
// built-in aarch64 model. Each test's file says why its verdict is the
// right one. smt marks the tests also run by the SMT engine, which must
// find the same states (the others make it reason about many values
// converted between integers and bit-vectors, which takes it minutes;
// LDSMAX+LDUMIN runs under MUSKET_LONG=1).
func TestAArch64InstructionLitmus(t *testing.T) {
	m, name, err := driver.Load("aarch64")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("AArch64")
	long := os.Getenv("MUSKET_LONG") != ""
	for _, tc := range []struct {
		file   string
		ok     bool
		states int
		smt    bool
	}{
		{"ALU+more", true, 1, true},
		{"LDRSW", true, 1, true},
		{"LDRS+mixed", true, 1, false},
		{"MP+dmb.sy+preidx", false, 3, true},
		{"MP+dmb.sy+postidx-po", true, 4, true},
		{"LDSMAX+LDUMIN", false, 2, long},
		{"MINMAX+widths", true, 1, false},
		{"MP+stp+ldp", true, 4, true},
		{"STP+LDP+po", false, 1, true},
		{"STRB+signed", true, 1, true},
		{"ARRAY+values", true, 1, true},
		{"FLAGS", true, 1, true},
		{"W+negative", true, 1, true},
	} {
		path := filepath.Join("testdata", "aarch64", tc.file+".litmus")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(path, src)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		a := enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags()})
		if a.Status != result.Done || a.Ok() != tc.ok || len(a.States) != tc.states {
			t.Errorf("%s: enum %s %v, ok %v with %d states; want ok %v with %d", tc.file, a.Status, a.Err, a.Ok(), len(a.States), tc.ok, tc.states)
		}
		if tc.smt {
			b := bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()})
			if b.Status != result.Done || b.Ok() != tc.ok || len(b.States) != tc.states {
				t.Errorf("%s: smt %s %v, ok %v with %d states; want ok %v with %d", tc.file, b.Status, b.Err, b.Ok(), len(b.States), tc.ok, tc.states)
			}
		}
		cancel()
	}
}
