package graph

import (
	"context"
	"math/rand"
	"os"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
)

// TestIMMVC decides random graphs (two or three threads of reads,
// writes, fences, read-modify-writes and failing compare-and-swaps of
// every C11 mode, with random dependencies, reads-from and coherence
// orders, consistent or not) by the vector-clock IMM check (immvc.go),
// the matrix check (imm.go) and the built-in imm.cat evaluated by
// package cat, with the data-race flag: all must agree
// (Options.CrossCheck's comparison, immCross). It also requires that the
// vector clocks decided most graphs and found both verdicts.
// MUSKET_LONG=1 runs ten times more graphs.
func TestIMMVC(t *testing.T) {
	x := immCrossEngine(t)
	r := rand.New(rand.NewSource(25))
	runs := 3000
	if os.Getenv("MUSKET_LONG") != "" {
		runs = 30000
	}
	decided, yes, no, races := 0, 0, 0, 0
	for i := 0; i < runs; i++ {
		g := randIMMGraph(r, i%10 == 0, i%2 == 1)
		var flags []string
		ok, err := x.catConsistent(g, &flags)
		if err != nil {
			t.Fatalf("graph %d: %v", i, err)
		}
		if _, done := x.arena.fast.decide(g, x.opts.TagNames, nil); done {
			decided++
			if ok {
				yes++
			} else {
				no++
			}
			if len(flags) > 0 {
				races++
			}
		}
	}
	t.Logf("%d graphs, %d decided by the vector clocks (%d consistent, %d with a race, %d not)", runs, decided, yes, races, no)
	if decided < runs/2 || yes < runs/20 || no < runs/20 || races == 0 {
		t.Errorf("the vector clocks decided %d of %d graphs (%d consistent, %d races, %d not): the random graphs miss cases", decided, runs, yes, races, no)
	}
}

// randIMMGraph is a random graph over locations x and y: sc says whether
// SC accesses may appear (graphs the vector clocks leave to the
// matrices); lb makes load buffering likely (reads read from other
// threads' writes, and come before writes in their threads), so that
// IMM's no-thin-air axiom (ar acyclic) decides many graphs.
func randIMMGraph(r *rand.Rand, sc, lb bool) *graph {
	return randIMMGraphSC(r, sc, 4, lb)
}

// randIMMGraphSC is randIMMGraph with SC events, when sc, one in scOdds.
func randIMMGraphSC(r *rand.Rand, sc bool, scOdds int, lb bool) *graph {
	T := 2 + r.Intn(2)
	g := newGraph(T)
	locs := []string{"x", "y"}
	for _, l := range locs {
		g.initWrite(l, prog.IntValue(0), []string{"IW"})
	}
	pick := func(s ...string) string { return s[r.Intn(len(s))] }
	modes := func(k string) []string {
		var o string
		switch k {
		case "R":
			o = pick("NA", "RLX", "RLX", "ACQ")
		case "W":
			o = pick("NA", "RLX", "RLX", "REL")
		case "F":
			o = pick("ACQ", "REL", "ACQ_REL")
		default: // RMW
			o = pick("RLX", "ACQ", "REL", "ACQ_REL")
		}
		if sc && r.Intn(scOdds) == 0 {
			o = "SC"
		}
		switch {
		case k == "F":
			return []string{o}
		case o == "NA":
			return []string{"NA"}
		case k == "RMW":
			return []string{"A", o, "RMW", "X"}
		}
		return []string{"A", o}
	}
	val := int64(1)
	for t := 0; t < T; t++ {
		var reads []int // pcs of the thread's reads
		deps := func() []int {
			var d []int
			for _, pc := range reads {
				if r.Intn(4) == 0 {
					d = append(d, pc)
				}
			}
			return d
		}
		n := 1 + r.Intn(4)
		for pc := 0; pc < n; pc++ {
			loc := pick(locs...)
			mk := func(k event.Kind, tags []string) ev {
				e := ev{kind: k, loc: loc, tags: tags, pc: pc, rf: -1, mask: tagMask(tags)}
				if k == event.Fence {
					e.loc = ""
				}
				e.dep = &evDeps{addrD: deps(), dataD: deps(), ctrlD: deps()}
				return e
			}
			k := r.Intn(20)
			if lb && k < 15 {
				// reads first, writes after
				if pc < n/2 {
					k = 0
				} else {
					k = 10
				}
			}
			switch {
			case k < 8:
				g.add(t, mk(event.Read, modes("R")))
				reads = append(reads, pc)
			case k < 15:
				e := mk(event.Write, modes("W"))
				e.val = prog.IntValue(val)
				val++
				g.add(t, e)
			case k < 16:
				g.add(t, mk(event.Fence, modes("F")))
			default: // a read-modify-write, or a failing compare-and-swap
				tags := modes("RMW")
				rd := mk(event.Read, tags)
				rd.rmwR = true
				g.add(t, rd)
				if k < 19 {
					wr := mk(event.Write, tags)
					wr.rmwW = true
					wr.dep.iico = true
					wr.val = prog.IntValue(val)
					val++
					g.add(t, wr)
				}
				reads = append(reads, pc)
			}
		}
	}
	// reads-from: any write of the location; coherence: the initial
	// write, then the others in a random order.
	byLoc := map[string][]int{}
	for i := range g.evs {
		if e := &g.evs[i]; e.kind == event.Write && e.thread >= 0 {
			byLoc[e.loc] = append(byLoc[e.loc], i)
		}
	}
	for _, l := range locs {
		ws := byLoc[l]
		r.Shuffle(len(ws), func(a, b int) { ws[a], ws[b] = ws[b], ws[a] })
		g.co[l] = append(g.co[l][:1], ws...)
	}
	for i := range g.evs {
		if e := &g.evs[i]; e.kind == event.Read {
			o := g.co[e.loc]
			w := o[r.Intn(len(o))]
			if lb {
				var ext []int
				for _, y := range o[1:] {
					if g.evs[y].thread != e.thread {
						ext = append(ext, y)
					}
				}
				if len(ext) > 0 && r.Intn(4) > 0 {
					w = ext[r.Intn(len(ext))]
				}
			}
			g.setRf(i, w)
		}
	}
	return g
}

