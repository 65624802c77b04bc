package param

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMatcherRandom compares the matcher (slices, signatures, the ghb
// order checked as events are mapped) with the one it replaced
// (subsume_ref_test.go: maps, the order checked on complete renamings).
// The cubes are the visited cubes of random weak systems proved SAFE,
// and mutants of them: an order of ghb dropped, a process flag or an
// access of an event dropped, an event dropped. For every pair (v, c),
// both must enumerate the same renamings in the same order, in the
// syntactic mode and the semantic one (numeric literals left out), and
// give the same answer when the first renaming stops the search.
func TestMatcherRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(selfCheckSeed(53), 11))
	systems, pairs, found := 0, 0, 0
	for i := range selfCheckCount(30, 600) {
		var src string
		if i%3 == 2 {
			src = genWide(rng, 0.9)
		} else {
			src = genSystemWith(rng, 0.9, i%3 == 1)
		}
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		// (the time limit only bounds the search that makes the cubes:
		// what is compared does not depend on where it stops)
		res, err := Verify(context.Background(), sys, Options{MaxNodes: 100, Timeout: time.Second, skipPlain: i%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Safe || len(res.cubes) == 0 {
			continue
		}
		systems++
		e := &engine{sys: sys, stop: func() bool { return false }}
		cubes := slices.Clone(res.cubes)
		if len(cubes) > 40 {
			cubes = cubes[:40]
		}
		for _, c := range res.cubes[:min(len(res.cubes), 15)] {
			cubes = append(cubes, mutants(rng, c)...)
		}
		for _, c := range cubes {
			idx := e.index(c)
			for _, v := range cubes {
				if len(v.Slots) > len(c.Slots) || len(v.Nodes) > len(c.Nodes) {
					continue
				}
				pairs++
				for _, semantic := range []bool{false, true} {
					var got, want []string
					e.match(v, c, idx, semantic, func(m *matcher) bool {
						got = append(got, renaming(v, m.slotImage, m.image, m.rename))
						return false
					})
					refMatch(e, v, c, idx, semantic, func(m *refMatcher) bool {
						want = append(want, renaming(v, func(a int32) int32 { return m.sigma[a] }, func(a int32) int32 { return m.tau[a] }, m.rename))
						return false
					})
					if !slices.Equal(got, want) {
						t.Fatalf("system %d, semantic %v: renamings of\n%s\ninto\n%s\nmatcher: %q\nreference: %q\n%s",
							i, semantic, sys.CubeString(v), sys.CubeString(c), got, want, src)
					}
					found += len(got)
					one := e.match(v, c, idx, semantic, func(*matcher) bool { return true })
					if one != (len(want) > 0) {
						t.Fatalf("system %d: match %v, %d renamings", i, one, len(want))
					}
				}
				// the matcher leaves no binding behind
				if m := e.matchScratch; m != nil && (slices.ContainsFunc(m.sigma, func(x int32) bool { return x != 0 }) ||
					slices.Contains(m.used, true) || slices.ContainsFunc(m.tau, func(x int32) bool { return x != 0 }) ||
					slices.Contains(m.tused, true) || slices.ContainsFunc(m.cpos, func(x int32) bool { return x != 0 })) {
					t.Fatalf("system %d: bindings left after a match", i)
				}
			}
		}
	}
	t.Logf("%d SAFE systems, %d pairs of cubes, %d renamings", systems, pairs, found)
	if systems == 0 || found == 0 {
		t.Fatal("no renaming compared")
	}
}

// renaming prints the images of v's slots and events, and v's literals
// renamed.
func renaming(v *Cube, slot, node func(int32) int32, rename func(Term) Term) string {
	var b strings.Builder
	for _, s := range v.Slots {
		fmt.Fprintf(&b, "%d>%d ", s, slot(s))
	}
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "e%d>e%d ", n.ID, node(n.ID))
	}
	for _, l := range v.Lits {
		fmt.Fprintf(&b, "%v;", Lit{Op: l.Op, L: rename(l.L), R: rename(l.R)})
	}
	return b.String()
}

// mutants are copies of c with less in them: one ghb order dropped (the
// closure no longer transitive: a mutant is only matched), a process's
// flag, a write, a read or a whole event dropped; and c with its events
// in the reverse order, as it is and with an order dropped.
func mutants(rng *rand.Rand, c *Cube) []*Cube {
	if len(c.Nodes) == 0 {
		return nil
	}
	cp := func() *Cube {
		d := &Cube{Slots: slices.Clone(c.Slots), Lits: slices.Clone(c.Lits), GHB: slices.Clone(c.GHB)}
		for _, n := range c.Nodes {
			d.Nodes = append(d.Nodes, n.clone())
		}
		return d
	}
	var out []*Cube
	k := rng.IntN(len(c.Nodes))
	if c.GHB[k] != 0 {
		d := cp()
		d.GHB[k] &= d.GHB[k] - 1
		out = append(out, d)
	}
	if n := c.Nodes[k]; len(n.Procs) > 0 {
		d := cp()
		f := &d.Nodes[k].Procs[rng.IntN(len(n.Procs))]
		f.Read, f.Fenced = false, false
		out = append(out, d)
	}
	if n := c.Nodes[k]; len(n.Writes) > 0 {
		d := cp()
		d.Nodes[k].Writes = d.Nodes[k].Writes[1:]
		out = append(out, d)
	}
	if n := c.Nodes[k]; len(n.Reads) > 0 {
		d := cp()
		d.Nodes[k].Reads = d.Nodes[k].Reads[:len(n.Reads)-1]
		out = append(out, d)
	}
	// the events in the reverse order (the same cube), and then one
	// order dropped
	r := cp()
	nn := len(r.Nodes)
	slices.Reverse(r.Nodes)
	for i := range r.GHB {
		r.GHB[i] = 0
		for j := range nn {
			if c.GHB[nn-1-i]&(1<<uint(nn-1-j)) != 0 {
				r.GHB[i] |= 1 << uint(j)
			}
		}
	}
	out = append(out, r)
	if r.GHB[nn-1-k] != 0 {
		d := cp()
		d.Nodes, d.GHB = slices.Clone(r.Nodes), slices.Clone(r.GHB)
		d.GHB[nn-1-k] &= d.GHB[nn-1-k] - 1
		out = append(out, d)
	}
	d := cp()
	d.Nodes = slices.Delete(d.Nodes, k, k+1)
	d.GHB = slices.Delete(d.GHB, k, k+1)
	for i := range d.GHB {
		lo, hi := d.GHB[i]&(1<<uint(k)-1), d.GHB[i]>>uint(k+1)
		d.GHB[i] = lo | hi<<uint(k)
	}
	return append(out, d)
}
