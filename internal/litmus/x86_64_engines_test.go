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

// TestX8664Litmus runs the litmus tests of testdata/x86_64 (herd's
// X86_64 dialect) under the built-in tso model with both engines; each
// file says why its verdict is the right one. 2+2W+sizes also checks
// that an int8_t location is printed signed.
func TestX8664Litmus(t *testing.T) {
	m, name, err := driver.Load("tso")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("X86_64")
	for _, tc := range []struct {
		file   string
		ok     bool
		states int
	}{
		{"SB+mfences", false, 3},
		{"SB", true, 4},
		{"XADD+lock", false, 2},
		{"XADD", true, 3},
		{"2+2W+sizes", false, 3},
		{"ARRAY+index", true, 1},
		{"NARROW", true, 1},
	} {
		path := filepath.Join("testdata", "x86_64", tc.file+".litmus")
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
		if tc.file == "2+2W+sizes" {
			result.Unchunk(a, lt)
			if got := a.States[0]; got[len(got)-1].Int != 3 || a.States[1][1].Int != -3 {
				t.Errorf("%s: states %v, want y printed signed (-3)", tc.file, a.States)
			}
		}
	}
}
