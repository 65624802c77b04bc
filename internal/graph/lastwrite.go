package graph

import "github.com/musket-verify/musket/internal/event"

// lastWriteBefore is the po-latest write of read x's thread to x's
// location before x, or -1. The prefix a backward revisit keeps under a
// hardware model (armPrefix) holds it with every read it holds.
//
// Why: without it, a kept read c reading write v of another thread can
// stand after a removed write b of its thread to its location (so b co
// v) and a removed read a before b; hwMaximal wants a, removed, to read
// the coherence-latest write coherence allows given the kept c, which is
// v, and a reading v with a po b co v is incoherent: the graph the
// revisit starts from never exists and the execution is missed (RISC-V
// and AArch64 LB+fri-rfi-datas: a0 reads P1's last write, c1 reads P0's,
// both after a write of their own to the location; the explicit engine
// had one state more). Kept, b bounds what a may read (hwMaximal's lim).
//
// It loses no revisit: b is ordered before c in the global order of
// RVWMO and in ARMv8's ordered-before. If c reads b, b is in the prefix
// already (the write c reads). Otherwise c reads a write v that
// coherence puts after b (b po-loc c), of another thread (one of c's
// thread after b would be the po-latest write, one before b would be co
// before b), so b co v rfe c: co and rfe are in RVWMO's global order,
// coe and rfe in ARMv8's obs. So a read r in the prefix of w because of
// b is still before w in that order, and w rfe r would close a cycle.
func (g *graph) lastWriteBefore(x int) int {
	ex := &g.evs[x]
	if ex.thread < 0 {
		return -1
	}
	th := g.threads[ex.thread]
	p := len(th) - 1
	for p >= 0 && th[p] != x {
		p--
	}
	for j := p - 1; j >= 0; j-- {
		if ey := &g.evs[th[j]]; ey.kind == event.Write && ey.loc == ex.loc {
			return th[j]
		}
	}
	return -1
}
