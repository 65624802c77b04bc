package param

import (
	"context"
	"slices"
	"testing"
)

// fiveProcs is unsafe with five processes and not with fewer (a process
// moves up a stage only while another one is at its stage): the samples
// (up to four processes) see no unsafe state, the guesses made from
// them are wrong and must be refuted.
const fiveProcs = `type s = A | B | D | E | F | C
var G : bool
array S[proc] : s
init (z) { S[z] = A && G = False }
unsafe (x) { S[x] = C }
transition setg() requires { G = False } { G := True }
transition ab(i) requires { S[i] = A } { S[i] := B }
transition bd(i) requires { S[i] = B && exists_other j. S[j] = B } { S[i] := D }
transition de(i) requires { S[i] = D && exists_other j. S[j] = D } { S[i] := E }
transition ef(i) requires { S[i] = E && exists_other j. S[j] = E } { S[i] := F }
transition fc(i) requires { S[i] = F && G = True && exists_other j. S[j] = F } { S[i] := C }
`

// tokenRing is a safe mutual exclusion by a token: the approximation
// finds the invariant "one token at most" from two processes.
const tokenRing = `type loc = Idle | Want | Crit
array L[proc] : loc
array T[proc] : bool
init (z) { L[z] = Idle && T[z] = False }
unsafe (x y) { L[x] = Crit && L[y] = Crit }
transition create(i) requires { forall_other j. T[j] = False && T[i] = False && L[i] = Idle } { T[i] := True }
transition want(i) requires { L[i] = Idle } { L[i] := Want }
transition enter(i) requires { L[i] = Want && T[i] = True } { L[i] := Crit }
transition leave(i) requires { L[i] = Crit } { L[i] := Idle }
transition pass(i j) requires { T[i] = True && L[i] = Idle }
  { T[k] := case | k = i : False | k = j : True | _ : T[k] }
`

func TestApproximation(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		want     Verdict
		guesses  bool // some cube was generalised (visited, or refuted)
		restarts bool // some guess is refuted
	}{
		{"five processes", fiveProcs, Unsafe, true, true},
		{"token ring", tokenRing, Safe, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := Load(tc.name+".cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(context.Background(), sys, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.want {
				t.Fatalf("verdict %s, want %s", res.Verdict, tc.want)
			}
			// (res.Guesses counts the guesses of the last search only)
			refuted := res.Restarts + res.Backtracks
			if (res.Guesses+refuted > 0) != tc.guesses || (refuted > 0) != tc.restarts {
				t.Errorf("%d guesses, %d restarts, %d backtracks", res.Guesses, res.Restarts, res.Backtracks)
			}
			plain, err := Verify(context.Background(), sys, Options{NoApprox: true})
			if err != nil {
				t.Fatal(err)
			}
			if plain.Verdict != tc.want || plain.Guesses != 0 || plain.Restarts != 0 {
				t.Errorf("without approximation: %s, %d guesses, %d restarts", plain.Verdict, plain.Guesses, plain.Restarts)
			}
		})
	}
}

func TestFiniteInstance(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		n      int32
		states int
	}{
		// Idle or Want without the token; Idle, Want or Crit with it
		{"token ring, 1", tokenRing, 1, 2 + 3},
		// no token: 2x2; the token at one process: 3x2, twice
		{"token ring, 2", tokenRing, 2, 4 + 2*6},
		// G, and AA, AB, BA, BB, BD, DB: C is never reached
		{"five processes, 2", fiveProcs, 2, 2 * 6},
		// an invariant formula leaves out BD and DB
		{"five processes, 2, invariant", fiveProcs + "invariant (x) { S[x] = D }\n", 2, 2 * 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := Load("f.cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if !explorable(sys) {
				t.Fatal("not explorable")
			}
			smp := newFinite(sys, tc.n).sample(nil, maxSample)
			states, complete := smp.states, smp.complete
			if !complete || len(states) != tc.states {
				t.Errorf("%d states (complete %v), want %d", len(states), complete, tc.states)
			}
		})
	}
}

func TestQueueOrder(t *testing.T) {
	mk := func(depth, slots, lits int) *Cube {
		c := &Cube{Depth: depth, Slots: make([]int32, slots), Lits: make([]Lit, lits)}
		return c
	}
	cubes := []*Cube{mk(2, 1, 1), mk(1, 2, 1), mk(1, 1, 3), mk(1, 1, 2), mk(0, 2, 2), mk(1, 1, 2)}
	tests := []struct {
		dfs  bool
		want []int // indices of cubes in pop order
	}{
		{false, []int{4, 3, 5, 2, 1, 0}},
		{true, []int{5, 4, 3, 2, 1, 0}},
	}
	for _, tc := range tests {
		q := &queue{dfs: tc.dfs}
		for _, c := range cubes {
			q.push(c)
		}
		var got []int
		for c := q.pop(); c != nil; c = q.pop() {
			got = append(got, slices.Index(cubes, c))
		}
		if !slices.Equal(got, tc.want) || q.live != 0 {
			t.Errorf("dfs=%v: order %v, want %v (live %d)", tc.dfs, got, tc.want, q.live)
		}
	}
}

