package cfront

import "github.com/llir/llvm/ir"

// latches routes some back edges of a function through one latch per
// loop header, so that compile.UnrollThread sees each such loop as one
// label and one backward jump.
//
// The unroller takes a loop to be the code between a label and a
// backward jump to it, and unrolls the shortest first. Two shapes give a
// header several backward jumps in the lowered code:
//
//   - a back edge to an outer header from a block inside an inner loop
//     (clang's form of `for (;;) { if (n >= 0 && cas(&x, &n, n+1))
//     return; if (n < 0) n = load(&x); }`: one latch block jumps back to
//     the inner header or to the outer one): unrolling the inner loop
//     copies that jump k times;
//   - a header with several back edges (several latch blocks).
//
// The unroller then unrolls each backward jump as a loop of its own,
// each over the code the previous ones produced: the code grows
// exponentially with the bound (a reader-writer lock's read_lock: 221
// events at bound 3, 15689 at bound 5, refused at bound 6 as longer than
// 2^18 instructions). Routing those back edges through a latch placed
// after the loop's last block (`latch: goto header`) makes them forward
// jumps to one backward jump: the loop is unrolled once, each entry
// running it at most k times, as the bound says. The latch only jumps,
// and the edge's phi assignments and spin-loop cut stay on the edge
// before it, so every path runs the same instructions in the same order
// (plus an unconditional jump, which no engine sees as an event).
//
// Back edges of a loop with one back edge from a block of no inner loop
// keep their direct jump (the usual case: its code is unchanged).
type latchInfo struct {
	route map[[2]*ir.Block]bool     // back edges that go through their header's latch
	after map[*ir.Block][]*ir.Block // block -> headers whose latch follows it
}

// loopLatches finds the back edges of f to route through a latch, given
// the layout order of its blocks (every loop contiguous, header first).
func loopLatches(f *ir.Func, order []*ir.Block) *latchInfo {
	li := &latchInfo{route: map[[2]*ir.Block]bool{}, after: map[*ir.Block][]*ir.Block{}}
	if len(f.Blocks) == 0 {
		return li
	}
	succ, pred := edges(f)
	dom := dominators(f.Blocks, pred)
	loop := map[*ir.Block]map[*ir.Block]bool{} // header -> its loop's blocks
	back := map[*ir.Block][]*ir.Block{}        // header -> sources of its back edges
	for _, b := range order {
		for _, h := range succ[b] {
			if !dom[b][h] {
				continue
			}
			if loop[h] == nil {
				loop[h] = map[*ir.Block]bool{h: true}
			}
			addLoopBody(loop[h], b, pred)
			back[h] = append(back[h], b)
		}
	}
	index := map[*ir.Block]int{}
	for i, b := range order {
		index[b] = i
	}
	for h, srcs := range back {
		routed := len(srcs) > 1
		for _, b := range srcs {
			// b lies in an inner loop: a loop of another header inside
			// h's loop holds it.
			for h2, body2 := range loop {
				if h2 != h && body2[b] && loop[h][h2] {
					routed = true
				}
			}
		}
		if !routed {
			continue
		}
		last := h
		for x := range loop[h] {
			if index[x] > index[last] {
				last = x
			}
		}
		for _, b := range srcs {
			li.route[[2]*ir.Block{b, h}] = true
		}
		li.after[last] = append(li.after[last], h)
	}
	// Several latches after one block: innermost (latest header) first,
	// so that each latch closes its own loop inside the outer ones.
	for b, hs := range li.after {
		for i := 1; i < len(hs); i++ {
			for j := i; j > 0 && index[hs[j]] > index[hs[j-1]]; j-- {
				hs[j], hs[j-1] = hs[j-1], hs[j]
			}
		}
		li.after[b] = hs
	}
	return li
}

// latchLabel is the label of header h's latch.
func (fr *frame) latchLabel(h *ir.Block) string { return fr.blockLabel(h) + ".latch" }

// jumpLabel is the label a jump from block from to block to goes to:
// to's latch for a routed back edge, else to itself.
func (fr *frame) jumpLabel(from, to *ir.Block) string {
	if fr.latches != nil && fr.latches.route[[2]*ir.Block{from, to}] {
		return fr.latchLabel(to)
	}
	return fr.blockLabel(to)
}
