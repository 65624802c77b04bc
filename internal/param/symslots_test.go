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

// TestSymClasses: the classes of interchangeable slots of small cubes.
func TestSymClasses(t *testing.T) {
	src := `type st = A | B
array S[proc] : st
array N[proc] : int
var T : proc
init (i) { S[i] = A && N[i] = 0 }
unsafe (i j) { S[i] = B && S[j] = B }
transition go (i)
requires { S[i] = A }
{ S[i] := B; T := i }
`
	sys, err := Load("sym.cub", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	gS, gN, gT := int32(-1), int32(-1), int32(-1)
	for i, g := range sys.Globals {
		switch g.Name {
		case "S":
			gS = int32(i)
		case "N":
			gN = int32(i)
		case "T":
			gT = int32(i)
		}
	}
	p := sys.Pinned
	s1, s2, s3 := p+1, p+2, p+3
	st := sys.Globals[gS].Sort
	cellS := func(s int32) Term {
		return Term{Kind: KVar, Sort: st, Sym: gS, NArgs: 1, Args: [maxArity]int32{s}, Off: Rat{0, 1}}
	}
	cellN := func(s int32) Term {
		return Term{Kind: KVar, Sort: sys.Globals[gN].Sort, Sym: gN, NArgs: 1, Args: [maxArity]int32{s}, Off: Rat{0, 1}}
	}
	varT := Term{Kind: KVar, Sort: sys.Globals[gT].Sort, Sym: gT, Off: Rat{0, 1}}
	ctor := func(k int32) Term { return Term{Kind: KEnum, Sort: st, Sym: k, Off: Rat{0, 1}} }
	lit := func(op Op, l, r Term) Lit {
		nl, res := mkLit(op, l, r)
		if res != litOpen {
			t.Fatalf("literal %v %v %v is not open", l, op, r)
		}
		return nl
	}
	for _, tc := range []struct {
		name string
		lits []Lit
		want [][]int32 // the classes of two slots or more
	}{
		{"all alike", []Lit{lit(Eq, cellS(s1), ctor(1)), lit(Eq, cellS(s2), ctor(1)), lit(Eq, cellS(s3), ctor(1))}, [][]int32{{s1, s2, s3}}},
		{"two alike", []Lit{lit(Eq, cellS(s1), ctor(1)), lit(Eq, cellS(s2), ctor(0)), lit(Eq, cellS(s3), ctor(1))}, [][]int32{{s1, s3}}},
		{"none", []Lit{lit(Eq, cellS(s1), ctor(1)), lit(Eq, cellS(s2), ctor(0))}, nil},
		{"a slot named", []Lit{lit(Eq, cellS(s1), ctor(1)), lit(Eq, cellS(s2), ctor(1)), lit(Eq, varT, slotTerm(s1))}, nil},
		{"an order", []Lit{lit(Lt, cellN(s1), cellN(s2)), lit(Eq, cellS(s1), ctor(1)), lit(Eq, cellS(s2), ctor(1))}, nil},
		{"an equality", []Lit{lit(Eq, cellN(s1), cellN(s2)), lit(Eq, cellS(s1), ctor(1)), lit(Eq, cellS(s2), ctor(1)), lit(Eq, cellS(s3), ctor(0))}, [][]int32{{s1, s2}}},
		{"a sum", []Lit{lit(Eq, cellN(s3), symSumTerm(t, cellN(s1), cellN(s2))), lit(Eq, cellS(s3), ctor(0))}, [][]int32{{s1, s2}}},
	} {
		c := &Cube{Slots: []int32{s1, s2, s3}, Lits: tc.lits}
		slices.SortFunc(c.Lits, cmpLit)
		class := symClasses(c, p)
		var got [][]int32
		for _, s := range c.Slots {
			if class == nil || class[s] != s {
				continue
			}
			var cl []int32
			for _, x := range c.Slots {
				if class[x] == s {
					cl = append(cl, x)
				}
			}
			if len(cl) > 1 {
				got = append(got, cl)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: classes %v, want %v", tc.name, got, tc.want)
		}
	}
}

// symSumTerm is a + b, a linear term.
func symSumTerm(t *testing.T, a, b Term) Term {
	r, ok := linearOf(a).plus(linearOf(b), Rat{1, 1})
	if !ok {
		t.Fatal("linear term")
	}
	return r.term(a.Sort)
}

// TestSymCut: leaving out the renamings that interchangeable slots of
// the cube give, and adding the images of the residuals instead
// (symslots.go), changes nothing: the corpus files without weak
// variables and random systems, searched with and without the cut, give
// the same verdicts after the same number of visited cubes. The cut
// must have been taken.
func TestSymCut(t *testing.T) {
	defer func() { symCutOff = false }()
	same := func(name string, sys *System, nodes int) {
		var res [2]*Result
		for k, off := range []bool{false, true} {
			symCutOff = off
			var err error
			res[k], err = Verify(context.Background(), sys, Options{MaxNodes: nodes})
			if err != nil {
				t.Fatal(err)
			}
		}
		if res[0].Verdict != res[1].Verdict || res[0].Visited != res[1].Visited {
			t.Fatalf("%s: %s in %d nodes with the cut, %s in %d without",
				name, res[0].Verdict, res[0].Visited, res[1].Verdict, res[1].Visited)
		}
	}
	nodes, sysN := 60, 60
	if os.Getenv("MUSKET_LONG") != "" {
		nodes, sysN = 400, 600
	}
	before := symCutCount.Load()
	var files []string
	for _, dir := range []string{"", "examples", "challenges"} {
		fs, _ := filepath.Glob(filepath.Join(corpusDir, dir, "*.cub"))
		files = append(files, fs...)
	}
	for _, f := range files {
		sys, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !sys.Weak {
			same(f, sys, nodes)
		}
	}
	rng := rand.New(rand.NewPCG(selfCheckSeed(23), 31))
	for i := range sysN {
		src := genSystemWith(rng, 0, i%2 == 1)
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		same(fmt.Sprintf("system %d\n%s", i, src), sys, 200)
	}
	cuts := symCutCount.Load() - before
	t.Logf("%d fixpoint tests left renamings out", cuts)
	if cuts == 0 {
		t.Fatal("no test left a renaming out: the comparison proves nothing")
	}
}
