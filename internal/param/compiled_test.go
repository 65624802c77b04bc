package param

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// sameSuccessors compares the compiled successors (compiled.go) of the
// states of a breadth-first sample of the instance of sys with n
// processes against the interpreter's, state by state and in order.
func sameSuccessors(sys *System, n int32, limit int) error {
	interp := newFinite(sys, n)
	interp.noCompile = true
	comp := newFinite(sys, n)
	if comp.compiled() == nil {
		return nil // the interpreter does it all
	}
	smp := interp.sample(nil, limit)
	var a, b []successor
	for i, st := range smp.states {
		a = interp.successors(st, a[:0])
		b = comp.successors(st, b[:0])
		if err := sameSteps(n, i, st, a, b); err != nil {
			return err
		}
	}
	return nil
}

// sameSteps compares the compiled successors b of state st (number i of
// an instance of n processes) with the interpreter's a.
func sameSteps(n int32, i int, st []int64, a, b []successor) error {
	if len(a) != len(b) {
		return fmt.Errorf("n=%d state %d %v: %d successors, the interpreter %d", n, i, st, len(b), len(a))
	}
	for k := range a {
		if !slices.Equal(a[k].st, b[k].st) || a[k].step.t != b[k].step.t || !slices.Equal(a[k].step.args, b[k].step.args) {
			return fmt.Errorf("n=%d state %d %v: successor %d is %v by %s%v, the interpreter's %v by %s%v", n, i, st, k,
				b[k].st, b[k].step.t.Name, b[k].step.args, a[k].st, a[k].step.t.Name, a[k].step.args)
		}
	}
	return nil
}

// sameAbsSuccessors is sameSuccessors for the abstract sample.
func sameAbsSuccessors(sys *System, n int32, limit int) error {
	interp := newSampler(newFinite(sys, n), true)
	interp.absTried = true
	comp := newSampler(newFinite(sys, n), true)
	if compileAbs(comp) == nil {
		return nil
	}
	comp.abs, comp.absTried = compileAbs(comp), true
	interp.grow(nil, limit)
	var a, b []successor
	for i, st := range interp.rows() {
		a = interp.absSuccessors(st, a[:0])
		comp.scr = comp.scr[:0]
		b = comp.compiledAbsSuccessors(comp.abs, st, b[:0])
		if err := sameSteps(n, i, st, a, b); err != nil {
			return err
		}
	}
	return nil
}

// TestCompiledSuccessors: the compiled transitions give the successors
// of the interpreter, in the same order, on every corpus file without
// weak memory (instances with 2 and 3 processes, the first states of a
// breadth-first sample, exact or abstract; more states under
// MUSKET_LONG) and on random systems (exact and abstract).
func TestCompiledSuccessors(t *testing.T) {
	long := os.Getenv("MUSKET_LONG") != ""
	files := corpusFiles()
	more, _ := filepath.Glob(filepath.Join(corpusDir, "examples", "*.cub"))
	files = append(files, more...)
	compiled, abstract := 0, 0
	for _, file := range files {
		sys, err := ParseFile(file)
		if err != nil || sys.Weak {
			continue
		}
		limit := 150
		if long {
			limit = 3000
		}
		for n := int32(2); n <= 3; n++ {
			if newFinite(sys, n).compiled() != nil {
				compiled++
			}
			if err := sameSuccessors(sys, n, limit); err != nil {
				t.Errorf("%s: %v", filepath.Base(file), err)
			}
			if !explorable(sys) {
				if err := sameAbsSuccessors(sys, n, limit); err != nil {
					t.Errorf("%s (abstract): %v", filepath.Base(file), err)
				}
				abstract++
			}
		}
	}
	if abstract == 0 {
		t.Fatal("no abstract corpus file")
	}
	if compiled == 0 {
		t.Fatal("no corpus file compiled")
	}
	rng := rand.New(rand.NewPCG(7, 7))
	random, randomAbs := 0, 0
	for i := range 200 {
		src := genSystem(rng, 0)
		sys, err := Load("gen.cub", []byte(src))
		if err != nil || sys.Weak {
			continue
		}
		if newFinite(sys, 2).compiled() != nil {
			random++
		}
		for n := int32(2); n <= 3; n++ {
			if err := sameSuccessors(sys, n, 200); err != nil {
				t.Fatalf("random system %d: %v\n%s", i, err, src)
			}
			// (the abstract sample takes any system: on these, whose
			// cells are all tracked, a free or nondeterministic cell
			// is unknown)
			if err := sameAbsSuccessors(sys, n, 100); err != nil {
				t.Fatalf("random system %d (abstract): %v\n%s", i, err, src)
			}
			randomAbs++
		}
	}
	t.Logf("compiled: %d corpus instances (%d abstract), %d random systems (%d abstract instances)", compiled, abstract, random, randomAbs)
	if random < 50 {
		t.Errorf("%d random systems compiled, want 50 or more", random)
	}
}

