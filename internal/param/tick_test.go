package param

import (
	"context"
	"testing"
)

// tickSystem has one time step of C to X twice, with X + C = 1 at the
// first and X + C = second at the second: with a fixed C the second
// step needs second = 2 (C = 1), but with a fresh value at each step
// (what the elimination of ticks computes) any second > 1 would do.
//
// With second empty, the system has a step "el" that adds C to X, and
// t2 needs X = 3: the path t1, el, t2 holds with a fresh value of C at
// each step, the path t1, el, el, t2 with C = 1.
func tickSystem(second string) string {
	const head = `type loc = A | B | D
var L : loc
var X : real
const C : real
init () { L = A && X = 0.0 }
unsafe () { L = D }
transition t1 ()
requires { L = A && 0.0 < C && X + C = 1.0 }
{ X := X + C; L := B; }
`
	if second == "" {
		return head + `transition el ()
requires { L = B && 0.0 < C }
{ X := X + C; }
transition t2 ()
requires { L = B && X = 3.0 }
{ L := D; }
`
	}
	return head + `transition t2 ()
requires { L = B && 0.0 < C && X + C = ` + second + ` }
{ X := X + C; L := D; }
`
}

// TestTicks checks the elimination of time steps (tick.go): a path that
// holds only with a different constant at each step is not an UNSAFE
// verdict (the search starts again without the elimination), a path
// that holds with one constant is.
func TestTicks(t *testing.T) {
	tests := []struct {
		name, second string
		want         Verdict
	}{
		{"one constant", "2.0", Unsafe},
		{"two constants", "3.0", Safe},
		{"never", "0.5", Safe},
		{"repeated step", "", Unsafe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := Load("tick.cub", []byte(tickSystem(tc.second)))
			if err != nil {
				t.Fatal(err)
			}
			for _, noapprox := range []bool{true, false} {
				res, err := Verify(context.Background(), sys, Options{Timeout: timeout(), NoApprox: noapprox})
				if err != nil {
					t.Fatal(err)
				}
				if tc.second == "" && res.Verdict == Unsafe && res.TraceString() != "t1() -> el() -> el() -> t2() -> unsafe[1]" {
					t.Errorf("trace %s, want the repeated step", res.TraceString())
				}
				if res.Verdict != tc.want {
					t.Errorf("noapprox=%v: got %s, want %s (trace %s)", noapprox, res.Verdict, tc.want, res.TraceString())
				}
			}
		})
	}
}

// TestEliminate checks the projection of a conjunction on the atoms
// other than a tick.
func TestEliminate(t *testing.T) {
	src := `var X : real
var Y : real
const C : real
init () { X = 0.0 }
unsafe () { X = 1.0 }
transition t ()
requires { 0.0 < C }
{ X := X + C; }
`
	sys, err := Load("e.cub", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e := &engine{sys: sys}
	var x, y, c Term
	for i, g := range sys.Globals {
		v := Term{Kind: KVar, Sort: g.Sort, Sym: int32(i), Off: Rat{0, 1}}
		switch g.Name {
		case "X":
			x = v
		case "Y":
			y = v
		case "C":
			c = v
		}
	}
	num := func(n int64) Term { return numTerm(rat(n, 1), Sort{Kind: SReal}) }
	plus := func(a, b Term) Term {
		s, _ := linearOf(a).plus(linearOf(b), Rat{1, 1})
		return s.term(Sort{Kind: SReal})
	}
	lit := func(op Op, l, r Term) Lit { nl, _ := mkLit(op, l, r); return nl }
	tick := lit(Gt, c, num(0))
	tests := []struct {
		name string
		in   []Lit
		want string // the literals left, or "empty"
	}{
		{"bounds meet", []Lit{tick, lit(Le, plus(x, c), y), lit(Ge, plus(x, c), num(1))}, "X < Y && Y >= 1"},
		{"upper only", []Lit{tick, lit(Le, plus(x, c), y)}, "X < Y"},
		{"lower only", []Lit{tick, lit(Ge, plus(x, c), num(1))}, "true"},
		{"equality", []Lit{tick, lit(Eq, plus(x, c), num(1)), lit(Le, plus(y, c), num(3))}, "X < 1 && X >= Y - 2"},
		{"empty", []Lit{tick, lit(Eq, plus(x, c), num(1)), lit(Ge, plus(x, c), num(2))}, "empty"},
		{"no tick", []Lit{lit(Le, plus(x, c), y)}, "X - Y + C <= 0"},
	}
	for _, tc := range tests {
		out, _, ok := e.eliminateTicks(tc.in)
		got := "empty"
		if ok {
			got = sys.CubeString(&Cube{Lits: out})
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
