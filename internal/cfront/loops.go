package cfront

import (
	"slices"
	"sort"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"
)

// loopInfo lists the back edges of a function that close a spin loop: a
// natural loop whose body writes nothing, except by compare-and-swaps
// (which write only when they succeed; the cut asks that they all failed
// in the iteration) and atomicrmws (which must have written back the
// value they read: a test-and-set that found the flag set), and calls
// nothing but the assumption and debugging intrinsics, yields and pauses.
type loopInfo struct {
	spin map[[2]*ir.Block]*spinLoop
	// heads maps the header of each spin loop to the atomicrmws of its
	// body, whose ran registers the header clears: every iteration, the
	// first one of a later entry into the loop included, starts with
	// none of them run.
	heads map[*ir.Block][]*ir.InstAtomicRMW
	// lkHeads is heads for the Linux-kernel exchanges of spin loops.
	lkHeads map[*ir.Block][]*ir.InstCall
}

type spinLoop struct {
	cas   []*ir.InstCmpXchg
	loads []ir.Instruction // loads and lkmm load calls of the body
	rmws  []*ir.InstAtomicRMW
	// lkRMWs are the body's Linux-kernel xchg and cmpxchg calls (lkmm.h):
	// the cut asks that an xchg wrote back what it read and that a
	// cmpxchg failed, as for atomicrmw and cmpxchg (a test-and-set lock
	// `while (xchg(&l, 1))` spins as its C11 form does).
	lkRMWs []*ir.InstCall
}

// inLKSpin tells whether the lkmm call in is an exchange in the body of
// a spin loop.
func (li *loopInfo) inLKSpin(in *ir.InstCall) bool {
	if li == nil || in == nil {
		return false
	}
	for _, sl := range li.spin {
		for _, c := range sl.lkRMWs {
			if c == in {
				return true
			}
		}
	}
	return false
}

// inSpin tells whether the atomicrmw in is in the body of a spin loop.
func (li *loopInfo) inSpin(in *ir.InstAtomicRMW) bool {
	if li == nil {
		return false
	}
	for _, sl := range li.spin {
		for _, r := range sl.rmws {
			if r == in {
				return true
			}
		}
	}
	return false
}

// loopsOf finds the spin loops of f (once per function).
func (l *lowerer) loopsOf(f *ir.Func) *loopInfo {
	if li, ok := l.loops[f]; ok {
		return li
	}
	li := &loopInfo{spin: map[[2]*ir.Block]*spinLoop{}, heads: map[*ir.Block][]*ir.InstAtomicRMW{}, lkHeads: map[*ir.Block][]*ir.InstCall{}}
	l.loops[f] = li
	if l.noSpin {
		return li
	}
	succ, pred := edges(f)
	dom := dominators(f.Blocks, pred)
	for _, b := range f.Blocks {
		for _, h := range succ[b] {
			if !dom[b][h] {
				continue
			}
			// A back edge b→h: its natural loop.
			body := map[*ir.Block]bool{h: true}
			addLoopBody(body, b, pred)
			if sl, ok := sideEffectFree(body, f); ok {
				li.spin[[2]*ir.Block{b, h}] = sl
				for _, r := range sl.rmws {
					if !containsRMW(li.heads[h], r) {
						li.heads[h] = append(li.heads[h], r)
					}
				}
				for _, c := range sl.lkRMWs {
					if !slices.Contains(li.lkHeads[h], c) {
						li.lkHeads[h] = append(li.lkHeads[h], c)
					}
				}
			}
		}
	}
	return li
}

func containsRMW(rs []*ir.InstAtomicRMW, r *ir.InstAtomicRMW) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// sideEffectFree tells whether a loop body writes nothing (but by
// compare-and-swaps) and lists its compare-and-swaps.
func sideEffectFree(body map[*ir.Block]bool, f *ir.Func) (*spinLoop, bool) {
	sl := &spinLoop{}
	var wo *writeOnlyLocals
	writeOnly := func(p value.Value) bool {
		if wo == nil {
			wo = newWriteOnlyLocals(f)
		}
		return wo.is(p)
	}
	for _, b := range sortedBlocks(body) {
		for _, in := range b.Insts {
			switch in := in.(type) {
			case *ir.InstStore:
				if !writeOnly(in.Dst) {
					return nil, false
				}
			case *ir.InstAlloca:
				return nil, false
			case *ir.InstAtomicRMW:
				sl.rmws = append(sl.rmws, in)
			case *ir.InstCmpXchg:
				sl.cas = append(sl.cas, in)
			case *ir.InstLoad:
				sl.loads = append(sl.loads, in)
			case *ir.InstCall:
				if calleeName(in) == lkmmPrefix+"load" {
					sl.loads = append(sl.loads, in)
				}
				name := calleeName(in)
				if name == lkmmPrefix+"xchg" || name == lkmmPrefix+"cmpxchg" {
					sl.lkRMWs = append(sl.lkRMWs, in)
					continue
				}
				if (strings.HasPrefix(name, "llvm.memcpy.") || strings.HasPrefix(name, "llvm.memset.")) && len(in.Args) > 0 && writeOnly(in.Args[0]) {
					continue
				}
				if !strings.HasPrefix(name, "llvm.dbg.") && !strings.HasPrefix(name, "llvm.lifetime.") &&
					name != "__VERIFIER_assume" && name != "__VERIFIER_spin_start" && name != "__VERIFIER_spin_end" && name != "llvm.assume" && name != lkmmPrefix+"load" && name != lkmmPrefix+"fence" &&
					!isDelayCall(name) && !strings.HasPrefix(name, "llvm.x86.sse2.pause") && !isKnownAsm(in) {
					return nil, false
				}
			}
		}
	}
	return sl, true
}