// TestIMMVCShapes decides hand-built graphs that random ones rarely
// reach, by the vector clocks and by imm.cat (immCross): a cycle of ar
// through a detour, and a release sequence that continues from a write
// sb-after its head (rs's sb-loc? before rf ; rmw).
func TestIMMVCShapes(t *testing.T) {
	x := immCrossEngine(t)
	type E struct {
		k          event.Kind
		loc, mo    string
		data       []int // pcs of the reads it depends on (data)
		rmwR, rmwW bool
		rf         [2]int // a read's write: thread (-1: initial), index
		pc         int
	}
	R := func(loc, mo string, t, i int, data ...int) E {
		return E{k: event.Read, loc: loc, mo: mo, rf: [2]int{t, i}, data: data}
	}
	W := func(loc, mo string, data ...int) E { return E{k: event.Write, loc: loc, mo: mo, data: data} }
	for _, c := range []struct {
		name string
		th   [][]E
		co   map[string][][2]int // non-initial writes in coherence order
		want bool
	}{
		{"detour closes an ar cycle", [][]E{
			{R("z", "RLX", 1, 2), W("x", "RLX", 0), R("x", "RLX", 1, 1), W("y", "RLX", 2)},
			{R("y", "RLX", 0, 3), W("x", "RLX"), W("z", "RLX", 0)},
		}, map[string][][2]int{"x": {{0, 1}, {1, 1}}}, false},
		{"the same cycle but one dependency", [][]E{
			{R("z", "RLX", 1, 2), W("x", "RLX", 0), R("x", "RLX", 1, 1), W("y", "RLX")},
			{R("y", "RLX", 0, 3), W("x", "RLX"), W("z", "RLX", 0)},
		}, map[string][][2]int{"x": {{0, 1}, {1, 1}}}, true},
		{"rs steps from a write sb-after its head", [][]E{
			{W("d", "NA"), W("x", "REL"), W("x", "RLX")},
			{{k: event.Read, loc: "x", mo: "RLX", rmwR: true, rf: [2]int{0, 2}}, {k: event.Write, loc: "x", mo: "RLX", rmwW: true}},
			{R("x", "ACQ", 1, 1), R("d", "NA", -1, 0)},
		}, map[string][][2]int{"x": {{0, 1}, {0, 2}, {1, 1}}}, false},
		{"rs: the data read from the writer", [][]E{
			{W("d", "NA"), W("x", "REL"), W("x", "RLX")},
			{{k: event.Read, loc: "x", mo: "RLX", rmwR: true, rf: [2]int{0, 2}}, {k: event.Write, loc: "x", mo: "RLX", rmwW: true}},
			{R("x", "ACQ", 1, 1), R("d", "NA", 0, 0)},
		}, map[string][][2]int{"x": {{0, 1}, {0, 2}, {1, 1}}}, true},
		{"store buffering, SC accesses (psc-base)", [][]E{
			{W("x", "SC"), R("y", "SC", -1, 0)},
			{W("y", "SC"), R("x", "SC", -1, 0)},
		}, nil, false},
		{"store buffering, one read relaxed", [][]E{
			{W("x", "SC"), R("y", "RLX", -1, 0)},
			{W("y", "SC"), R("x", "SC", -1, 0)},
		}, nil, true},
		{"store buffering, relaxed with SC fences (psc-fence)", [][]E{
			{W("x", "RLX"), {k: event.Fence, mo: "SC"}, R("y", "RLX", -1, 0)},
			{W("y", "RLX"), {k: event.Fence, mo: "SC"}, R("x", "RLX", -1, 0)},
		}, nil, false},
		{"store buffering, one SC fence", [][]E{
			{W("x", "RLX"), {k: event.Fence, mo: "SC"}, R("y", "RLX", -1, 0)},
			{W("y", "RLX"), R("x", "RLX", -1, 0)},
		}, nil, true},
		{"psc in ar: an SC fence before another by co, back by rfe ; ppo ; rfe", [][]E{
			{R("z", "RLX", 2, 1), {k: event.Fence, mo: "SC"}, W("x", "RLX")},
			{W("x", "RLX"), {k: event.Fence, mo: "SC"}, W("y", "RLX")},
			{R("y", "RLX", 1, 2), W("z", "RLX", 0)},
		}, map[string][][2]int{"x": {{0, 2}, {1, 0}}}, false},
		{"the same without the dependency", [][]E{
			{R("z", "RLX", 2, 1), {k: event.Fence, mo: "SC"}, W("x", "RLX")},
			{W("x", "RLX"), {k: event.Fence, mo: "SC"}, W("y", "RLX")},
			{R("y", "RLX", 1, 2), W("z", "RLX")},
		}, map[string][][2]int{"x": {{0, 2}, {1, 0}}}, true},
	} {
		g := newGraph(len(c.th))
		inits := map[string]int{}
		ids := make([][]int, len(c.th))
		for _, th := range c.th {
			for _, e := range th {
				if _, ok := inits[e.loc]; !ok && e.k != event.Fence {
					inits[e.loc] = g.initWrite(e.loc, prog.IntValue(0), []string{"IW"})
				}
			}
		}
		for t, th := range c.th {
			for i, e := range th {
				tags := []string{"NA"}
				switch {
				case e.k == event.Fence:
					tags = []string{e.mo}
				case e.mo != "NA":
					tags = []string{"A", e.mo}
				}
				pc := i
				if e.rmwW {
					pc = i - 1
				}
				ids[t] = append(ids[t], g.add(t, ev{kind: e.k, loc: e.loc, tags: tags, pc: pc, rf: -1, mask: tagMask(tags),
					rmwR: e.rmwR, rmwW: e.rmwW, val: prog.IntValue(int64(10*t + i + 1)), dep: &evDeps{dataD: e.data}}))
			}
		}
		for l, ws := range c.co {
			for _, w := range ws {
				g.co[l] = append(g.co[l], ids[w[0]][w[1]])
			}
		}
		for t, th := range c.th { // the other writes: one per location
			for i, e := range th {
				if e.k == event.Write && c.co[e.loc] == nil {
					g.co[e.loc] = append(g.co[e.loc], ids[t][i])
				}
			}
		}
		for t, th := range c.th {
			for i, e := range th {
				if e.k != event.Read {
					continue
				}
				w := inits[e.loc]
				if e.rf[0] >= 0 {
					w = ids[e.rf[0]][e.rf[1]]
				}
				g.setRf(ids[t][i], w)
			}
		}
		var flags []string
		got, err := x.catConsistent(g, &flags)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, done := x.arena.fast.decide(g, x.opts.TagNames, nil); !done {
			t.Errorf("%s: the vector clocks did not decide", c.name)
		}
		if got != c.want {
			t.Errorf("%s: consistent = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestIMMVCSC is TestIMMVC on graphs with SC accesses and fences (all,
// half or a third of the accesses and fences of a graph): the vector clocks
// decide them too, with psc (checker.psc on hb read off the clocks) and
// psc's part of ar; each is compared with the matrix check and imm.cat.
func TestIMMVCSC(t *testing.T) {
	x := immCrossEngine(t)
	r := rand.New(rand.NewSource(26))
	runs := 3000
	if os.Getenv("MUSKET_LONG") != "" {
		runs = 30000
	}
	withSC, yes, no := 0, 0, 0
	for i := 0; i < runs; i++ {
		g := randIMMGraphSC(r, true, 1+i%3, i%2 == 1)
		if ok, err := x.catConsistent(g, nil); err != nil {
			t.Fatalf("graph %d: %v", i, err)
		} else if _, done := x.arena.fast.decide(g, x.opts.TagNames, nil); done && x.arena.fast.c.anySC {
			withSC++
			if ok {
				yes++
			} else {
				no++
			}
		}
	}
	t.Logf("%d graphs, %d with SC events decided by the vector clocks (%d consistent, %d not)", runs, withSC, yes, no)
	if withSC < runs/2 || yes < runs/20 || no < runs/20 {
		t.Errorf("the vector clocks decided %d graphs with SC events of %d (%d consistent, %d not): the random graphs miss cases", withSC, runs, yes, no)
	}
}

// immCrossEngine is an IMM engine for C's tags with Options.CrossCheck:
// its checks compare the vector clocks, the matrix check and imm.cat.
func immCrossEngine(t *testing.T) *engine {
	t.Helper()
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	fe, err := litmus.Lookup("C")
	if err != nil {
		t.Fatal(err)
	}
	return &engine{m: m, ctx: context.Background(), deps: true, imm: true, opts: Options{TagNames: fe.Tags(), CrossCheck: true}}
}
