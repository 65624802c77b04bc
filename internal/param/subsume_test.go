package param

import "testing"

// TestSemanticSubsumption: a cube implied by the disjunction of two
// visited cubes (and by neither alone) is subsumed.
func TestSemanticSubsumption(t *testing.T) {
	sys, err := Load("s.cub", []byte(`type t = X | Y | Z
var B : bool
array A[proc] : t
unsafe (i) { A[i] = X }
`))
	if err != nil {
		t.Fatal(err)
	}
	e := &engine{sys: sys}
	e.z = newSolver(sys)
	a1 := Term{Kind: KVar, Sort: sys.Globals[1].Sort, Sym: 1, NArgs: 1, Args: [3]int32{1}, Off: Rat{0, 1}}
	b := Term{Kind: KVar, Sort: sys.Globals[0].Sort, Sym: 0, Off: Rat{0, 1}}
	x := Term{Kind: KEnum, Sort: a1.Sort, Sym: 0, Off: Rat{0, 1}}
	mk := func(ls ...Lit) *Cube { c := &Cube{Slots: []int32{1}, Lits: ls}; e.prepare(c); return c }
	l1, _ := mkLit(Eq, a1, x)
	lt, _ := mkLit(Eq, b, boolTerm(true))
	lf, _ := mkLit(Eq, b, boolTerm(false))
	e.visited = []*Cube{mk(l1, lt), mk(l1, lf)}
	if !e.subsumed(mk(l1)) {
		t.Error("not subsumed")
	}
}