// isDelayCall tells whether name is a call that only lets time pass or
// other threads run: a yield or a sleep of a number of seconds or
// microseconds given by value. They are no event (calls.go), so a loop
// round with one writes no more than without it, and a polling loop
// that sleeps between its reads is a spin loop. nanosleep and
// thrd_sleep take their time through a struct the loop may write: its
// stores go to a local only such calls read (writeOnlyLocals), which no
// read of the program sees, so an iteration with them can be left out
// as the others.
func isDelayCall(name string) bool {
	switch name {
	case "sched_yield", "pthread_yield", "thrd_yield", "usleep", "sleep", "nanosleep", "thrd_sleep":
		return true
	}
	return false
}

// dominators computes, for each block, the set of blocks dominating it
// (the iterative data-flow algorithm; blocks[0] is the entry).
func dominators(blocks []*ir.Block, pred map[*ir.Block][]*ir.Block) map[*ir.Block]map[*ir.Block]bool {
	dom := map[*ir.Block]map[*ir.Block]bool{}
	all := map[*ir.Block]bool{}
	for _, b := range blocks {
		all[b] = true
	}
	for i, b := range blocks {
		if i == 0 {
			dom[b] = map[*ir.Block]bool{b: true}
			continue
		}
		dom[b] = copySet(all)
	}
	for changed := true; changed; {
		changed = false
		for _, b := range blocks[1:] {
			var nd map[*ir.Block]bool
			for _, p := range pred[b] {
				if nd == nil {
					nd = copySet(dom[p])
					continue
				}
				for x := range nd {
					if !dom[p][x] {
						delete(nd, x)
					}
				}
			}
			if nd == nil {
				nd = map[*ir.Block]bool{}
			}
			nd[b] = true
			if len(nd) != len(dom[b]) {
				dom[b] = nd
				changed = true
			}
		}
	}
	return dom
}

func copySet(s map[*ir.Block]bool) map[*ir.Block]bool {
	out := make(map[*ir.Block]bool, len(s))
	for k := range s {
		out[k] = true
	}
	return out
}

// layout orders the blocks of f so that every natural loop is contiguous
// and starts with its header: blocks in reverse postorder, except that
// reaching a loop header emits its whole loop (inner loops likewise)
// before anything else. compile.UnrollThread sees a loop as the code
// between a label and a backward jump to it; with this order that code
// is the loop and nothing more (clang's order may interleave the blocks
// after a loop, which unrolling would then copy).
func layout(f *ir.Func) []*ir.Block {
	if len(f.Blocks) == 0 {
		return nil
	}
	succ, pred := edges(f)
	// Reverse postorder from the entry.
	seen := map[*ir.Block]bool{}
	var post []*ir.Block
	var dfs func(b *ir.Block)
	dfs = func(b *ir.Block) {
		seen[b] = true
		for _, s := range succ[b] {
			if !seen[s] {
				dfs(s)
			}
		}
		post = append(post, b)
	}
	dfs(f.Blocks[0])
	rpo := make([]*ir.Block, len(post))
	for i, b := range post {
		rpo[len(post)-1-i] = b
	}
	dom := dominators(f.Blocks, pred)
	loop := map[*ir.Block]map[*ir.Block]bool{} // header -> its loop's blocks
	for _, b := range rpo {
		for _, h := range succ[b] {
			if !dom[b][h] {
				continue
			}
			body := loop[h]
			if body == nil {
				body = map[*ir.Block]bool{h: true}
				loop[h] = body
			}
			addLoopBody(body, b, pred)
		}
	}
	done := map[*ir.Block]bool{}
	var out []*ir.Block
	var emit func(b *ir.Block, within map[*ir.Block]bool)
	emit = func(b *ir.Block, within map[*ir.Block]bool) {
		if done[b] {
			return
		}
		body := loop[b]
		if body == nil {
			done[b] = true
			out = append(out, b)
			return
		}
		done[b] = true
		out = append(out, b)
		for _, x := range rpo {
			if body[x] && !done[x] && (within == nil || within[x]) {
				emit(x, body)
			}
		}
	}
	for _, b := range rpo {
		emit(b, nil)
	}
	return out
}

// sortedBlocks lists the blocks of a loop body in a fixed order (by
// name), so that the lowering, and the conditions it records for a cut
// spin loop, are the same on every run.
func sortedBlocks(body map[*ir.Block]bool) []*ir.Block {
	out := make([]*ir.Block, 0, len(body))
	for b := range body {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ident() < out[j].Ident() })
	return out
}

// addLoopBody adds to body, which holds the header of a back edge from
// b, the blocks of its natural loop: those that reach b without passing
// the header.
func addLoopBody(body map[*ir.Block]bool, b *ir.Block, pred map[*ir.Block][]*ir.Block) {
	stack := []*ir.Block{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if body[x] {
			continue
		}
		body[x] = true
		stack = append(stack, pred[x]...)
	}
}

// edges are the successors and the predecessors of f's blocks.
func edges(f *ir.Func) (succ, pred map[*ir.Block][]*ir.Block) {
	succ, pred = map[*ir.Block][]*ir.Block{}, map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Term.Succs() {
			succ[b] = append(succ[b], s)
			pred[s] = append(pred[s], b)
		}
	}
	return succ, pred
}
