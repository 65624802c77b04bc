package event

import (
	"fmt"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// benchGraph is a litmus test's combination of paths as the explicit
// engine builds it: the initial writes of locs locations, then threads
// of evs events each (writes, reads, a fence), with a front-end's tags.
func benchGraph(locs, threads, evs int) *Graph {
	g := &Graph{TagNames: []string{"SYNC", "LWSYNC", "ISYNC", "EIEIO", "X", "A", "Q", "L", "NoRet", "RMW"}}
	for l := range locs {
		g.Events = append(g.Events, Event{ID: l, Thread: -1, Kind: Write, Loc: fmt.Sprintf("x%d", l), Tags: []string{"IW"}, Instr: -1 - l, PC: -1})
	}
	for t := range threads {
		for k := range evs {
			id := len(g.Events)
			e := Event{ID: id, Thread: t, Instr: k, PC: k, Loc: fmt.Sprintf("x%d", (t+k)%locs), Value: prog.IntValue(int64(k))}
			switch k % 3 {
			case 0:
				e.Kind = Write
			case 1:
				e.Kind, e.Loc, e.Tags = Fence, "", []string{"LWSYNC"}
			default:
				e.Kind = Read
			}
			g.Events = append(g.Events, e)
		}
	}
	return g
}

// BenchmarkStatic measures Static on a graph of 2 locations and 3
// threads of 5 events (17 events), as a litmus test's.
func BenchmarkStatic(b *testing.B) {
	g := benchGraph(2, 3, 5)
	b.ReportAllocs()
	for b.Loop() {
		g.Static()
	}
}
