package param

import (
	"slices"
	"testing"
)

// absSystem has an integer (not tracked by the abstract sample) that
// guards a move of the control array.
const absSystem = `type loc = Idle | Wait | Crit
var Count : int
array L[proc] : loc
init (z) { L[z] = Idle && Count = 0 }
unsafe (x y) { L[x] = Crit && L[y] = Crit }
transition wait(i) requires { L[i] = Idle } { L[i] := Wait; Count := Count + 1 }
transition enter(i) requires { L[i] = Wait && Count = 1 && forall_other j. L[j] <> Crit } { L[i] := Crit }
transition leave(i) requires { L[i] = Crit } { L[i] := Idle; Count := Count - 1 }
`

// TestAbstractSample checks the abstract exploration: a system with an
// integer is sampled abstractly and lazily, the integer is unknown, the
// guard over it may hold, and a literal over an unknown cell holds in
// the sets of states.
func TestAbstractSample(t *testing.T) {
	sys, err := Load("abs.cub", []byte(absSystem))
	if err != nil {
		t.Fatal(err)
	}
	a := newApproximator(sys, nil)
	if a == nil || !a.abstract {
		t.Fatalf("approximator %v: want an abstract one", a)
	}
	if a.sampled() != 0 {
		t.Fatalf("%d states sampled before the search: want none (lazy)", a.sampled())
	}
	a.grow(1000)
	if a.unsafe {
		t.Fatal("an abstract sample must not report an unsafe state")
	}
	s := a.sets[0]
	crit := false
	for _, st := range s.rows() {
		if st[s.layout.base[0]] != unknown {
			t.Fatalf("state %v: Count is tracked", st)
		}
		for p := int32(1); p <= s.n; p++ {
			var args [maxArity]int32
			args[0] = p
			if st[s.layout.cell(1, 1, args)] == 2 { // Crit
				crit = true
			}
		}
	}
	if !crit {
		t.Error("the guard Count = 1 may hold: Crit must be reached")
	}
	// a literal over the unknown integer holds in every state
	lit := groundLit{op: Eq, l: operand{cell: s.layout.base[0]}, r: operand{cell: -1, val: 7}}
	b := s.statesOf(lit)
	for i := range s.count() {
		if b[i/64]&(1<<uint(i%64)) == 0 {
			t.Fatalf("state %d: Count = 7 does not hold on an unknown Count", i)
		}
	}
}

// exactSystem is a finite-state system (sampled exactly).
const exactSystem = `type loc = Idle | Wait | Crit
var Turn : proc
array L[proc] : loc
init (z) { L[z] = Idle }
unsafe (x y) { L[x] = Crit && L[y] = Crit }
transition wait(i) requires { L[i] = Idle } { L[i] := Wait; Turn := i }
transition enter(i) requires { L[i] = Wait && Turn = i && forall_other j. L[j] <> Crit } { L[i] := Crit }
transition leave(i) requires { L[i] = Crit } { L[i] := Idle; Turn := . }
`

// TestExactSampleIsExplorerSample checks that the lazy sample in exact
// mode, grown a few states at a time, is the sample of the one explorer
// (finite.sample): the same states in the same order.
func TestExactSampleIsExplorerSample(t *testing.T) {
	sys, err := Load("exact.cub", []byte(exactSystem))
	if err != nil {
		t.Fatal(err)
	}
	if !explorable(sys) {
		t.Fatal("exact.cub: want an explorable system")
	}
	for _, n := range []int32{2, 3} {
		want := newFinite(sys, n).sample(nil, maxSample)
		x := newSampler(newFinite(sys, n), false)
		for limit := 7; !x.res.complete && !x.unsafe && limit < 10*maxSample; limit += 7 {
			x.grow(nil, limit)
		}
		if x.unsafe {
			t.Fatalf("n=%d: the sample meets an unsafe state", n)
		}
		if !x.res.complete || !want.complete {
			t.Fatalf("n=%d: complete %v and %v, want both", n, x.res.complete, want.complete)
		}
		states := x.rows()
		if len(states) != len(want.states) {
			t.Fatalf("n=%d: %d states, the explorer %d", n, len(states), len(want.states))
		}
		for i := range want.states {
			// (the sampler's successors come from the explorer's
			// scratch buffer, the explorer's sample allocates each)
			if !slices.Equal(states[i], want.states[i]) || int(x.res.parent[i]) != want.parent[i] ||
				x.step(i).t != want.step[i].t || !slices.Equal(x.step(i).args, want.step[i].args) {
				t.Fatalf("n=%d: state %d is %v (parent %d), the explorer's %v (parent %d)", n, i,
					states[i], x.res.parent[i], want.states[i], want.parent[i])
			}
		}
	}
}

// rows returns the states of the sampler (tests).
func (x *sampler) rows() [][]int64 { return x.store.rows() }

// rows returns the states of the sample (tests).
func (s *sampleSet) rows() [][]int64 {
	if s.packed == nil {
		return s.states
	}
	return s.packed.rows()[:s.nPacked]
}
