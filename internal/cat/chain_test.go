package cat

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/rel"
)

// TestSequencesAndFreshOperands checks the sequences composed in one pass
// and the unions, intersections and differences computed in place against
// the same relations built one operator at a time with package rel, on
// every test shape; the names read afterwards show that no operand was
// changed.
func TestSequencesAndFreshOperands(t *testing.T) {
	src := `T
let a = [R] ; po ; [W]
let b = po ; rf? ; [W] ; po*
let c = po^-1 ; (rf | co)+ ; [M] ; po?
let d = (po ; rf) | (rf ; po) | co
let e = (po | rf) \ (po ; po)
let f = (po & loc) | (rf \ (rf & int)) | (fr & ext)
let g = [W] ; (po ; [R] ; po) ; rf^-1
let h = po \ (po ; [R])
let i = (po \ a) | a
let j = [R] ; 0 ; po
let k = po & (R * W)
let l = (W * M) & (po | rf)
`
	m := mustModel(t, src)
	for _, sh := range shapes {
		x := build(t, sh.exec).x
		po, rf, co, fr := x.Rels["po"], x.Rels["rf"], x.Rels["co"], x.Rels["fr"]
		loc, in, ext := x.Rels["loc"], x.Rels["int"], x.Rels["ext"]
		R, W, M := x.Sets["R"], x.Sets["W"], x.Sets["M"]
		id := rel.Identity(rel.Full(po.N()))
		a := po.Restrict(R, W)
		want := map[string]rel.Rel{
			"a": a,
			"b": po.Seq(rf.Union(id)).Seq(rel.Identity(W)).Seq(po.Plus().Union(id)),
			"c": po.Inverse().Seq(rf.Union(co).Plus()).Seq(rel.Identity(M)).Seq(po.Union(id)),
			"d": po.Seq(rf).Union(rf.Seq(po)).Union(co),
			"e": po.Union(rf).Diff(po.Seq(po)),
			"f": po.Inter(loc).Union(rf.Diff(rf.Inter(in))).Union(fr.Inter(ext)),
			"g": rel.Identity(W).Seq(po).Seq(rel.Identity(R)).Seq(po).Seq(rf.Inverse()),
			"h": po.Diff(po.Seq(rel.Identity(R))),
			"i": po.Diff(a).Union(a),
			"j": rel.NewRel(po.N()),
			"k": po.Restrict(R, W),
			"l": po.Union(rf).Restrict(W, M),
		}
		os := outcomes(t, m, x)
		if len(os) != 1 {
			t.Fatalf("%s: %d outcomes", sh.name, len(os))
		}
		for name, w := range want {
			got, ok := os[0].Rel(name)
			if !ok || !got.Equal(w) {
				t.Errorf("%s: %s = %v, want %v", sh.name, name, got, w)
			}
		}
		for name, w := range map[string]rel.Rel{"po": po, "rf": rf, "co": co} {
			if got, _ := os[0].Rel(name); !got.Equal(w) {
				t.Errorf("%s: %s changed to %v", sh.name, name, got)
			}
		}
	}
}

// TestSequenceKinds checks that a sequence takes the kinds of its operands
// as ; grouped to the right does: each error at its own ;, and 0 making
// the whole sequence 0 (which then acts as the empty set).
func TestSequenceKinds(t *testing.T) {
	x := sbExec(t).x
	f := "T\nlet f(a, b, c) = a ; b ; c\nlet g(a, b, c) = [a] ; b ; c?\nlet h(a, b, c) = a & (b * c)\n"
	tests := []struct{ src, want string }{
		{f + "let z = f(po, R, po)\n", "m.cat:2:24: cannot apply ; to event set and relation (in f called at m.cat:5:9)"},
		{f + "let z = f('a, po, 0)\n", "m.cat:2:20: cannot apply ; to tag and empty (in f called at m.cat:5:9)"},
		{f + "let z = f(po, po, 'a)\n", "m.cat:2:24: cannot apply ; to relation and tag (in f called at m.cat:5:9)"},
		{f + "let z = f(R, po, po)\n", "m.cat:2:20: cannot apply ; to event set and relation (in f called at m.cat:5:9)"},
		{f + "let z = g(R, 'b, po)\n", "m.cat:3:26: cannot apply ; to tag and relation (in g called at m.cat:5:9)"},
		{f + "let z = g('b, po, po)\n", "m.cat:3:18: cannot apply [] to tag (in g called at m.cat:5:9)"},
		{f + "let z = g(R, po, 'c)\n", "m.cat:3:29: cannot apply ? to tag (in g called at m.cat:5:9)"},
		{f + "let z = h(po, R, 'a)\n", "m.cat:4:25: cannot apply * to event set and tag (in h called at m.cat:5:9)"},
		{f + "let z = h(po, 'a, R)\n", "m.cat:4:25: cannot apply * to tag and event set (in h called at m.cat:5:9)"},
		{f + "let z = h('a, R, R)\n", "m.cat:4:20: cannot apply & to tag and relation (in h called at m.cat:5:9)"},
		{f + "let z = h(R, R, R)\n", "m.cat:4:20: cannot apply & to event set and relation (in h called at m.cat:5:9)"},
	}
	for _, tc := range tests {
		m := mustModel(t, tc.src)
		err := m.Check(x, CheckOptions{}, func(Outcome) bool { return true })
		if err == nil || !strings.HasSuffix(dropDirs(err.Error()), tc.want) {
			t.Errorf("%q:\n got %v\nwant ...%s", tc.src, err, tc.want)
		}
	}
}
