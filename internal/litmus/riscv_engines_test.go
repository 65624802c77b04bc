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

// TestRISCVInstructionLitmus runs the litmus tests of testdata/riscv
// under the built-in riscv model with both engines; each file says why
// its verdict is the right one.
func TestRISCVInstructionLitmus(t *testing.T) {
	m, name, err := driver.Load("riscv")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("RISCV")
	for _, tc := range []struct {
		file   string
		ok     bool
		states int
	}{
		{"UNSIGNED", true, 1},
		{"WORD", true, 1},
	} {
		path := filepath.Join("testdata", "riscv", tc.file+".litmus")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(path, src)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		a := enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags()})
		b := bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()})
		cancel()
		for _, r := range []*result.Result{a, b} {
			if r.Status != result.Done || r.Ok() != tc.ok || len(r.States) != tc.states {
				t.Errorf("%s: %s %v, ok %v with %d states; want ok %v with %d", tc.file, r.Status, r.Err, r.Ok(), len(r.States), tc.ok, tc.states)
			}
		}
	}
}