// TestQueuePostponed checks that a postponed cube waits until the queue
// is empty, however shallow it is.
func TestQueuePostponed(t *testing.T) {
	a := &Cube{Depth: 3}
	b := &Cube{Depth: 0}
	c := &Cube{Depth: 5}
	q := &queue{}
	q.push(a)
	q.pushLater(b)
	q.push(c)
	if q.live != 3 {
		t.Errorf("live %d, want 3", q.live)
	}
	var got []*Cube
	for x := q.pop(); x != nil; x = q.pop() {
		got = append(got, x)
		if x == a {
			q.push(&Cube{Depth: 9})
		}
	}
	if len(got) != 4 || got[0] != a || got[1] != c || got[2].Depth != 9 || got[3] != b || q.live != 0 {
		t.Errorf("order %v (live %d), want depths 3, 5, 9, then the postponed 0", got, q.live)
	}
}

func TestEnumRewrite(t *testing.T) {
	sys, err := Load("e.cub", []byte(`type t = X | Y | Z
type u = P | Q | R | S
array A[proc] : t
array B[proc] : u
unsafe (i) { A[i] = X }
`))
	if err != nil {
		t.Fatal(err)
	}
	e := &engine{sys: sys}
	a := Term{Kind: KVar, Sort: sys.Globals[0].Sort, Sym: 0, NArgs: 1, Args: [3]int32{1}, Off: Rat{0, 1}}
	b := Term{Kind: KVar, Sort: sys.Globals[1].Sort, Sym: 1, NArgs: 1, Args: [3]int32{1}, Off: Rat{0, 1}}
	ctor := func(x Term, k int32) Term {
		return Term{Kind: KEnum, Sort: x.Sort, Sym: k, Off: Rat{0, 1}}
	}
	lit := func(op Op, x Term, k int32) Lit { l, _ := mkLit(op, x, ctor(x, k)); return l }
	tests := []struct {
		name  string
		lits  []Lit
		want  string
		unsat bool
	}{
		{"two of three", []Lit{lit(Ne, a, 0), lit(Ne, a, 2)}, "A[#1] = Y", false},
		{"one of three", []Lit{lit(Ne, a, 0)}, "A[#1] <> X", false},
		{"three of three", []Lit{lit(Ne, a, 0), lit(Ne, a, 1), lit(Ne, a, 2)}, "", true},
		{"three of four", []Lit{lit(Ne, b, 0), lit(Ne, b, 1), lit(Ne, b, 3)}, "B[#1] = R", false},
		{"two of four", []Lit{lit(Ne, b, 0), lit(Ne, b, 1)}, "B[#1] <> P && B[#1] <> Q", false},
		{"with an equality", []Lit{lit(Ne, a, 0), lit(Ne, a, 2), lit(Eq, a, 1)}, "A[#1] = Y", false},
		{"contradiction", []Lit{lit(Ne, a, 0), lit(Ne, a, 2), lit(Eq, b, 1), lit(Eq, a, 0)}, "", true},
	}
	for _, tc := range tests {
		c := &Cube{Slots: []int32{1}, Lits: tc.lits}
		r := e.cheap(c)
		if (r == cheapUnsat) != tc.unsat {
			t.Errorf("%s: unsat %v, want %v", tc.name, r == cheapUnsat, tc.unsat)
			continue
		}
		if !tc.unsat {
			if got := sys.CubeString(c); got != tc.want {
				t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
			}
		}
	}
}

func TestDeleteSubsumed(t *testing.T) {
	sys, err := Load("d.cub", []byte(`type t = X | Y | Z
var B : bool
array A[proc] : t
unsafe (i) { A[i] = X }
`))
	if err != nil {
		t.Fatal(err)
	}
	e := &engine{sys: sys}
	cell := func(s int32) Term {
		return Term{Kind: KVar, Sort: sys.Globals[1].Sort, Sym: 1, NArgs: 1, Args: [3]int32{s}, Off: Rat{0, 1}}
	}
	b := Term{Kind: KVar, Sort: sys.Globals[0].Sort, Sym: 0, Off: Rat{0, 1}}
	x := Term{Kind: KEnum, Sort: cell(1).Sort, Sym: 0, Off: Rat{0, 1}}
	y := Term{Kind: KEnum, Sort: cell(1).Sort, Sym: 1, Off: Rat{0, 1}}
	eq := func(l, r Term) Lit { v, _ := mkLit(Eq, l, r); return v }
	mk := func(slots []int32, ls ...Lit) *Cube {
		c := &Cube{Slots: slots, Lits: ls}
		e.prepare(c)
		return c
	}
	tests := []struct {
		name    string
		visited []*Cube
		c       *Cube
		left    int
	}{
		{"more literals", []*Cube{mk([]int32{1}, eq(cell(1), x), eq(b, boolTerm(true)))}, mk([]int32{1}, eq(cell(1), x)), 0},
		{"renamed", []*Cube{mk([]int32{1, 2}, eq(cell(1), y), eq(cell(2), x))}, mk([]int32{1}, eq(cell(1), x)), 0},
		{"other value", []*Cube{mk([]int32{1}, eq(cell(1), y))}, mk([]int32{1}, eq(cell(1), x)), 1},
		{"more general", []*Cube{mk([]int32{1}, eq(cell(1), x))}, mk([]int32{1}, eq(cell(1), x), eq(b, boolTerm(false))), 1},
		{"fewer processes", []*Cube{mk([]int32{1}, eq(cell(1), x))}, mk([]int32{1, 2}, eq(cell(1), x), eq(cell(2), x)), 1},
	}
	for _, tc := range tests {
		e.visited = slices.Clone(tc.visited)
		n := e.deleteSubsumed(tc.c)
		if len(e.visited) != tc.left || n != len(tc.visited)-tc.left {
			t.Errorf("%s: %d left (%d deleted), want %d", tc.name, len(e.visited), n, tc.left)
		}
	}
}
