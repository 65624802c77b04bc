package enum

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/rel"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// This file is the engine's hook to run the model on one given execution
// rather than on every candidate: Replay evaluates, for each Pin, the
// candidate execution of a test whose threads make the pinned memory
// accesses, in that order, with the pinned reads-from and coherence. A
// pin names accesses by thread and rank among the thread's accesses, not
// by instruction, so that an execution found in one version of a program
// can be replayed in another version that has more fences, stronger
// accesses or false dependencies (musket fix's kill test: does adding
// this fence forbid that witness?).

// Pin names one candidate execution by its memory accesses.
type Pin struct {
	// Threads lists, per thread, its memory accesses in program order.
	Threads [][]PinAccess
	// Rf maps each read to the write it reads from (a Thread of -1:
	// the initial write of the read's location). A read left out reads
	// the initial write.
	Rf map[PinRef]PinRef
	// Co lists, per location, its non-initial writes in coherence
	// order.
	Co map[string][]PinRef
	// Cut lets the pinned execution be one that ran past the unrolling
	// bound of an unrolled program (compile.Unroll), as the explicit
	// engine shows them (Porthos' inclusion counts them too, stopped at
	// the bound); the SMT engine drops them, so a pin of its witness
	// leaves Cut false and matches only paths within the bound.
	Cut bool
}

// PinAccess is one memory access of a pinned thread: 'R' or 'W', and its
// location.
type PinAccess struct {
	Kind byte
	Loc  string
}

// PinRef is an access of a pin: its thread and its rank among the
// thread's accesses (Thread -1 for an initial write).
type PinRef struct{ Thread, Index int }

// pinLabel reads the kind (R or W) and location of an access's label
// ("c: R.rx[flag0]=0"): the regular expression
// ^[a-z]+: ([RW])[^\[]*\[([^\]]+)\], written by hand so that the
// playground's WebAssembly engine links no regexp package.
func pinLabel(label string) (kind byte, loc string, ok bool) {
	i := 0
	for i < len(label) && label[i] >= 'a' && label[i] <= 'z' {
		i++
	}
	if i == 0 || !strings.HasPrefix(label[i:], ": ") || i+2 >= len(label) {
		return 0, "", false
	}
	kind = label[i+2]
	if kind != 'R' && kind != 'W' {
		return 0, "", false
	}
	rest := label[i+3:]
	open := strings.IndexByte(rest, '[')
	if open < 0 {
		return 0, "", false
	}
	close := strings.IndexByte(rest[open+1:], ']')
	if close <= 0 {
		return 0, "", false
	}
	return kind, rest[open+1 : open+1+close], true
}