// TestStatesOfPacked: the sets of states where a literal holds, over a
// packed sample (a byte a cell: one look-up table per literal), are
// those of the literal evaluated on each state, exact and abstract.
func TestStatesOfPacked(t *testing.T) {
	for _, tc := range []struct {
		file     string
		abstract bool
	}{
		{"sc_german.cub", false},
		{"examples/challenges_flash_test.cub", true},
		{"examples/bakery_na.cub", true},
	} {
		sys, err := ParseFile(filepath.Join(corpusDir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		fin := newFinite(sys, 2)
		x := newSampler(fin, tc.abstract)
		x.grow(nil, 2000)
		set := newSampleSet(fin, nil)
		set.follow(x)
		rows := x.rows()
		if len(rows) == 0 || x.store.width != 1 {
			t.Fatalf("%s: %d states of width %d, want some of width 1", tc.file, len(rows), x.store.width)
		}
		for c := range fin.cells {
			for v := int64(-1); v <= 4; v++ {
				for _, op := range []Op{Eq, Ne, Lt, Ge} {
					for _, g := range []groundLit{
						{op, operand{cell: c}, operand{cell: -1, val: v}},
						{op, operand{cell: -1, val: v}, operand{cell: c, val: 1}},
					} {
						b := set.statesOf(g)
						for i, st := range rows {
							l, r := g.l.val, g.r.val
							if g.l.cell >= 0 {
								l += st[c]
							}
							if g.r.cell >= 0 {
								r += st[c]
							}
							want := st[c] == unknown || evalInt(op, l, r)
							if got := b[i/64]&(1<<uint(i%64)) != 0; got != want {
								t.Fatalf("%s: %v on state %d %v: %v, want %v", tc.file, g, i, st, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestDropIdleWrites: dropIdleWrites leaves out of FLASH's compiled
// instances the writes that change nothing (a case "j = src" for another
// j, a default "_ : A[j]"), exact and abstract; TestCompiledSuccessors
// compares the successors without them with the interpreter's.
func TestDropIdleWrites(t *testing.T) {
	sys, err := ParseFile(filepath.Join(corpusDir, "examples", "challenges_flash2_nodata.cub"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFinite(sys, 3)
	c := f.compiled()
	if c == nil {
		t.Fatal("not compiled")
	}
	x := newSampler(newFinite(sys, 3), true)
	abs := compileAbs(x)
	if abs == nil {
		t.Fatal("not compiled (abstract)")
	}
	for _, tc := range []struct {
		name  string
		insts []cInst
	}{{"exact", c.insts}, {"abstract", abs.insts}} {
		kept, all := 0, 0
		for i := range tc.insts {
			in := tc.insts[i]
			kept += len(in.writes)
			var full cInst
			var ok bool
			if tc.name == "exact" {
				full, ok = f.compileInst(in.t, in.args)
			} else {
				full, ok = compileAbsInst(x.fin, in.t, in.args)
			}
			if !ok {
				t.Fatalf("%s: %s%v does not compile again", tc.name, in.t.Name, in.args)
			}
			all += len(full.writes)
		}
		t.Logf("%s: %d writes of %d kept", tc.name, kept, all)
		if 2*kept > all+all/2 {
			t.Errorf("%s: %d writes of %d kept, want at most three quarters", tc.name, kept, all)
		}
	}
}

// TestStatesOfGrowing: a set of states where a literal holds, made on a
// smaller sample and extended to the new states after the sample grew
// (follow keeps it), is the one made at once on the grown sample, exact
// and abstract.
func TestStatesOfGrowing(t *testing.T) {
	for _, tc := range []struct {
		file     string
		abstract bool
	}{
		{"sc_german.cub", false},
		{"examples/challenges_flash_test.cub", true},
		{"examples/challenges_flash2_nodata.cub", false},
	} {
		sys, err := ParseFile(filepath.Join(corpusDir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		fin := newFinite(sys, 2)
		x := newSampler(fin, tc.abstract)
		grown := newSampleSet(fin, nil)
		var lits []groundLit
		for c := range fin.cells {
			for v := int64(-1); v <= 3; v++ {
				for _, op := range []Op{Eq, Ne, Lt} {
					lits = append(lits, groundLit{op, operand{cell: c}, operand{cell: -1, val: v}},
						groundLit{op, operand{cell: -1, val: v}, operand{cell: c, val: 1}})
				}
			}
		}
		extended := 0
		for _, limit := range []int{100, 333, 1000, 2500} {
			x.grow(nil, limit)
			before := grown.count()
			grown.follow(x)
			if grown.count() > before && before > 0 {
				extended++
			}
			fresh := newSampleSet(fin, nil)
			fresh.follow(x)
			for _, g := range lits {
				if a, b := grown.statesOf(g), fresh.statesOf(g); !slices.Equal(a, b) {
					t.Fatalf("%s: %v on %d states: extended %x, made at once %x", tc.file, g, x.count(), a, b)
				}
			}
		}
		if extended == 0 {
			t.Errorf("%s: the sample never grew (%d states)", tc.file, x.count())
		}
	}
}

// TestCompiledRoots: the compiled unsafe and invariant formulas
// (compiledRoot) give the tuple of the interpreter's rootTuple, or none
// as it does, on the states of breadth-first samples of the corpus files
// without weak memory and of random systems (with process constants),
// instances of 2 and 3 processes.
func TestCompiledRoots(t *testing.T) {
	files := corpusFiles()
	more, _ := filepath.Glob(filepath.Join(corpusDir, "examples", "*.cub"))
	files = append(files, more...)
	var systems []*System
	var names []string
	for _, file := range files {
		if sys, err := ParseFile(file); err == nil && !sys.Weak {
			systems, names = append(systems, sys), append(names, filepath.Base(file))
		}
	}
	rng := rand.New(rand.NewPCG(17, 19))
	for i := range 200 {
		src := genSystemWith(rng, 0, i%2 == 0)
		if sys, err := Load("gen.cub", []byte(src)); err == nil && !sys.Weak {
			systems, names = append(systems, sys), append(names, fmt.Sprintf("random system %d:\n%s", i, src))
		}
	}
	compiled, held := 0, 0
	for k, sys := range systems {
		for n := int32(2); n <= 3; n++ {
			interp := newFinite(sys, n)
			interp.noCompile = true
			comp := newFinite(sys, n)
			if !comp.compileOK() {
				continue
			}
			roots := append(slices.Clone(sys.Unsafe), sys.Invariants...)
			for _, r := range roots {
				if r.Params <= int(n) && comp.compiledRoot(r) != nil {
					compiled++
				}
			}
			for i, st := range interp.sample(nil, 300).states {
				for _, r := range roots {
					a := slices.Clone(interp.rootTuple(st, r))
					b := comp.rootTuple(st, r)
					if (a == nil) != (b == nil) || !slices.Equal(a, b) {
						t.Fatalf("%s n=%d state %d %v: formula %d: compiled %v, interpreter %v", names[k], n, i, st, r.Index, b, a)
					}
					if a != nil {
						held++
					}
				}
			}
		}
	}
	t.Logf("%d compiled formulas, %d states where one holds", compiled, held)
	if compiled < 100 || held == 0 {
		t.Errorf("%d compiled formulas, %d states where one holds: want 100 or more, and some", compiled, held)
	}
}
