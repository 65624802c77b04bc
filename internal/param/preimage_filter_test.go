package param

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// filterSystems draws n random systems of both generators (a quarter
// with weak variables) and adds the corpus examples that match glob;
// random says how many of them are drawn.
func filterSystems(t *testing.T, seed uint64, n int, glob string) (systems []*System, random int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 5))
	for i := range n {
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
	files, _ := filepath.Glob(filepath.Join(corpusDir, "examples", glob))
	for _, f := range files {
		sys, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		systems = append(systems, sys)
	}
	return systems, n
}

// walkPreImages explores backward from the unsafe cubes of e's system,
// breadth first, up to limit cubes: visit gets each cube, prepared, and
// its pre-images, of which the small new ones are queued (the
// pre-images of large ones multiply).
func walkPreImages(e *engine, limit int, visit func(c *Cube, pre []*Cube)) {
	var queue []*Cube
	for _, u := range e.sys.Unsafe {
		queue = append(queue, e.rootCubes(u)...)
	}
	seen := map[string]bool{}
	for i := 0; i < len(queue) && i < limit; i++ {
		c := queue[i]
		e.prepare(c)
		pre := e.preImages(c)
		visit(c, pre)
		for _, p := range pre {
			if s := e.sys.CubeString(p); !seen[s] && len(p.Lits) <= 6 && len(p.Slots) <= 3 {
				seen[s] = true
				queue = append(queue, p)
			}
		}
	}
}

// preImageTrail lists every pre-image walkPreImages computes on sys, in
// order, as text.
func preImageTrail(t *testing.T, sys *System, noPreFilter bool, limit int) []string {
	t.Helper()
	e := &engine{sys: sys, opts: Options{}, noPreFilter: noPreFilter}
	e.z = newSolver(sys)
	defer e.z.close()
	var out []string
	walkPreImages(e, limit, func(_ *Cube, pre []*Cube) {
		for _, p := range pre {
			out = append(out, sys.CubeString(p))
		}
		out = append(out, "|")
	})
	return out
}

// TestPreImageFilter compares the pre-images with and without
// guardRefuted, the kept instantiated guards and the kept update
// alternatives (altKey; preimage.go): the same
// cubes in the same order, on random systems of both generators (some
// with weak variables, where both are off) and on the FLASH files.
func TestPreImageFilter(t *testing.T) {
	systems, random := filterSystems(t, 31, 120, "challenges_flash2*.cub")
	total := 0
	for i, sys := range systems {
		limit := 20
		if i >= random {
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
	systems, _ := filterSystems(t, 37, 80, "challenges_flash2_exclusive*.cub")
	reached, total := 0, 0
	for i, sys := range systems {
		a := &engine{sys: sys, opts: Options{}}
		b := &engine{sys: sys, opts: Options{}, noInitFilter: true}
		a.z, b.z = newSolver(sys), newSolver(sys)
		walkPreImages(a, 40, func(c *Cube, _ []*Cube) {
			ra, rb := a.reachesInit(c), b.reachesInit(c)
			if ra != rb {
				t.Fatalf("system %d: reachesInit of %s: %v, %v without the filter", i, sys.CubeString(c), ra, rb)
			}
			total++
			if ra {
				reached++
			}
		})
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
	systems, _ := filterSystems(t, 43, 80, "challenges_flash2_exclusive*.cub")
	n, open := 0, 0
	for i, sys := range systems {
		e := &engine{sys: sys, opts: Options{}}
		e.z = newSolver(sys)
		walkPreImages(e, 30, func(_ *Cube, pre []*Cube) {
			for _, p := range pre {
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
			}
		})
		e.z.close()
	}
	if n < 1000 {
		t.Fatalf("only %d pre-images", n)
	}
	t.Logf("%d pre-images, %d open", n, open)
}
