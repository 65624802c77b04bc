package param

// A deep sample (deep.go) is grown by two goroutines: grow's, and a
// helper that makes successors (expand) beside it. The states are
// taken in runs of parRun: while grow's goroutine adds the successors
// of one run to the sample, the helper makes those of the first
// parHelper states of the next run, and grow's then makes those of the
// rest of it (adding a successor costs about a third of making it, so
// both goroutines are busy about as long). The successors of a state
// are a function of the state (the compiled transitions read it and
// write only the buffers of their goroutine), and grow's goroutine
// adds them in the order of the states and of each state's successors,
// alone, whatever the scheduling: the sample, its order, and so every
// guess and node of the search are those of one goroutine
// (TestParallelSampleDeterministic compares them, under GOMAXPROCS 1
// and 2).
//
// The goroutines share no memory that one of them writes at the same
// time: the helper reads the rows of a run through a copy of the
// store's header taken before the request (the store only appends, so
// the rows below its length stay as they are, in the arrays it names,
// even when the store moves or widens its cells), reads the symmetry
// and the compiled transitions, which nobody writes, and writes its own
// buffers and batch (two batches, used in turn: grow's goroutine adds
// one while the helper fills the other). The channels order the rest.
//
// The helper works only where its successors need no state shared with
// grow's goroutine: a deep sample (the symmetry's canonical forms are
// made into each goroutine's buffers) of a system without invariant
// formulas (whose compiled forms are made on first use) whose
// transitions are compiled (compiled.go; each goroutine has its own
// guard index buffer), while at least parMin states remain to add, and
// under GOMAXPROCS of 2 or more.
//
// The helper is meant to buy wall time, not CPU time, when a second core
// is free: the deep samples of challenges_flash2 and
// challenges_flash2_nodata (BenchmarkDeepSample) take 10 to 20 % more
// CPU with it than without (the hand-offs, and the successors and rows
// that cross from one core's cache to the other's). So it is asked for
// (Options.ParallelSample, musket param -parallel-sample), and the
// default is one goroutine. On the project's two-core machine it buys
// no wall time either: run ahead of the other processes (in a session
// of their own at nice -20), three runs of BenchmarkDeepSample took
// 147-164 ms alone and 151-160 ms with the helper for
// challenges_flash2_nodata's sample, 159-172 and 168-183 ms for
// challenges_flash2's, for 10 to 20 % more CPU; runs of 3072 states
// instead of 384 took 211 and 222 ms.

import "runtime"

const (
	// parRun: the states of a run; parHelper: those of them the helper
	// expands
	parRun    = 384
	parHelper = 256
	// parMin: the fewest states a growth must still add for the helper
	// to start
	parMin = 8192
)

// parallelSampleAlways starts the helper under GOMAXPROCS=1 too
// (tests: the answers must not depend on it).
var parallelSampleAlways = false

// sampleHelper is the helper goroutine of a growth: req carries the
// states lo..hi-1 for w to expand into out, reading the store through
// view; done says that out holds their successors.
type sampleHelper struct {
	w     *sampler
	view  stateStore
	req   chan helperReq
	done  chan struct{}
	batch [2]succBatch // the helper's batches, in turn
	own   [2]succBatch // grow's goroutine's, in turn
}

type helperReq struct {
	lo, hi int
	out    *succBatch
}

// newHelper starts the helper of a growth up to limit states, if the
// growth takes one; grow stops it when it returns.
func (x *sampler) newHelper(limit int) *sampleHelper {
	if !x.parallel || x.helper != nil || x.sym == nil || x.fin.sys.Invariants != nil || limit-x.count() < parMin || runtime.GOMAXPROCS(0) < 2 && !parallelSampleAlways {
		return nil
	}
	w := &sampler{abstract: x.abstract, sym: x.sym, absTried: true}
	w.symBuf, w.symBest = make([]int64, x.fin.cells), make([]int64, x.fin.cells)
	if x.abstract {
		if !x.absTried {
			x.absTried, x.abs = true, compileAbs(x)
		}
		if x.abs == nil {
			return nil
		}
		c := *x.abs
		c.index = c.index.clone()
		w.abs, w.fin = &c, x.fin
	} else {
		f := x.fin
		if !f.compileOK() || f.compiled() == nil {
			return nil
		}
		// a copy of the explorer with buffers of its own
		wf := *f.wfinite
		wf.gen, wf.ws, wf.argBlock, wf.scr, wf.env = succGen{}, nil, nil, nil, fenv{}
		wf.rootBuf, wf.rootEnv = nil, fenv{}
		c := *f.comp
		c.index = c.index.clone()
		wf.comp = &c
		w.fin = &finite{&wf}
	}
	h := &sampleHelper{w: w, req: make(chan helperReq), done: make(chan struct{})}
	w.store = &h.view
	go func() {
		for r := range h.req {
			w.expand(r.lo, r.hi, r.out)
			h.done <- struct{}{}
		}
	}()
	x.helper = h
	return h
}

// send asks the helper for the successors of the states lo..hi-1 (all
// stored) into out.
func (h *sampleHelper) send(x *sampler, lo, hi int, out *succBatch) {
	h.view = *x.store
	h.req <- helperReq{lo, hi, out}
}

// stop ends the helper goroutine.
func (h *sampleHelper) stop() {
	close(h.req)
}

// growWithHelper is grow's loop with the helper (see above): cur holds
// the successors of the states x.next..curHi-1, made and not added.
func (x *sampler) growWithHelper(stop func() bool, limit, before int) bool {
	h := x.helper
	var cur []*succBatch
	curHi := x.next
	turn := 0
	for {
		if stop != nil && stop() {
			return x.count() > before
		}
		if len(cur) == 0 {
			// no run made beforehand: make the next one now
			if x.next >= x.count() {
				break
			}
			if x.unsafe || x.count() >= limit {
				return x.count() > before
			}
			lo := x.next
			if x.count()-lo >= parRun {
				hb, ob := &h.batch[turn&1], &h.own[turn&1]
				h.send(x, lo, lo+parHelper, hb)
				x.expand(lo+parHelper, lo+parRun, ob)
				<-h.done
				cur, curHi = []*succBatch{hb, ob}, lo+parRun
			} else {
				curHi = min(lo+batchStates, x.count())
				x.expand(lo, curHi, &x.batch)
				cur = []*succBatch{&x.batch}
			}
			turn++
		}
		// the helper makes the next run while cur is added
		nlo, pending := curHi, x.count()-curHi >= parRun
		hb, ob := &h.batch[turn&1], &h.own[turn&1]
		if pending {
			h.send(x, nlo, nlo+parHelper, hb)
		}
		x.touch(cur...)
		for _, b := range cur {
			if x.addBatch(b, limit) {
				if pending {
					<-h.done
				}
				return x.count() > before
			}
		}
		x.next, cur = curHi, nil
		if pending {
			x.expand(nlo+parHelper, nlo+parRun, ob)
			<-h.done
			cur, curHi = []*succBatch{hb, ob}, nlo+parRun
			turn++
		}
	}
	x.res.complete = true
	return x.count() > before
}
