package symexec

import (
	"fmt"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestPickDeps checks the dependencies of x pick y (prog.OpPick): x's
// as data, y's as pick only, carried on by later operations.
func TestPickDeps(t *testing.T) {
	r0, r1, r2 := ReadOf(0), ReadOf(1), ReadOf(2)
	p, err := Bin(prog.OpPick, r0, r1)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := Bin(prog.OpAdd, p, r2)
	same, _ := Bin(prog.OpPick, r0, r0)
	k, _ := Bin(prog.OpPick, Const(prog.IntValue(4)), r1)
	u, _ := Un(prog.OpNeg, p)
	for _, tc := range []struct {
		name       string
		s          *Sym
		deps, pick string
	}{
		{"x pick y", p, "[0]", "[1]"},
		{"(x pick y) + z", q, "[0 2]", "[1]"},
		{"x pick x", same, "[0]", "[]"},
		{"4 pick y", k, "[]", "[1]"},
		{"-(x pick y)", u, "[0]", "[1]"},
	} {
		if d, pk := fmt.Sprint(tc.s.Deps), fmt.Sprint(tc.s.Pick); d != tc.deps || pk != tc.pick {
			t.Errorf("%s: deps %s pick %s, want %s %s", tc.name, d, pk, tc.deps, tc.pick)
		}
	}
	if !k.Known || k.V != prog.IntValue(4) {
		t.Errorf("4 pick y = %+v, want the constant 4", k)
	}
}
