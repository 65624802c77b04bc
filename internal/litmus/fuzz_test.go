package litmus

import (
	"errors"
	"testing"
)

// FuzzParse checks that no input makes Parse panic or hang, that errors
// are positioned, and that what parses is well formed. The seeds are in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte("X86 t\n{x=0}\n P0 ;\n MOV [x],1 ;\nexists (x=1)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		tst, err := Parse("fuzz.litmus", src)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not an ErrorList", err, err)
			}
			for _, e := range list {
				if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.File != "fuzz.litmus" {
					t.Fatalf("error without a position: %v", e)
				}
			}
			return
		}
		if tst.Cond == nil {
			t.Fatal("no condition")
		}
		for _, th := range tst.Threads {
			if len(th.Pos) != len(th.Code) {
				t.Fatalf("%s: %d instructions, %d positions", th.Name, len(th.Code), len(th.Pos))
			}
			if _, err := th.Labels(); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range append(Refs(tst.Cond), tst.Locations...) {
			if r.Thread >= len(tst.Threads) {
				t.Fatalf("%v names a missing thread", r)
			}
		}
		fe, err := Lookup(tst.Arch)
		if err != nil {
			t.Fatal(err)
		}
		roundTripArch(t, "cond", tst.Cond, fe)
		if tst.Filter != nil {
			roundTripArch(t, "filter", tst.Filter, fe)
		}
	})
}
