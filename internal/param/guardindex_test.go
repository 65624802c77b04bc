package param

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestGuardIndex: the compiled successors with the guard index
// (guardindex.go) are those without it, in the same order, on the
// states of a breadth-first sample of FLASH's instances with 2 and 3
// processes, exact and abstract; and the index is built there (so that
// TestCompiledSuccessors, which compares with the interpreter, goes
// through it too).
func TestGuardIndex(t *testing.T) {
	for _, name := range []string{"challenges_flash2_nodata.cub", "challenges_flash.ctc_home_nodata.cub", "challenges_flash2.cub"} {
		sys, err := ParseFile(filepath.Join(testcorpus.Dir(t), "cubicle", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		for n := int32(2); n <= 3; n++ {
			if explorable(sys) {
				f := newFinite(sys, n)
				c := f.compiled()
				if c == nil || c.index == nil {
					t.Fatalf("%s n=%d: no guard index", name, n)
				}
				plain := &compiledSC{insts: c.insts}
				smp := newFinite(sys, n).sample(nil, 3000)
				var a, b []successor
				for i, st := range smp.states {
					f.scratch = false
					a = f.compiledSuccessors(plain, st, a[:0])
					b = f.compiledSuccessors(c, st, b[:0])
					if err := sameSteps(n, i, st, a, b); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
				continue
			}
			x := newSampler(newFinite(sys, n), true)
			x.abs, x.absTried = compileAbs(x), true
			if x.abs == nil || x.abs.index == nil {
				t.Fatalf("%s n=%d: no guard index (abstract)", name, n)
			}
			plain := &compiledAbs{insts: x.abs.insts}
			x.grow(nil, 3000)
			var a, b []successor
			var buf []int64
			for i := range x.count() {
				st := x.state(i, buf)
				buf = st
				x.scr = x.scr[:0]
				a = x.compiledAbsSuccessors(plain, st, a[:0])
				// (b's states are carved from x.scr after a's)
				b = x.compiledAbsSuccessors(x.abs, st, b[:0])
				if err := sameSteps(n, i, st, a, b); err != nil {
					t.Fatalf("%s (abstract): %v", name, err)
				}
			}
		}
	}
}

// TestGuardIndexRandom: the same comparison on random systems (those
// whose instance gets an index: most of their guards test a cell
// against a constant).
func TestGuardIndexRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	indexed := 0
	for i := range 300 {
		src := genSystem(rng, 0)
		sys, err := Load("gen.cub", []byte(src))
		if err != nil || sys.Weak {
			continue
		}
		for n := int32(2); n <= 3; n++ {
			if explorable(sys) {
				f := newFinite(sys, n)
				c := f.compiled()
				if c == nil || c.index == nil {
					continue
				}
				indexed++
				plain := &compiledSC{insts: c.insts}
				var a, b []successor
				for k, st := range newFinite(sys, n).sample(nil, 300).states {
					a = f.compiledSuccessors(plain, st, a[:0])
					b = f.compiledSuccessors(c, st, b[:0])
					if err := sameSteps(n, k, st, a, b); err != nil {
						t.Fatalf("random system %d: %v\n%s", i, err, src)
					}
				}
				continue
			}
			x := newSampler(newFinite(sys, n), true)
			x.abs, x.absTried = compileAbs(x), true
			if x.abs == nil || x.abs.index == nil {
				continue
			}
			indexed++
			plain := &compiledAbs{insts: x.abs.insts}
			x.grow(nil, 300)
			var a, b []successor
			var buf []int64
			for k := range x.count() {
				st := x.state(k, buf)
				buf = st
				x.scr = x.scr[:0]
				a = x.compiledAbsSuccessors(plain, st, a[:0])
				b = x.compiledAbsSuccessors(x.abs, st, b[:0])
				if err := sameSteps(n, k, st, a, b); err != nil {
					t.Fatalf("random system %d (abstract): %v\n%s", i, err, src)
				}
			}
		}
	}
	t.Logf("%d random instances with a guard index", indexed)
	if indexed < 20 {
		t.Errorf("%d random instances with a guard index, want 20 or more", indexed)
	}
}