// PinOf is the pin of an engine's witness (the explicit engine's or the
// SMT engine's: events, immediate po edges, rf, immediate co edges). ok
// is false when an event's label does not say what it accesses.
func PinOf(x *result.Execution) (pin Pin, ok bool) {
	idx := map[int]int{}
	nthreads := 0
	for i, e := range x.Events {
		idx[e.ID] = i
		nthreads = max(nthreads, e.Thread+1)
	}
	// Rank the events of each thread along po (the engines give its
	// immediate edges; an event with no predecessor starts its thread).
	next := map[int]int{}
	hasPrev := map[int]bool{}
	for _, p := range x.Po {
		a, ok1 := idx[p[0]]
		b, ok2 := idx[p[1]]
		if !ok1 || !ok2 {
			return Pin{}, false
		}
		next[a] = b
		hasPrev[b] = true
	}
	ref := map[int]PinRef{}
	kind := map[int]PinAccess{}
	for i, e := range x.Events {
		k, loc, ok := pinLabel(e.Label)
		if ok {
			kind[i] = PinAccess{Kind: k, Loc: loc}
		}
		if e.Thread < 0 {
			if !ok || k != 'W' {
				return Pin{}, false
			}
			ref[i] = PinRef{Thread: -1}
		}
	}
	pin = Pin{Threads: make([][]PinAccess, nthreads), Rf: map[PinRef]PinRef{}, Co: map[string][]PinRef{}}
	seen := 0
	for i, e := range x.Events {
		if e.Thread < 0 || hasPrev[i] {
			continue
		}
		for j, n := i, 0; ; n++ {
			if n > len(x.Events) {
				return Pin{}, false // a po cycle
			}
			seen++
			if a, ok := kind[j]; ok {
				ref[j] = PinRef{Thread: e.Thread, Index: len(pin.Threads[e.Thread])}
				pin.Threads[e.Thread] = append(pin.Threads[e.Thread], a)
			}
			k, ok := next[j]
			if !ok {
				break
			}
			j = k
		}
	}
	if seen+countInit(x) != len(x.Events) {
		return Pin{}, false
	}
	for _, p := range x.Rf {
		w, ok1 := ref[idx[p[0]]]
		r, ok2 := ref[idx[p[1]]]
		if !ok1 || !ok2 {
			return Pin{}, false
		}
		if w.Thread >= 0 {
			pin.Rf[r] = w
		}
	}
	// Coherence: follow the immediate edges from each initial write.
	conext := map[int]int{}
	for _, p := range x.Co {
		conext[idx[p[0]]] = idx[p[1]]
	}
	for i, e := range x.Events {
		if e.Thread >= 0 {
			continue
		}
		loc := kind[i].Loc
		for j, ok := conext[i]; ok; j, ok = conext[j] {
			w, known := ref[j]
			if !known || w.Thread < 0 || len(pin.Co[loc]) > len(x.Events) {
				return Pin{}, false
			}
			pin.Co[loc] = append(pin.Co[loc], w)
		}
	}
	return pin, true
}

func countInit(x *result.Execution) int {
	n := 0
	for _, e := range x.Events {
		if e.Thread < 0 {
			n++
		}
	}
	return n
}

// Replay evaluates the model on the pinned executions of t: alive[k]
// tells whether pins[k] is an execution of t that the model accepts and
// that satisfies t's condition (its proposition; the filter, if any,
// holds). False means only that it was not shown to be: no path of t
// makes the pinned accesses, the pinned reads give values some path
// constraint refutes, the model rejects it, or the condition is false.
// err is a fault of the test (unsupported, ...) or the context's end.
func Replay(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, opts Options, pins []Pin) (alive []bool, err error) {
	opts.SpeedCheck, opts.Show, opts.NShow, opts.Explain, opts.Uniproc = SpeedOff, "", 0, false, false
	opts.MaxEvaluated = 0
	res := &result.Result{File: t.File, Name: t.Name, Model: modelName, Engine: "enum", Quant: t.Quant}
	r := newRun(ctx, t, m, opts, res)
	if err := r.setup(); err != nil {
		return nil, replayErr(err)
	}
	alive = make([]bool, len(pins))
	for k, pin := range pins {
		ok, err := r.replay(pin)
		if err != nil {
			if errors.Is(err, errDeadline) {
				return nil, ctx.Err()
			}
			if errors.As(err, new(*UnsupportedError)) {
				return nil, err
			}
			continue // a fault of this execution (a division by zero, ...): not shown alive
		}
		alive[k] = ok
	}
	return alive, nil
}

func replayErr(err error) error {
	if errors.Is(err, errDeadline) {
		return context.DeadlineExceeded
	}
	return err
}

