package param

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// decideSys declares atoms of every sort the procedure knows: booleans,
// an enumeration, processes, integers, reals and an abstract type.
func decideSys(t *testing.T) *System {
	t.Helper()
	sys, err := Load("d.cub", []byte(`type t = X | Y | Z
type a
var B : bool
var C : bool
array E[proc] : t
var P : proc
var Q : proc
var I : int
var J : int
var R : real
var S : real
var K : a
var L : a
unsafe (i) { E[i] = X }
`))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// decideAtom is the atom of the global named name (E is E[#1]).
func decideAtom(sys *System, name string, off Rat) Term {
	for i, g := range sys.Globals {
		if g.Name == name {
			t := Term{Kind: KVar, Sort: g.Sort, Sym: int32(i), Off: off}
			if name == "E" {
				t.NArgs, t.Args[0] = 1, 1
			}
			return t
		}
	}
	panic(name)
}

// linSumTerm is a + k·b (a linear combination).
func linSumTerm(a, b Term, k int64) Term {
	d, _ := linearOf(a).plus(linearOf(b), Rat{k, 1})
	return d.term(a.Sort)
}

func slotPlus(s int32, k int64) Term {
	t := slotTerm(s)
	t.Off = Rat{k, 1}
	return t
}

// TestDecide: questions with a known answer, each also asked to Z3.
func TestDecide(t *testing.T) {
	sys := decideSys(t)
	z := newSolver(sys)
	defer z.close()
	zero := Rat{0, 1}
	at := func(n string) Term { return decideAtom(sys, n, zero) }
	atOff := func(n string, k int64) Term { return decideAtom(sys, n, Rat{k, 1}) }
	ctor := func(k int32) Term { return Term{Kind: KEnum, Sort: at("E").Sort, Sym: k, Off: zero} }
	num := func(k, d int64, real bool) Term {
		s := Sort{Kind: SInt}
		if real {
			s.Kind = SReal
		}
		return numTerm(rat(k, d), s)
	}
	lit := func(op Op, l, r Term) Lit {
		x, res := mkLit(op, l, r)
		if res != litOpen {
			t.Fatalf("literal %v %v %v is trivial", l, op, r)
		}
		return x
	}
	tests := []struct {
		name  string
		slots []int32
		lits  []Lit
		nots  [][]Lit
		sat   bool
	}{
		{"three booleans pairwise distinct", nil, []Lit{lit(Ne, at("B"), at("C"))}, [][]Lit{{lit(Eq, at("B"), boolTerm(true))}, {lit(Eq, at("B"), boolTerm(false))}}, false},
		{"enumeration excluded everywhere", nil, []Lit{lit(Ne, at("E"), ctor(0)), lit(Ne, at("E"), ctor(1)), lit(Ne, at("E"), ctor(2))}, nil, false},
		{"enumeration with one value left", nil, []Lit{lit(Ne, at("E"), ctor(0)), lit(Ne, at("E"), ctor(2))}, nil, true},
		{"integer between two values", nil, []Lit{lit(Gt, at("I"), num(0, 1, false)), lit(Lt, at("I"), num(3, 1, false)), lit(Ne, at("I"), num(1, 1, false)), lit(Ne, at("I"), num(2, 1, false))}, nil, false},
		{"real between two values", nil, []Lit{lit(Gt, at("R"), num(0, 1, true)), lit(Lt, at("R"), num(3, 1, true)), lit(Ne, at("R"), num(1, 1, true)), lit(Ne, at("R"), num(2, 1, true))}, nil, true},
		{"real strict cycle", nil, []Lit{lit(Lt, at("R"), at("S")), lit(Le, at("S"), at("R"))}, nil, false},
		{"real fractions", nil, []Lit{lit(Gt, at("R"), num(1, 3, true)), lit(Lt, at("R"), num(1, 2, true))}, nil, true},
		{"integer strict order", nil, []Lit{lit(Lt, at("I"), at("J")), lit(Lt, at("J"), atOff("I", 2))}, nil, true},
		{"integer no room", nil, []Lit{lit(Lt, at("I"), at("J")), lit(Lt, at("J"), atOff("I", 1))}, nil, false},
		{"slots distinct", []int32{1, 2}, []Lit{lit(Eq, at("P"), slotTerm(1)), lit(Eq, at("Q"), slotTerm(2)), lit(Eq, at("P"), at("Q"))}, nil, false},
		{"three slots ordered in two values", []int32{1, 2, 3}, []Lit{lit(Le, slotTerm(1), slotTerm(2)), lit(Le, slotTerm(2), slotTerm(3)), lit(Le, slotTerm(3), atOff("P", 0)), lit(Le, at("P"), slotTerm(1)), lit(Eq, at("I"), num(0, 1, false))}, nil, false},
		{"process between two", []int32{1, 2}, []Lit{lit(Lt, slotTerm(1), slotTerm(2)), lit(Lt, at("P"), slotTerm(2)), lit(Gt, at("P"), slotTerm(1))}, nil, true},
		{"no process between two", []int32{1, 2}, []Lit{lit(Lt, slotTerm(1), slotTerm(2)), lit(Lt, at("P"), slotTerm(2)), lit(Gt, at("P"), slotTerm(1)), lit(Lt, slotTerm(2), slotPlus(1, 2))}, nil, false},
		{"abstract values", nil, []Lit{lit(Ne, at("K"), at("L"))}, [][]Lit{{lit(Ne, at("K"), at("L"))}}, false},
		{"disjunction of two cases", nil, []Lit{lit(Eq, at("B"), boolTerm(true))}, [][]Lit{{lit(Eq, at("C"), boolTerm(true))}, {lit(Eq, at("C"), boolTerm(false)), lit(Gt, at("I"), num(3, 1, false))}}, true},
		{"linear over reals", nil, []Lit{lit(Ge, linSumTerm(at("R"), at("S"), -1), num(1, 1, true)), lit(Lt, at("R"), num(1, 1, true)), lit(Le, num(0, 1, true), at("S"))}, nil, false},
		{"linear over reals, room left", nil, []Lit{lit(Ge, linSumTerm(at("R"), at("S"), 1), num(1, 1, true)), lit(Lt, at("R"), num(1, 1, true))}, [][]Lit{{lit(Le, at("S"), num(0, 1, true))}}, true},
		{"linear equality forced", nil, []Lit{lit(Le, linSumTerm(at("R"), at("S"), 1), num(2, 1, true)), lit(Ge, linSumTerm(at("R"), at("S"), 1), num(2, 1, true)), lit(Ne, linSumTerm(at("R"), at("S"), 1), num(2, 1, true))}, nil, false},
		{"covered by the disjunction", nil, []Lit{lit(Ge, at("I"), num(0, 1, false))}, [][]Lit{{lit(Ge, at("I"), num(5, 1, false))}, {lit(Le, at("I"), num(5, 1, false))}}, false},
	}
	for _, tc := range tests {
		got := decide(sys, tc.slots, tc.lits, tc.nots)
		want := dlUnsat
		if tc.sat {
			want = dlSat
		}
		if got != want {
			t.Errorf("%s: decide says %v, want %v", tc.name, got, want)
		}
		if z3 := z.z3sat(tc.slots, tc.lits, tc.nots); z3 != tc.sat {
			t.Errorf("%s: Z3 says sat=%v (the test is wrong)", tc.name, z3)
		}
	}
}

// TestDecideRandom asks random questions to decide.go and to Z3.
func TestDecideRandom(t *testing.T) {
	sys := decideSys(t)
	z := newSolver(sys)
	defer z.close()
	n := 1000
	if os.Getenv("MUSKET_LONG") != "" {
		n = 20000
	}
	rng := rand.New(rand.NewSource(1))
	zero := Rat{0, 1}
	enumSort := decideAtom(sys, "E", zero).Sort
	pick := func() (Term, Term) {
		// a pair of terms of the same sort
		off := func() Rat { return Rat{int64(rng.Intn(5) - 2), 1} }
		switch rng.Intn(6) {
		case 0:
			a := []string{"B", "C"}
			return decideAtom(sys, a[rng.Intn(2)], zero), []Term{decideAtom(sys, a[rng.Intn(2)], zero), boolTerm(rng.Intn(2) == 0)}[rng.Intn(2)]
		case 1:
			c := Term{Kind: KEnum, Sort: enumSort, Sym: int32(rng.Intn(3)), Off: zero}
			e := decideAtom(sys, "E", zero)
			e2 := e
			e2.Args[0] = 2
			return []Term{e, e2}[rng.Intn(2)], []Term{c, e2}[rng.Intn(2)]
		case 2:
			a := []Term{decideAtom(sys, "P", zero), decideAtom(sys, "Q", zero), slotTerm(int32(1 + rng.Intn(3)))}
			return a[rng.Intn(3)], a[rng.Intn(3)]
		case 3:
			a := []string{"I", "J"}
			if rng.Intn(3) == 0 {
				return decideAtom(sys, a[rng.Intn(2)], zero), numTerm(off(), Sort{Kind: SInt})
			}
			return decideAtom(sys, a[rng.Intn(2)], off()), decideAtom(sys, a[rng.Intn(2)], off())
		case 4:
			a := []string{"R", "S"}
			if rng.Intn(3) == 0 {
				return decideAtom(sys, a[rng.Intn(2)], zero), numTerm(rat(int64(rng.Intn(7)-3), int64(1+rng.Intn(3))), Sort{Kind: SReal})
			}
			if rng.Intn(3) == 0 {
				r, s := decideAtom(sys, "R", zero), decideAtom(sys, "S", zero)
				return linSumTerm(r, s, int64(rng.Intn(5)-2)), []Term{numTerm(Rat{int64(rng.Intn(5) - 2), 1}, Sort{Kind: SReal}), linSumTerm(s, r, 2)}[rng.Intn(2)]
			}
			return decideAtom(sys, a[rng.Intn(2)], off()), decideAtom(sys, a[rng.Intn(2)], zero)
		}
		a := []string{"K", "L"}
		return decideAtom(sys, a[rng.Intn(2)], zero), decideAtom(sys, a[rng.Intn(2)], zero)
	}
	randLit := func() (Lit, bool) {
		l, r := pick()
		ops := []Op{Eq, Ne}
		if l.Sort.numeric() || l.Kind == KSlot || r.Kind == KSlot {
			ops = []Op{Eq, Ne, Lt, Le, Gt, Ge}
		}
		x, res := mkLit(ops[rng.Intn(len(ops))], l, r)
		return x, res == litOpen
	}
	conj := func(k int) []Lit {
		var out []Lit
		for len(out) < k {
			if l, ok := randLit(); ok {
				out = append(out, l)
			}
		}
		return out
	}
	counts := map[dlResult]int{}
	for i := 0; i < n; i++ {
		slots := []int32{1, 2, 3}[:rng.Intn(4)]
		lits := conj(1 + rng.Intn(5))
		var nots [][]Lit
		for k := rng.Intn(4); k > 0; k-- {
			nots = append(nots, conj(1+rng.Intn(3)))
		}
		d := decide(sys, slots, lits, nots)
		counts[d]++
		if d == dlUnknown {
			continue
		}
		if want := z.z3sat(slots, lits, nots); want != (d == dlSat) {
			t.Fatalf("question %d: decide says sat=%v, Z3 says %v:\nslots %v\nlits %v\nnots %v", i, d == dlSat, want, slots, lits, nots)
		}
	}
	t.Logf("%d questions: %d sat, %d unsat, %d left to Z3", n, counts[dlSat], counts[dlUnsat], counts[dlUnknown])
	if counts[dlUnknown] > n/100 {
		t.Errorf("%d of %d questions left to Z3", counts[dlUnknown], n)
	}
}

// TestDecideCorpusCrossCheck runs the search on corpus files with every
// question decide.go answers asked to Z3 too (a different answer
// panics): by default a few files that ask many questions, each up to a
// number of nodes; with MUSKET_LONG=1 every file of the corpus, 20 s each.
func TestDecideCorpusCrossCheck(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "cubicle")
	type run struct {
		file  string
		nodes int
	}
	runs := []run{
		{"sc_bakery_lamport.cub", 0}, {"spinlock_N.cub", 0}, {"examples/bakery_na.cub", 0},
		{"examples/challenges_ricart-synonrien.cub", 0}, {"examples/challenges_lynch_full.cub", 40},
		{"examples/distrib_channels_int1.cub", 40},
	}
	limit := 10 * time.Second
	if os.Getenv("MUSKET_LONG") != "" {
		runs = nil
		files, _ := filepath.Glob(filepath.Join(dir, "*.cub"))
		more, _ := filepath.Glob(filepath.Join(dir, "*", "*.cub"))
		for _, f := range append(files, more...) {
			rel, _ := filepath.Rel(dir, f)
			runs = append(runs, run{rel, 0})
		}
		limit = 20 * time.Second
	}
	questions, undecided := 0, 0
	for _, r := range runs {
		sys, err := ParseFile(filepath.Join(dir, r.file))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Verify(context.Background(), sys, Options{Timeout: limit, MaxNodes: r.nodes, crossCheck: true})
		if err != nil {
			t.Fatal(err)
		}
		questions += res.Solver
		undecided += res.undecided
		t.Logf("%s: %s, %d nodes, %d questions, %d left to Z3", r.file, res.Verdict, res.Visited, res.Solver, res.undecided)
	}
	t.Logf("%d questions, %d left to Z3", questions, undecided)
}
