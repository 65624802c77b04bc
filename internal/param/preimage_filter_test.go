package param

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// preImageTrail explores backward from the unsafe cubes of sys, breadth
// first, up to limit cubes, and lists every pre-image it computes, in
// order, as text.
func preImageTrail(t *testing.T, sys *System, noPreFilter bool, limit int) []string {
	t.Helper()
	e := &engine{sys: sys, opts: Options{}, noPreFilter: noPreFilter}
	e.z = newSolver(sys)
	defer e.z.close()
	var queue []*Cube
	for _, u := range sys.Unsafe {
		queue = append(queue, e.rootCubes(u)...)
	}
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(queue) && i < limit; i++ {
		c := queue[i]
		e.prepare(c)
		for _, p := range e.preImages(c) {
			s := sys.CubeString(p)
			out = append(out, s)
			// (small new cubes only: the pre-images of large ones
			// multiply)
			if !seen[s] && len(p.Lits) <= 6 && len(p.Slots) <= 3 {
				seen[s] = true
				queue = append(queue, p)
			}
		}
		out = append(out, "|")
	}
	return out
}

// TestPreImageFilter compares the pre-images with and without
// guardRefuted and the kept instantiated guards (preimage.go): the same
// cubes in the same order, on random systems of both generators (some
// with weak variables, where both are off) and on the FLASH files.
func TestPreImageFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 5))
	var srcs []string
	for i := range 120 {
		weak := 0.0
		if i%4 == 3 {
			weak = 0.3
		}
		if i%2 == 0 {
			srcs = append(srcs, genSystemWith(rng, weak, i%3 == 0))
		} else {
			srcs = append(srcs, genWide(rng, weak))
		}
	}
	var systems []*System
	for i, src := range srcs {
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		systems = append(systems, sys)
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "examples", "challenges_flash2*.cub"))
	for _, f := range files {
		sys, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		systems = append(systems, sys)
	}
	total := 0
	for i, sys := range systems {
		limit := 20
		if i >= len(srcs) {
			limit = 6
		}
		a := preImageTrail(t, sys, false, limit)
		b := preImageTrail(t, sys, true, limit)
		if !slices.Equal(a, b) {
			for k := range min(len(a), len(b)) {
				if a[k] != b[k] {
					t.Fatalf("system %d: pre-image %d differs:\n%s\nwithout the filter:\n%s", i, k, a[k], b[k])
				}
			}
			t.Fatalf("system %d: %d pre-images, %d without the filter", i, len(a), len(b))
		}
		total += len(a)
	}
	if total < 1000 {
		t.Fatalf("only %d pre-images compared", total)
	}
	t.Logf("%d systems, %d pre-images and separators compared", len(systems), total)
}

