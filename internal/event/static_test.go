package event

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestStaticAgainstReference compares Static with the implementation it
// replaced (staticRef) on SB and on random graphs: kinds, threads,
// instructions shared by several events, locations, tags (the
// front-end's and others, aliases' targets and alias names themselves)
// and dependencies.
func TestStaticAgainstReference(t *testing.T) {
	graphs := []*Graph{sbGraph(), benchGraph(2, 3, 5), benchGraph(5, 4, 30), {}}
	rng := rand.New(rand.NewSource(1))
	tags := []string{"X", "A", "MFENCE", "mfence", "SYNC", "LWSYNC", "NAL", "IW", "EX", "Q", "R", "acq", "LKW"}
	for range 300 {
		g := &Graph{}
		for _, t := range tags {
			if rng.Intn(3) == 0 {
				g.TagNames = append(g.TagNames, t)
			}
		}
		nloc := 1 + rng.Intn(4)
		for l := range nloc {
			g.Events = append(g.Events, Event{ID: l, Thread: -1, Kind: Write, Loc: fmt.Sprintf("l%d", nloc-l), Tags: []string{"IW"}, Instr: -1 - l})
		}
		threads := 1 + rng.Intn(4)
		for th := range threads {
			instr := 0
			for range rng.Intn(70) {
				id := len(g.Events)
				e := Event{ID: id, Thread: th, Kind: Kind(rng.Intn(5)), Instr: instr, Value: prog.IntValue(int64(rng.Intn(3)))}
				if rng.Intn(3) > 0 {
					instr++
				}
				if e.Kind != Fence && e.Kind != Branch {
					e.Loc = fmt.Sprintf("l%d", 1+rng.Intn(nloc))
				}
				for range rng.Intn(3) {
					e.Tags = append(e.Tags, tags[rng.Intn(len(tags))])
				}
				g.Events = append(g.Events, e)
			}
		}
		n := len(g.Events)
		for _, d := range []*[][2]int{&g.Addr, &g.Data, &g.Ctrl, &g.Rmw, &g.IicoData, &g.IicoCtrl, &g.PickAddr, &g.PickData, &g.PickCtrl} {
			for range rng.Intn(4) {
				*d = append(*d, [2]int{rng.Intn(n), rng.Intn(n)})
			}
		}
		graphs = append(graphs, g)
	}
	for gi, g := range graphs {
		got, want := g.Static(), g.staticRef()
		if got.N != want.N || fmt.Sprint(got.Loc) != fmt.Sprint(want.Loc) {
			t.Fatalf("graph %d: N %d Loc %v, want %d %v", gi, got.N, got.Loc, want.N, want.Loc)
		}
		if a, b := setsText(got), setsText(want); a != b {
			t.Fatalf("graph %d: sets\n%s\nwant\n%s", gi, a, b)
		}
		if len(got.Rels) != len(want.Rels) {
			t.Fatalf("graph %d: %d relations, want %d", gi, len(got.Rels), len(want.Rels))
		}
		for name, w := range want.Rels {
			if r, ok := got.Rels[name]; !ok || !r.Equal(w) || r.N() != w.N() {
				t.Fatalf("graph %d: %s = %v, want %v", gi, name, r, w)
			}
		}
	}
}

// setsText prints the sets of s, sorted by name.
func setsText(s *Static) string {
	var names []string
	for k := range s.Sets {
		names = append(names, k)
	}
	sort.Strings(names)
	out := ""
	for _, k := range names {
		out += fmt.Sprintf("%s=%v/%d ", k, s.Sets[k], s.Sets[k].N())
	}
	return out
}
