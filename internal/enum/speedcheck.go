package enum

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// SpeedCheck is herd7's -speedcheck: enumerate only the executions that
// can settle the test's condition.
type SpeedCheck int

// The settings of SpeedCheck, as herd7 names them.
const (
	// SpeedOff enumerates every candidate execution.
	SpeedOff SpeedCheck = iota
	// SpeedOn keeps only the "interesting" executions (those whose
	// final state satisfies the proposition for exists and ~exists,
	// falsifies it for forall): the states and counts cover those only,
	// the verdict is the same. The engine cuts a branch of its search
	// (a choice of reads-from, of a coherence order) as soon as the
	// values it fixes decide the proposition the other way.
	SpeedOn
	// SpeedFast is SpeedOn, stopping at the first interesting execution
	// the model accepts: it validates exists, invalidates ~exists and
	// forall.
	SpeedFast
)

// ParseSpeedCheck reads the argument of -speedcheck: false, true or
// fast.
func ParseSpeedCheck(s string) (SpeedCheck, error) {
	switch s {
	case "false":
		return SpeedOff, nil
	case "true":
		return SpeedOn, nil
	case "fast":
		return SpeedFast, nil
	}
	return SpeedOff, fmt.Errorf("-speedcheck %q: want false, true or fast", s)
}

func (s SpeedCheck) String() string {
	switch s {
	case SpeedOn:
		return "true"
	case SpeedFast:
		return "fast"
	}
	return "false"
}

// tri is a truth value that may not be known yet.
type tri uint8

const (
	unknown tri = iota
	no
	yes
)

func triOf(b bool) tri {
	if b {
		return yes
	}
	return no
}

// eval3 decides c as far as the known final values allow (val reports
// false for a ref whose value is not fixed yet), in Kleene's three-valued
// logic: a conjunction with a false side is false, a disjunction with a
// true side is true, whatever the unknown sides.
func eval3(c spec.Cond, val func(spec.Ref) (prog.Value, bool)) tri {
	switch c := c.(type) {
	case spec.And:
		l := eval3(c.L, val)
		if l == no {
			return no
		}
		r := eval3(c.R, val)
		switch {
		case r == no:
			return no
		case l == yes && r == yes:
			return yes
		}
		return unknown
	case spec.Or:
		l := eval3(c.L, val)
		if l == yes {
			return yes
		}
		r := eval3(c.R, val)
		switch {
		case r == yes:
			return yes
		case l == no && r == no:
			return no
		}
		return unknown
	case spec.Not:
		switch eval3(c.C, val) {
		case yes:
			return no
		case no:
			return yes
		}
		return unknown
	case spec.Bool:
		return triOf(c.V)
	case spec.Atom:
		v, ok := val(c.Ref)
		if !ok {
			return unknown
		}
		return triOf((v == c.Val) != c.Neq)
	case spec.RefEq:
		l, ok := val(c.L)
		if !ok {
			return unknown
		}
		r, ok := val(c.R)
		if !ok {
			return unknown
		}
		return triOf((l == r) != c.Neq)
	}
	return unknown
}

// interesting is the value of the condition's proposition in the
// executions -speedcheck keeps: true for exists and ~exists (an execution
// that satisfies it settles both), false for forall.
func (r *run) interesting() bool { return r.t.Quant != spec.Forall }

// canPrune tells whether the search may cut the branches that cannot
// reach an interesting execution, and stop early with SpeedFast, once
// the paths of every thread are known. Not when a path divides: a
// division by zero in any execution the model accepts is an error of
// the test, which only the full search finds.
func (r *run) canPrune() bool {
	if r.opts.SpeedCheck == SpeedOff {
		return false
	}
	for _, ps := range r.paths {
		for _, p := range ps {
			if len(p.Divs) > 0 {
				return false
			}
		}
	}
	return true
}

// hopeless tells whether the values that are fixed so far rule out
// every interesting execution: the test's filter or the proposition is
// already decided the wrong way. val gives the final value of a ref when
// it is fixed.
func (r *run) hopeless(val func(spec.Ref) (prog.Value, bool)) bool {
	if r.t.Filter != nil && eval3(r.t.Filter, val) == no {
		return true
	}
	return eval3(r.t.Cond, val) == triOf(!r.interesting())
}

// partial computes the values of a combination's events under the
// reads-from choices made so far (those of the first n reads), lazily:
// a value that depends on a read not yet given its write is unknown.
type partial struct {
	c      *combo
	src    []int // the write each read reads from, -1 when not chosen
	vals   []prog.Value
	status []uint8 // 0 not computed, 1 computing, 2 known, 3 unknown
}

func (c *combo) partial(rf []int, n int) *partial {
	ne := len(c.g.Events)
	p := c.scratch
	if p == nil {
		// One per combination of paths, reused by every choice: the
		// search calls this at every node of its reads-from tree.
		p = &partial{c: c, src: make([]int, ne), vals: make([]prog.Value, ne), status: make([]uint8, ne)}
		c.scratch = p
	}
	for i := range p.src {
		p.src[i] = -1
	}
	clear(p.status)
	for i := 0; i < n; i++ {
		p.src[c.reads[i]] = rf[i]
	}
	return p
}