// TestShapeNe checks shapeNe's factoring of shape on the literals of the
// FLASH files' unsafe cubes and their pre-images: "x <> y" for every
// atom x and every constructor, slot or atom y met.
func TestShapeNe(t *testing.T) {
	sys, err := ParseFile(filepath.Join(corpusDir, "examples", "challenges_flash2.cub"))
	if err != nil {
		t.Fatal(err)
	}
	e := &engine{sys: sys, opts: Options{}}
	e.z = newSolver(sys)
	defer e.z.close()
	var terms []Term
	for _, u := range sys.Unsafe {
		for _, c := range e.rootCubes(u) {
			e.prepare(c)
			for _, p := range append(e.preImages(c), c) {
				for _, l := range p.Lits {
					terms = append(terms, l.L, l.R)
				}
			}
		}
	}
	n := 0
	for _, x := range terms {
		for _, y := range terms {
			if shape(Lit{Op: Ne, L: x, R: y}) != shapeTerm(shapeNe(x), y) {
				t.Fatalf("shape of %v <> %v differs", x, y)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d pairs", n)
	}
}

// TestInitFilter compares reachesInit with and without initConflicts on
// the cubes of a backward exploration of random systems (both
// generators, some weak) and of the FLASH files.
func TestInitFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 5))
	var systems []*System
	for i := range 80 {
		weak := 0.0
		if i%4 == 3 {
			weak = 0.3
		}
		src := genWide(rng, weak)
		if i%2 == 0 {
			src = genSystemWith(rng, weak, i%3 == 0)
		}
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		systems = append(systems, sys)
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "examples", "challenges_flash2_exclusive*.cub"))
	for _, f := range files {
		sys, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		systems = append(systems, sys)
	}
	reached, total := 0, 0
	for i, sys := range systems {
		a := &engine{sys: sys, opts: Options{}}
		b := &engine{sys: sys, opts: Options{}, noInitFilter: true}
		a.z, b.z = newSolver(sys), newSolver(sys)
		var queue []*Cube
		for _, u := range sys.Unsafe {
			queue = append(queue, a.rootCubes(u)...)
		}
		seen := map[string]bool{}
		for k := 0; k < len(queue) && k < 40; k++ {
			c := queue[k]
			a.prepare(c)
			ra, rb := a.reachesInit(c), b.reachesInit(c)
			if ra != rb {
				t.Fatalf("system %d: reachesInit of %s: %v, %v without the filter", i, sys.CubeString(c), ra, rb)
			}
			total++
			if ra {
				reached++
			}
			for _, p := range a.preImages(c) {
				if s := sys.CubeString(p); !seen[s] && len(p.Lits) <= 6 && len(p.Slots) <= 3 {
					seen[s] = true
					queue = append(queue, p)
				}
			}
		}
		a.z.close()
		b.z.close()
	}
	if total < 1500 || reached < 50 {
		t.Fatalf("only %d cubes, %d reaching init", total, reached)
	}
	t.Logf("%d systems, %d cubes, %d reach init", len(systems), total, reached)
}

// TestBuildPrepared checks that the pre-images build marks as prepared
// are what prepare would make of them: the same literals in the same
// order, the same open flag, on random systems (both generators, some
// weak) and the FLASH files.
func TestBuildPrepared(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 5))
	var systems []*System
	for i := range 80 {
		weak := 0.0
		if i%4 == 3 {
			weak = 0.3
		}
		src := genWide(rng, weak)
		if i%2 == 0 {
			src = genSystemWith(rng, weak, i%3 == 0)
		}
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		systems = append(systems, sys)
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "examples", "challenges_flash2_exclusive*.cub"))
	for _, f := range files {
		sys, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		systems = append(systems, sys)
	}
	n, open := 0, 0
	for i, sys := range systems {
		e := &engine{sys: sys, opts: Options{}}
		e.z = newSolver(sys)
		var queue []*Cube
		for _, u := range sys.Unsafe {
			queue = append(queue, e.rootCubes(u)...)
		}
		seen := map[string]bool{}
		for k := 0; k < len(queue) && k < 30; k++ {
			c := queue[k]
			e.prepare(c)
			for _, p := range e.preImages(c) {
				if p.sig == 0 {
					continue // (not marked)
				}
				q := *p
				q.Lits, q.sig, q.open = slices.Clone(p.Lits), 0, !p.open
				e.prepare(&q)
				if q.open != p.open || !slices.Equal(q.Lits, p.Lits) {
					t.Fatalf("system %d: %s prepared again: %s, open %v (build: %v)", i, sys.CubeString(p), sys.CubeString(&q), q.open, p.open)
				}
				n++
				if p.open {
					open++
				}
				if s := sys.CubeString(p); !seen[s] && len(p.Lits) <= 6 && len(p.Slots) <= 3 {
					seen[s] = true
					queue = append(queue, p)
				}
			}
		}
		e.z.close()
	}
	if n < 1000 {
		t.Fatalf("only %d pre-images", n)
	}
	t.Logf("%d pre-images, %d open", n, open)
}
