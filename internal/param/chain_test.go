package param

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// refDNF is dnf as it was before chain: And and Or fold their two sides
// pairwise (product, union), recursively.
func refDNF(c *checker, e Expr, neg bool, sc *scope) []Conj {
	switch x := e.(type) {
	case *BinExpr:
		switch x.Op {
		case OpAnd, OpOr:
			l, r := refDNF(c, x.L, neg, sc), refDNF(c, x.R, neg, sc)
			if (x.Op == OpAnd) != neg {
				return c.product(x.Pos, l, r)
			}
			return c.union(x.Pos, l, r)
		}
	case *NotExpr:
		return refDNF(c, x.E, !neg, sc)
	}
	return c.dnf(e, neg, sc)
}

// chainChecker parses a system whose first transition's guard is guard
// and returns its checker, with the declarations resolved, and the guard.
func chainChecker(t *testing.T, guard string) (*checker, Expr) {
	src := "type state = A | B | C\nvar X : state\nvar Y : state\ninit (z) { X = A }\nunsafe (z) { X = B }\n" +
		"transition t (i)\nrequires { " + guard + " }\n{ X := B; }\n"
	f, err := Parse("chain.cub", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := &checker{f: f, sys: &System{File: f.Name}, types: map[string]Sort{"bool": {Kind: SBool}},
		ctors: map[string]Term{}, globals: map[string]int32{}, preds: map[string]*PredicateDecl{}}
	c.declarations()
	if len(c.errs) > 0 {
		t.Fatal(c.errs.Err())
	}
	return c, f.Transitions[0].Guard
}

// TestChainAsPairwise: chain gives what the pairwise fold gave, the same
// conjunctions in the same order, on random formulas of && || and not
// (chains of one connective, grouped every way), and the same error
// when the normal form is too large.
func TestChainAsPairwise(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	atoms := []string{"X = A", "X <> B", "Y = C", "Y = X", "X = Y"}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth == 0 || rng.Intn(4) == 0 {
			return atoms[rng.Intn(len(atoms))]
		}
		switch rng.Intn(5) {
		case 0:
			return "not (" + gen(depth-1) + ")"
		case 1:
			return "(" + gen(depth-1) + ")"
		}
		op := []string{" && ", " || "}[rng.Intn(2)]
		n := 2 + rng.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = gen(depth - 1)
		}
		return strings.Join(parts, op)
	}
	guards := []string{
		strings.Repeat("(X = A || Y = B) && ", 12) + "X = A", // 2^13 > maxDNF: too large
		strings.Repeat("X = A || ", 5000) + "X = B",          // too large
	}
	for i := 0; i < 300; i++ {
		guards = append(guards, gen(3))
	}
	for _, g := range guards {
		for _, neg := range []bool{false, true} {
			c, e := chainChecker(t, g)
			sc := &scope{kind: inTrans, vars: map[string]Term{"i": slotTerm(paramSlot(0))}, params: map[int32]bool{paramSlot(0): true}}
			got := c.dnf(e, neg, sc)
			gotErr := fmt.Sprint(c.errs.Err())
			c.errs = nil
			want := refDNF(c, e, neg, sc)
			wantErr := fmt.Sprint(c.errs.Err())
			// After an error the pairwise fold went on from nil, and
			// what it returned was dropped: only the errors count then.
			if gotErr != wantErr || wantErr == "<nil>" && !reflect.DeepEqual(got, want) {
				t.Fatalf("%.200q (negated %v):\n got %.300v, %s\nwant %.300v, %s", g, neg, got, gotErr, want, wantErr)
			}
		}
	}
}

// TestFlatChain: a chain of 10^5 atoms is not nested (robust5: it was
// refused as "formula nested too deeply").
func TestFlatChain(t *testing.T) {
	const n = 100000
	sys, err := Parse("flat.cub", []byte("type state = A | B\nvar X : state\ninit (z) { X = A }\nunsafe (z) { X = B }\n"+
		"transition t (i)\nrequires { "+strings.Repeat("X = A && ", n-1)+"X = A }\n{ X := B; }\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Check(sys)
	if err != nil {
		t.Fatal(err)
	}
	if g := s.Trans[0].Guard; len(g) != 1 || len(g[0].Lits) != n {
		t.Fatalf("guard of %d conjunctions, want 1 of %d literals", len(g), n)
	}
}
