package param

// A deep sample (deep.go) is grown by two goroutines: grow's, and a
// helper that makes the successors of half of each run of states
// (expand) while grow's makes those of the other half; grow then adds
// the successors of both halves to the sample in order, alone. The
// successors of a state are a function of the state (the explorer's
// compiled transitions read it and write only the helper's own
// buffers), and their order of addition is that of the states and of
// each state's successors, whatever the scheduling: the sample, its
// order, and so every guess and every node of the search, are those of
// one goroutine (TestParallelSampleDeterministic compares them, under
// GOMAXPROCS 1 and 2). The two goroutines alternate, so they share no
// memory at a time: while both make successors, neither writes the
// store or the table (grow's reads them, the helper reads the store's
// rows); while grow's adds, the helper waits for its next request. The
// channels order these phases.
//
// The helper works only where its successors need no state shared with
// grow's: a deep sample (the symmetry's canonical forms are made into
// each goroutine's buffers) of a system without invariant formulas
// (whose compiled forms are made on first use) whose transitions are
// compiled (compiled.go; each goroutine has its own guard index
// buffer), and only while at least parMin states remain to add.

import "runtime"

const (
	// parStates: the states each goroutine expands in a run
	parStates = 128
	// parMin: the fewest states a growth must still add for the helper
	// to start
	parMin = 8192
)

// parallelSample turns the helper on (tests turn it off to compare).
var parallelSample = true

// sampleHelper is the helper goroutine of a growth: req carries the
// states lo..hi-1 for w to expand, done says that w.batch holds their
// successors.
type sampleHelper struct {
	w    *sampler
	req  chan [2]int
	done chan struct{}
}

// newHelper starts the helper of a growth up to limit states, if the
// growth takes one; grow stops it when it returns.
func (x *sampler) newHelper(limit int) *sampleHelper {
	if !parallelSample || x.helper != nil || x.sym == nil || x.fin.sys.Invariants != nil || limit-x.count() < parMin || runtime.GOMAXPROCS(0) < 2 && !parallelSampleAlways {
		return nil
	}
	w := &sampler{abstract: x.abstract, store: x.store, sym: x.sym, absTried: true}
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
	h := &sampleHelper{w: w, req: make(chan [2]int), done: make(chan struct{})}
	go func() {
		for r := range h.req {
			w.expand(r[0], r[1])
			h.done <- struct{}{}
		}
	}()
	x.helper = h
	return h
}

// parallelSampleAlways starts the helper under GOMAXPROCS=1 too (tests:
// the answers must not depend on it).
var parallelSampleAlways = false

// stop ends the helper goroutine.
func (h *sampleHelper) stop() {
	close(h.req)
}
