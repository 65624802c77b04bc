package bmc

import (
	"testing"

	"github.com/musket-verify/musket/internal/smt"
)

// TestInAcyclic checks when a second model's cycle is known impossible:
// every edge of its relation is an edge, with the same formula or for
// sure, of a relation the encoding asserted acyclic.
func TestInAcyclic(t *testing.T) {
	zc := smt.NewContext()
	defer zc.Close()
	f := newFB(zc, zc.NewSolver())
	x, y := f.boolVar("x"), f.boolVar("y")
	asserted := map[[2]int]B{{0, 1}: x, {1, 0}: bTrue, {1, 2}: y}
	ev := &evaluator{e: &encoding{acyclic: []map[[2]int]B{asserted}}, f: f}
	rel := func(es map[[2]int]B) *Rel {
		r := newRel(3)
		for p, b := range es {
			if r.rows[p[0]] == nil {
				r.rows[p[0]] = map[int]B{}
			}
			r.rows[p[0]][p[1]] = b
		}
		return r
	}
	for _, tc := range []struct {
		name string
		es   map[[2]int]B
		want bool
	}{
		{"empty", nil, true},
		{"same formulas", map[[2]int]B{{0, 1}: x, {1, 2}: y}, true},
		{"a must-edge covers any formula", map[[2]int]B{{1, 0}: y}, true},
		{"another formula", map[[2]int]B{{0, 1}: y}, false},
		{"a must-edge over a may-edge", map[[2]int]B{{0, 1}: bTrue}, false},
		{"an edge the asserted relation lacks", map[[2]int]B{{0, 1}: x, {2, 0}: x}, false},
	} {
		if got := ev.inAcyclic(rel(tc.es)); got != tc.want {
			t.Errorf("%s: inAcyclic = %v, want %v", tc.name, got, tc.want)
		}
	}
	ev.e.acyclic = nil
	if ev.inAcyclic(rel(map[[2]int]B{{0, 1}: x})) {
		t.Errorf("no asserted relation: inAcyclic = true")
	}
}