// value is the value of event e, when the choices so far fix it. A
// value that depends on itself is unknown here (the full computation
// rejects the candidate).
func (p *partial) value(e int) (prog.Value, bool) {
	switch p.status[e] {
	case 1, 3:
		p.status[e] = 3
		return prog.Value{}, false
	case 2:
		return p.vals[e], true
	}
	p.status[e] = 1
	c := p.c
	var v prog.Value
	ok := true
	switch {
	case c.g.Events[e].Kind == event.Read:
		if p.src[e] < 0 {
			ok = false
		} else {
			v, ok = p.value(p.src[e])
		}
	case c.thread[e] < 0:
		v = c.syms[e].V
	case c.syms[e] != nil:
		t := c.thread[e]
		v, ok = c.syms[e].Eval(func(i int) (prog.Value, bool) { return p.value(c.base[t] + i) })
	}
	if !ok {
		p.status[e] = 3
		return prog.Value{}, false
	}
	p.vals[e], p.status[e] = v, 2
	return v, true
}

// finalKnown gives the final value of a ref when the choices so far fix
// it, as finalValues computes it once they are all made: eventValue is the
// value of an event (when fixed), final the final value of the locations
// whose coherence order is chosen.
func (r *run) finalKnown(c *combo, eventValue func(int) (prog.Value, bool), final map[string]prog.Value) func(spec.Ref) (prog.Value, bool) {
	return func(ref spec.Ref) (prog.Value, bool) {
		if !ref.IsReg() {
			if v, ok := final[ref.Name]; ok {
				return v, true
			}
			iw, ok := c.inits[ref.Name]
			if !ok {
				return r.initMem[ref.Name], true
			}
			ws := c.writes[ref.Name]
			switch {
			case len(ws) == 0:
				return eventValue(iw)
			case len(ws) == 1 && !r.bindsCo:
				// The only write follows the initial one in every
				// coherence order the engine enumerates.
				return eventValue(ws[0])
			}
			return prog.Value{}, false
		}
		if ref.Thread >= len(c.paths) {
			return prog.Value{}, true
		}
		s, ok := c.paths[ref.Thread].Regs[ref.Name]
		if !ok {
			for _, e := range r.t.Init {
				if e.Ref == ref {
					return e.Val, true
				}
			}
			return prog.IntValue(0), true
		}
		base := c.base[ref.Thread]
		return s.Eval(func(i int) (prog.Value, bool) { return eventValue(base + i) })
	}
}

// cutRf tells whether no candidate, or with -speedcheck no interesting
// execution, follows the reads-from choices of the first n reads: a
// constraint of the threads' paths (a branch taken, an address, a
// compare-and-swap's outcome) is already false, or the condition is
// decided the wrong way.
func (r *run) cutRf(c *combo, rf []int, n int) bool {
	if n > 0 && c.valueCycle(rf, n) {
		return true
	}
	if !r.prune {
		// Only the constraints; they are looked at when the read
		// just chosen is one they depend on.
		if n == 0 || c.reads[n-1] >= len(c.consRead) || !c.consRead[c.reads[n-1]] {
			return false
		}
	}
	p := c.partial(rf, n)
	for t, path := range c.paths {
		base := c.base[t]
		for _, k := range path.Cons {
			v, ok := k.S.Eval(func(i int) (prog.Value, bool) { return p.value(base + i) })
			if ok && prog.Truth(v) != k.Want {
				return true
			}
		}
	}
	return r.prune && r.hopeless(r.finalKnown(c, p.value, nil))
}

// cutCo tells whether no interesting execution follows the coherence
// orders chosen so far: orders[j] for the locations locs[j], j < k.
func (r *run) cutCo(c *combo, vals []prog.Value, locs []string, orders [][]int, k int) bool {
	if !r.prune {
		return false
	}
	final := make(map[string]prog.Value, k)
	for j := 0; j < k; j++ {
		last := c.inits[locs[j]]
		if o := orders[j]; len(o) > 0 {
			last = o[len(o)-1]
		}
		final[locs[j]] = vals[last]
	}
	return r.hopeless(r.finalKnown(c, func(e int) (prog.Value, bool) { return vals[e], true }, final))
}

// valueCycle tells whether the value of read n-1, just given its write,
// depends on itself through the reads-from choices so far: its write's
// value depends on a read that reads from a write whose value depends
// ... on read n-1. The values of such a choice are out of thin air and
// every completion of it fails (combo.values); pointer-chasing tests,
// whose stores write values read from memory, have millions of them.
func (c *combo) valueCycle(rf []int, n int) bool {
	target := c.reads[n-1]
	if c.thread[rf[n-1]] < 0 {
		return false
	}
	if c.readIndex == nil {
		c.readIndex = make(map[int]int, len(c.reads))
		for i, rd := range c.reads {
			c.readIndex[rd] = i
		}
	}
	seen := map[int]bool{}
	var reaches func(w int) bool // the value of write w depends on target
	reaches = func(w int) bool {
		t := c.thread[w]
		if t < 0 || c.syms[w] == nil || seen[w] {
			return false
		}
		seen[w] = true
		for _, d := range c.syms[w].Deps {
			rd := c.base[t] + d
			if rd == target {
				return true
			}
			if i, ok := c.readIndex[rd]; ok && i < n && reaches(rf[i]) {
				return true
			}
		}
		return false
	}
	return reaches(rf[n-1])
}
