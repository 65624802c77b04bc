package param

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// This file gives the weak approximation candidate invariants from the
// same system on sequentially consistent memory: the weak variables made
// plain, the system is proved with the SC approximation (approx.go,
// within scBudget), and the cubes of its invariant that mention no weak
// variable (conditions on the processes' own state, such as "no two
// processes in the critical section", or "the arbiter is not at L3 while
// a process is in its critical section") are candidates for the weak
// system too: TSO runs include the SC runs, and where the protocol is
// robust the same local conditions hold. A candidate that the TSO
// sample reaches or that meets the initial states is dropped; the others
// are explored beside the unsafe formulas as guesses (templateRoots), so
// a wrong one is refuted like any guess.

// scBudget bounds the time of the SC proof.
const scBudget = 10 * time.Second

// scVariant checks the syntax tree of sys again with every weak
// variable and array made plain (sequentially consistent).
func (sys *System) scVariant() (*System, error) {
	if sys.ast == nil {
		return nil, fmt.Errorf("no syntax tree")
	}
	f := *sys.ast
	f.Globals = make([]*GlobalDecl, len(sys.ast.Globals))
	for i, g := range sys.ast.Globals {
		d := *g
		d.Weak = false
		f.Globals[i] = &d
	}
	return Check(&f)
}

// scCandidates lists the candidates of the SC proof of the system.
func (e *engine) scCandidates() []*Cube {
	sc, err := e.sys.scVariant()
	if err != nil || !explorable(sc) || len(sc.Globals) != len(e.sys.Globals) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), scBudget)
	defer cancel()
	if e.stop != nil {
		// the caller's deadline holds during the SC proof
		go func() {
			for ctx.Err() == nil {
				if e.stop() {
					cancel()
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	res, err := Verify(ctx, sc, Options{})
	if err != nil || res.Verdict != Safe {
		return nil
	}
	ws := e.approx.weak
	var out []*Cube
	for _, c := range res.cubes {
		if e.stopped() {
			break
		}
		if len(c.Nodes) > 0 || e.mentionsWeak(c) {
			continue
		}
		g := &Cube{Slots: slices.Clone(c.Slots), Lits: slices.Clone(c.Lits)}
		if ws.reaches(g.Lits, nil, nil, g.Slots, e.sys.Pinned, e.stop) {
			continue
		}
		if e.cheap(g) == cheapUnsat || e.reachesInit(g) {
			continue
		}
		g.sig = 0
		out = append(out, g)
	}
	return out
}

// mentionsWeak reports whether a literal of c is about a weak variable.
func (e *engine) mentionsWeak(c *Cube) bool {
	weak := func(t Term) bool {
		for _, a := range append(linAtoms(t), t) {
			if (a.Kind == KVar || a.Kind == KVal || a.Kind == KInit) && e.sys.Globals[a.Sym].Weak {
				return true
			}
		}
		return false
	}
	for _, l := range c.Lits {
		if weak(l.L) || weak(l.R) {
			return true
		}
	}
	return false
}
