package param

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

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

// TestRenamesInPlace: for the literals renamesInPlace accepts, renaming
// their slots gives what mkLit gives, with the same shape, on every sort
// and operator.
func TestRenamesInPlace(t *testing.T) {
	sys, err := Load("s.cub", []byte(`type t = X | Y | Z
var B : bool
array A[proc] : t
array N[proc] : int
array R[proc] : real
array P[proc] : proc
array M[proc, proc] : bool
unsafe (i) { A[i] = X }
`))
	if err != nil {
		t.Fatal(err)
	}
	cell := func(g int32, args ...int32) Term {
		x := Term{Kind: KVar, Sort: sys.Globals[g].Sort, Sym: g, NArgs: int32(len(args)), Off: Rat{0, 1}}
		copy(x.Args[:], args)
		return x
	}
	rights := map[int32][]Term{
		0: {boolTerm(true), boolTerm(false)},
		1: {{Kind: KEnum, Sort: sys.Globals[1].Sort, Sym: 0, Off: Rat{0, 1}}, {Kind: KEnum, Sort: sys.Globals[1].Sort, Sym: 2, Off: Rat{0, 1}}},
		2: {numTerm(Rat{3, 1}, sys.Globals[2].Sort), numTerm(Rat{-1, 1}, sys.Globals[2].Sort)},
		3: {numTerm(Rat{1, 2}, sys.Globals[3].Sort)},
		4: {slotTerm(1), slotTerm(2)},
		5: {boolTerm(true), boolTerm(false)},
	}
	lefts := []Term{cell(0), cell(1, 1), cell(1, 2), cell(2, 2), cell(3, 1), cell(4, 1), cell(4, 2), cell(5, 1, 2), cell(5, 2, 1)}
	sigma := map[int32]int32{1: 3, 2: 1}
	rename := func(x Term) Term {
		switch x.Kind {
		case KSlot:
			x.Sym = sigma[x.Sym]
		case KVar:
			for i := 0; i < int(x.NArgs); i++ {
				x.Args[i] = sigma[x.Args[i]]
			}
		}
		return x
	}
	tried := 0
	for _, l := range lefts {
		for _, r := range rights[l.Sym] {
			for _, op := range []Op{Eq, Ne, Lt, Le, Gt, Ge} {
				lit, res := mkLit(op, l, r)
				if res != litOpen || !renamesInPlace(&lit) {
					continue
				}
				tried++
				fast := Lit{Op: lit.Op, L: rename(lit.L), R: lit.R}
				if lit.R.Kind == KSlot {
					fast.R = rename(lit.R)
				}
				slow, res := mkLit(lit.Op, rename(lit.L), rename(lit.R))
				if res != litOpen || slow != fast || shape(slow) != shape(lit) {
					t.Errorf("%s renamed: in place %s, mkLit %s (%d)", sys.litString(lit), sys.litString(fast), sys.litString(slow), res)
				}
			}
		}
	}
	if tried < 30 {
		t.Errorf("only %d literals tried", tried)
	}
}

// TestResidualSet: a residual is listed once, whatever the order of its
// literals; residuals that differ in a literal, in a slot or in length
// are all kept.
func TestResidualSet(t *testing.T) {
	sys, err := Load("s.cub", []byte(`type t = X | Y | Z
array A[proc] : t
array N[proc] : int
unsafe (i) { A[i] = X }
`))
	if err != nil {
		t.Fatal(err)
	}
	cell := func(g, p int32) Term {
		return Term{Kind: KVar, Sort: sys.Globals[g].Sort, Sym: g, NArgs: 1, Args: [3]int32{p}, Off: Rat{0, 1}}
	}
	ctor := func(k int32) Term { return Term{Kind: KEnum, Sort: sys.Globals[0].Sort, Sym: k, Off: Rat{0, 1}} }
	ax1, _ := mkLit(Eq, cell(0, 1), ctor(0))
	ay1, _ := mkLit(Eq, cell(0, 1), ctor(1))
	ax2, _ := mkLit(Eq, cell(0, 2), ctor(0))
	n12, _ := mkLit(Le, cell(1, 1), cell(1, 2))
	tests := []struct {
		res  []Lit
		want bool
	}{
		{[]Lit{ax1, n12}, true},
		{[]Lit{n12, ax1}, false}, // the same, in another order
		{[]Lit{ax1}, true},
		{[]Lit{ax2, n12}, true}, // another slot
		{[]Lit{ay1, n12}, true}, // another constructor
		{[]Lit{ax1, n12, ay1}, true},
		{[]Lit{ay1, ax1, n12}, false},
		{[]Lit{ax1}, false},
		{[]Lit{n12}, true},
	}
	s := &residualSet{}
	var list [][]Lit
	for i, tc := range tests {
		res := slices.Clone(tc.res)
		if got := s.add(res, list); got != tc.want {
			t.Fatalf("residual %d: new %v, want %v", i, got, tc.want)
		} else if got {
			list = append(list, res)
		}
	}
	if len(list) != 6 {
		t.Fatalf("%d residuals listed, want 6", len(list))
	}
}

// TestJudgeMemo: the memo of subsumedByPermutations' judge (outcomes by
// literal and images of its slots, in the dense table or the map)
// changes nothing: the corpus files without weak variables (top folder
// and examples/) and random systems, searched with the memo (dense
// table and map, then the map alone) and without it, give the same
// verdicts after the same number of visited cubes.
func TestJudgeMemo(t *testing.T) {
	dense := judgeDenseLits
	defer func() { judgeNoMemo, judgeDenseLits = false, dense }()
	// (a node limit, no time limit: the searches must stop at the
	// same place)
	modes := []struct {
		name  string
		off   bool
		dense int
	}{{"with the memo", false, dense}, {"with the map alone", false, 0}, {"without the memo", true, dense}}
	same := func(name string, sys *System, nodes int) {
		var res [3]*Result
		for k, m := range modes {
			judgeNoMemo, judgeDenseLits = m.off, m.dense
			var err error
			res[k], err = Verify(context.Background(), sys, Options{MaxNodes: nodes})
			if err != nil {
				t.Fatal(err)
			}
		}
		for k := 1; k < len(res); k++ {
			if res[0].Verdict != res[k].Verdict || res[0].Visited != res[k].Visited {
				t.Fatalf("%s: %s in %d nodes %s, %s in %d %s",
					name, res[0].Verdict, res[0].Visited, modes[0].name, res[k].Verdict, res[k].Visited, modes[k].name)
			}
		}
	}
	nodes := 40
	if os.Getenv("MUSKET_LONG") != "" {
		nodes = 300
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.cub"))
	more, _ := filepath.Glob(filepath.Join(corpusDir, "examples", "*.cub"))
	for _, f := range append(files, more...) {
		sys, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !sys.Weak {
			same(f, sys, nodes)
		}
	}
	rng := rand.New(rand.NewPCG(selfCheckSeed(17), 29))
	for i := range 60 {
		src := genSystemWith(rng, 0, i%2 == 1)
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		same(fmt.Sprintf("system %d\n%s", i, src), sys, 200)
	}
}
