package main

import (
	"context"
	"fmt"
	"time"

	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/result"
)

// immThenPower is -engine auto under -target power: the SMT engine
// decides Power, and the graph engine, which decides IMM, answers PASS
// for it where IMM has no failure (cfront.IMMForPower gives the argument:
// Podkopaev, Lahav, Vafeiadis, "Bridging the Gap between Programming
// Languages and Hardware Weak Memory Models", POPL 2019). One lowering
// of the program serves both. The graph engine runs first, the SMT engine
// joining it after graphHeadStart or as soon as it has answered without
// a PASS; the graph engine's PASS is taken, and any other answer of it
// (a failure, the bound reached, a refusal) is not: the SMT engine's
// answer is the verdict then, as without the shortcut. A program the
// argument does not cover goes to the SMT engine alone. Beside the graph
// engine the SMT engine keeps the whole memory limit (no portfolio
// budget, unlike firstAnswer): whatever the graph engine does, the SMT
// engine's answer must be the one it gives alone.
//
// The graph engine has a budget (graphBudget graphs): past it, the graph
// engine pauses (graph.Options.Pace) rather than compete for the CPU with
// the SMT engine, whose answer is then the likelier one, and the SMT
// engine joins at once if the head start has not ended. The pause ends
// when the SMT engine refuses the program or gives up before the time
// limit (the graph engine's answer is then the only one that may come,
// and it goes on without a budget), or when the run ends. The budget only decides which engine's answer comes first, so
// no verdict changes; what it costs is a graph-engine PASS needing more
// graphs than the budget on a program the SMT engine cannot decide within
// the time limit (none in the repository's C files: their IMM runs check
// at most ~14,300 graphs under IMM). ttas4.c is the case it is for: 216,000 IMM
// executions, over 1.8 million graphs, that the graph engine cannot finish
// in two minutes, while the SMT engine alone answers in about 3 s of CPU.
func immThenPower(ctx context.Context, limit time.Duration, path string, opts cfront.CheckOptions) (*cfront.Result, error) {
	start := time.Now()
	cctx, cancel := limitContext(ctx, limit)
	defer cancel()
	p, r, err := lowerOnce(cctx, start, path, opts)
	if p == nil {
		return r, err
	}
	so := opts
	so.Engine = "smt"
	gopts, why := cfront.IMMForPower(p, opts)
	if why != nil {
		r, err := cfront.CheckProgram(cctx, p, so)
		if r != nil {
			r.Time, r.ViaNot = time.Since(start), "IMM shortcut not taken: "+why.Error()
		}
		return r, err
	}
	type answer struct {
		engine string
		r      *cfront.Result
		err    error
	}
	rctx, stop := context.WithCancel(cctx)
	defer stop()
	ch := make(chan answer, 2)
	spent := make(chan struct{}, 1) // the graph engine spent its budget
	resume := make(chan struct{})   // closed when the graph engine may go on
	gopts.GraphPace = func(graphs int) {
		if graphs < graphBudget {
			return
		}
		select {
		case spent <- struct{}{}: // (the SMT engine joins, if it has not)
		default:
		}
		select {
		case <-resume:
		case <-rctx.Done():
		}
	}
	run := func(e string, o cfront.CheckOptions) {
		go func() {
			r, err := cfront.CheckProgram(rctx, p, o)
			ch <- answer{e, r, err}
		}()
	}
	run("graph", gopts)
	smtOn, graphOn := false, true
	timer := time.NewTimer(graphHeadStart)
	defer timer.Stop()
	var graphNot string // why the graph engine's answer was not taken
	var smt *answer
	startSMT := func() {
		if !smtOn {
			run("smt", so)
			smtOn = true
		}
	}
	for graphOn || smt == nil {
		if !graphOn {
			startSMT()
		}
		var a answer
		select {
		case <-timer.C:
			startSMT()
			continue
		case <-spent:
			startSMT()
			continue
		case a = <-ch:
		}
		if a.engine == "graph" {
			graphOn = false
			switch {
			case a.err != nil:
				graphNot = a.err.Error()
			case a.r.Verdict == cfront.Safe:
				stop()
				a.r.Via = "the graph engine under IMM found no failure and no cut: none under Power (Podkopaev, Lahav, Vafeiadis, POPL 2019)"
				a.r.Time = time.Since(start)
				return a.r, nil
			case a.r.Verdict == cfront.BoundHit:
				// No failure under IMM: is there an execution past the
				// bound under SC (cfront.SCForPowerBound)?
				sopts, err := cfront.SCForPowerBound(gopts)
				if err != nil {
					graphNot = err.Error()
					break
				}
				// (The SMT engine joins as after the IMM run: at the
				// head start's end or the budget's.)
				run("sc", sopts)
				graphOn = true
			default:
				graphNot = "the graph engine under IMM answered " + cWord(a.r) + ", which says nothing about Power"
				if a.r.Verdict == cfront.Unknown && a.r.Result.Err != nil {
					graphNot += " (" + a.r.Result.Err.Error() + ")"
				}
			}
			continue
		}
		if a.engine == "sc" {
			graphOn = false
			if a.err == nil && a.r.Verdict == cfront.BoundHit {
				stop()
				a.r.Via = "the graph engine under IMM found no failure, so none under Power (Podkopaev, Lahav, Vafeiadis, POPL 2019), and under SC an execution past the bound, which is one under Power too (cfront.SCForPowerBound)"
				a.r.Time = time.Since(start)
				return a.r, nil
			}
			graphNot = "the graph engine under IMM answered BOUND, which says nothing about Power, and under SC "
			if a.err != nil {
				graphNot += "failed: " + a.err.Error()
			} else {
				graphNot += "answered " + cWord(a.r) + ": no execution past the bound it can vouch for"
			}
			continue
		}
		smt = &a
		if a.err == nil && a.r.Verdict == cfront.Unknown && graphOn && cctx.Err() == nil &&
			(a.r.Result.Status == result.Unsupported || a.r.Failed == nil || !a.r.Failed.Limit) {
			// The SMT engine refused, or gave up before the time
			// limit (not at a path past Musket's own limits, which is
			// final): the graph engine's answer may still come, and its
			// budget is over.
			close(resume)
			continue
		}
		break
	}
	stop()
	if smt.r != nil {
		smt.r.Time = time.Since(start)
		if graphNot == "" {
			graphNot = "the SMT engine answered first"
		}
		smt.r.ViaNot = "IMM shortcut not taken: " + graphNot
	}
	return smt.r, smt.err
}

// immShortcutNote is the line -stats prints on how a -target power
// verdict was reached (empty: not a -target power check of the
// shortcut's dispatch).
func immShortcutNote(r *cfront.Result) string {
	switch {
	case r.Via != "":
		return fmt.Sprintf("  answered through IMM: %s", r.Via)
	case r.ViaNot != "":
		return "  " + r.ViaNot
	}
	return ""
}

// graphBudget is how many graphs the graph engine checks under IMM
// before it pauses beside the SMT engine (immThenPower): about 1 s of CPU
// at the engine's usual 50,000 graphs a second, and three and a half times what
// the repository's C files that it answers need.
var graphBudget = 50000 // (a variable for tests)

// immPowerEngine is the name checkC's one gives the run of immThenPower.
const immPowerEngine = "power-imm"