// replay evaluates one pin (see Replay).
func (r *run) replay(pin Pin) (bool, error) {
	if len(pin.Threads) != len(r.t.Threads) {
		return false, nil
	}
	choices := make([][]*path, len(r.paths))
	for ti, ps := range r.paths {
		for _, p := range ps {
			if pathMakes(p, pin.Threads[ti]) && (pin.Cut || !cut(p)) {
				choices[ti] = append(choices[ti], p)
			}
		}
		if len(choices[ti]) == 0 {
			return false, nil
		}
	}
	chosen := make([]*path, len(r.paths))
	var try func(i int) (bool, error)
	try = func(i int) (bool, error) {
		if i == len(chosen) {
			c, err := r.newCombo(chosen)
			if err != nil {
				return false, err
			}
			return r.replayCombo(c, pin)
		}
		for _, p := range choices[i] {
			chosen[i] = p
			if ok, err := try(i + 1); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	}
	return try(0)
}

// cut tells whether a path of an unrolled program ran past the bound
// (compile.Unroll): the SMT engine drops it, so the replay calls it alive
// only for a pin that allows it (Pin.Cut).
func cut(p *path) bool {
	s, ok := p.Regs[compile.BoundReg]
	if !ok {
		return false
	}
	v, known := s.Eval(func(int) (prog.Value, bool) { return prog.Value{}, false })
	return !known || v != prog.IntValue(0)
}

// pathMakes tells whether a path's memory accesses are accs, in order.
func pathMakes(p *path, accs []PinAccess) bool {
	k := 0
	for _, e := range p.Events {
		var kind byte
		switch e.kind {
		case event.Read:
			kind = 'R'
		case event.Write:
			kind = 'W'
		default:
			continue
		}
		if k >= len(accs) || accs[k].Kind != kind || accs[k].Loc != e.loc {
			return false
		}
		k++
	}
	return k == len(accs)
}

// replayCombo evaluates the pinned rf and co on one combination of paths.
func (r *run) replayCombo(c *combo, pin Pin) (bool, error) {
	// The graph's event of each pinned access.
	id := map[PinRef]int{}
	refOf := map[int]PinRef{}
	for t := range c.paths {
		end := len(c.g.Events)
		if t+1 < len(c.base) {
			end = c.base[t+1]
		}
		k := 0
		for e := c.base[t]; e < end; e++ {
			if c.g.Events[e].IsMem() {
				id[PinRef{Thread: t, Index: k}] = e
				refOf[e] = PinRef{Thread: t, Index: k}
				k++
			}
		}
	}
	rf := make([]int, len(c.reads))
	for i, rd := range c.reads {
		loc := c.g.Events[rd].Loc
		rf[i] = c.inits[loc]
		if w, ok := pin.Rf[refOf[rd]]; ok {
			we, ok := id[w]
			if !ok || c.g.Events[we].Kind != event.Write || c.g.Events[we].Loc != loc {
				return false, nil
			}
			rf[i] = we
		}
		if !slices.Contains(c.cands[i], rf[i]) {
			return false, nil
		}
	}
	vals, divZero, ok, err := c.values(rf, r.obs, r.t.Threads, r.explain != nil)
	if err != nil || !ok {
		return false, err
	}
	c.divZero = divZero
	n := len(c.g.Events)
	var d rfRels
	c.deriveRf(rf, &d)
	// The pinned coherence order: given to the evaluation, or, when the
	// model binds co itself, the one its outcome must have.
	var co *rel.Rel
	{
		cb := rel.NewBuilder(n)
		locs := make([]string, 0, len(c.writes))
		for l := range c.writes {
			locs = append(locs, l)
		}
		sort.Strings(locs)
		for _, l := range locs {
			chain := []int{c.inits[l]}
			for _, w := range pin.Co[l] {
				we, ok := id[w]
				if !ok || c.g.Events[we].Loc != l {
					return false, nil
				}
				chain = append(chain, we)
			}
			if len(chain) != len(c.writes[l])+1 {
				return false, nil
			}
			for a := 0; a < len(chain); a++ {
				for b := a + 1; b < len(chain); b++ {
					cb.Add(chain[a], chain[b])
				}
			}
		}
		got := cb.Rel()
		co = &got
	}
	r.res.Positive = 0
	r.wantCo = nil
	if r.bindsCo {
		r.wantCo, co = co, nil
	}
	if err := r.evaluate(c, vals, &d, co, nil); err != nil {
		return false, err
	}
	return r.res.Positive > 0, nil
}
