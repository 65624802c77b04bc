package cfront

import (
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/lazyre"
	"regexp"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// checkGraph answers the questions of CheckProgram with the graph engine
// (package graph) in one exploration: the execution graphs are explored
// until one fails an assertion; when none does, the same exploration
// tells whether one reached the unroller's cut (BOUND) and, with
// -liveness, whether one is a livelock. q asks whether an assertion
// fails.
func checkGraph(ctx context.Context, res *Result, p *Program, q *spec.Test, tags []string, opts CheckOptions) *Result {
	if !graph.Supported(opts.ModelName) {
		res.Verdict = Unknown
		res.Result = &result.Result{File: q.File, Name: q.Name, Model: opts.ModelName, Engine: "graph", Status: result.Unsupported,
			Err: fmt.Errorf("the graph engine decides %s; %s is left to the SMT engine (-engine smt)", graph.SupportedModels(), opts.ModelName)}
		return res
	}
	safeOnly := false
	if hasParts(q) && opts.Races && hbCoherent(opts.ModelName) {
		if u, ok := plainPartsApart(q); ok {
			q = u
		}
	}
	if hasParts(q) && !modelUses(opts.Model, "sm") {
		// Under a model without single-copy atomicity the parts are
		// accesses of their own for the SMT engine too (tearing.go), but
		// a failure may tear one: only PASS is taken (partsApart).
		if u, ok := partsApart(q, false); ok {
			q, safeOnly = u, true
		}
	}
	if hasParts(q) {
		// A failure that tears a mixed-size access is no verdict under
		// the models the graph engine decides (tearing.go): the SMT
		// engine's check of its witness says which it is.
		res.Verdict = Unknown
		res.Result = &result.Result{File: q.File, Name: q.Name, Model: opts.ModelName, Engine: "graph", Status: result.Unsupported,
			Err: fmt.Errorf("the graph engine does not decide programs with mixed-size accesses; they are left to the SMT engine (-engine smt)")}
		return res
	}
	if pl := opts.commutePlanFor(p, q); pl != nil {
		saved, gaveUp := *res, false
		for attempt := 0; attempt < commuteAttempts && len(pl.xs) > 0; attempt++ {
			cq := commuteRMWs(q, pl)
			if pl.moved == 0 {
				break // no update left to move
			}
			r := checkGraphOn(ctx, res, p, cq, tags, opts, safeOnly, len(pl.xs))
			i := commuteFailed(r, len(pl.xs))
			if i < 0 {
				r.Commuted = pl.moved
				r.commuteAt = nil
				return r
			}
			*res = saved
			pl.xs = append(pl.xs[:i:i], pl.xs[i+1:]...)
			gaveUp = true
		}
		res.CommuteOff = gaveUp
	}
	return checkGraphOn(ctx, res, p, q, tags, opts, safeOnly, 0)
}

// checkGraphOn is checkGraph's run of the graph engine on q.
func checkGraphOn(ctx context.Context, res *Result, p *Program, q *spec.Test, tags []string, opts CheckOptions, safeOnly bool, commuted int) *Result {
	also := []spec.Cond{p.cutCond()}
	if opts.Liveness {
		also = append(also, p.livelock())
	}
	if commuted > 0 {
		// the failures when the rewrite does not hold (commute.go):
		// seen in any execution, even one explored after a failure
		// while -races looks for a race.
		also = append(also, commuteBrokenCond(q, commuted))
	}
	// The refs of the further conditions are observed, so that their
	// witnesses' final states give them (stuckAt reads them).
	seen := map[spec.Ref]bool{}
	for _, c := range also {
		for _, ref := range spec.Refs(c) {
			if !seen[ref] {
				seen[ref] = true
				q.Locations = append(q.Locations, ref)
			}
		}
	}
	o := graph.Options{Variants: opts.Variants, TagNames: tags,
		FlagWitnesses: opts.Races, NoFlags: !opts.Races, StopAtFirst: true, Also: also, BlockedReg: blockedReg,
		SpinReg: spinReg, CutReg: compile.BoundReg, NoSpinPrune: opts.Liveness || opts.GraphNoPrune, CrossCheck: opts.GraphCrossCheck,
		DeclaredOnly: true, Pace: opts.GraphPace}
	var faults []Assertion
	num := map[Assertion]int{}
	o.Fault, o.FaultReg = numberedFaults(q, &faults, num, "invalid memory access"), failReg
	if p.heaps != nil {
		o.FreedMark, o.UseAfterFree = p.freedMark, uafFaults(p, q, &faults, num)
	}
	if p.raw != nil {
		o.Raw, o.RawRead = p.rawCell, numberedFaults(q, &faults, num, "read of uninitialised heap memory")
	}
	if !opts.Liveness && !opts.GraphNoSymmetry {
		o.Symmetric, o.SymStops = opts.graphSymmetric(q, p.Asserts)
		o.SymOwn = ownLoc.MatchString
	}
	if opts.GraphCountClasses {
		o.CountClasses = true
		if o.Symmetric == nil {
			o.Symmetric, o.SymStops = opts.graphSymmetric(q, p.Asserts)
			o.SymOwn, o.NoSymmetry = ownLoc.MatchString, true
		}
	}
	if opts.Races {
		// Explore until both an assertion's failure and a race are met
		// (or to the end), to report both when the program has both.
		o.AwaitFlag = IsRaceFlag
	}
	if !opts.Liveness {
		// A thread's start and a join wait for their flag (written once,
		// by the parent's create and the child's end) rather than read
		// its initial value and stop: the executions in which a thread
		// stops there are prefixes of executions in which it waits
		// (-liveness looks at where threads stop: there, they stop).
		o.Await = func(loc string) bool {
			return strings.HasPrefix(loc, "%start.") || strings.HasPrefix(loc, "%done.")
		}
	}
	r, st := graph.Run(ctx, q, opts.Model, opts.ModelName, o)
	if commuted > 0 && len(st.Also) == len(also) {
		res.commuteAt = st.Also[len(also)-1]
	}
	r.CountsOmitted = true
	res.Result = r
	res.Graph = &st
	switch {
	case r.Status != result.Done:
		res.Verdict = Unknown
	case raceFlag(opts, r) != "":
		if r.Positive > 0 {
			res.Failed = graphFailed(p, r, faults)
		}
		res.raceOf(r, raceFlag(opts, r), opts, tags)
	case r.Positive > 0:
		res.Verdict = Violation
		res.Failed = graphFailed(p, r, faults)
		res.atLimit()
	default:
		switch {
		case st.Also[0] != nil:
			res.Verdict = BoundHit
			r.Witness = st.Also[0]
		case opts.Liveness && st.Also[1] != nil:
			res.Verdict = Livelock
			r.Witness = st.Also[1]
			res.Failed = p.stuckAt(r)
		default:
			res.Verdict = Safe
			r.Witness = nil
		}
	}
	if safeOnly && res.Verdict != Safe && res.Verdict != Unknown {
		res.Verdict = Unknown
		r.Status, r.Witness = result.Unsupported, nil
		r.Err = fmt.Errorf("the graph engine found a failure in a program with mixed-size accesses, which may tear one: left to the SMT engine (-engine smt)")
	}
	return res
}

// ownLoc matches the locations private to one created thread: its start
// and end flags, argument and return value, named LOC.N for thread N.
var ownLoc = lazyre.New(`^%(start|done|arg|ret|fnp)\.([0-9]+)$`)

// symToken matches the names in an instruction's text.
var symToken = lazyre.New(`[^\s\[\]\(\),!:]+`)

// symmetricThreads gives each thread of q its symmetric predecessor for
// the graph engine's symmetry reduction (-1: none), or nil when no two
// threads are symmetric. Threads p < q are symmetric when swapping them
// maps every execution onto an execution of the program:
//   - both are created by main with a constant argument (no read of their
//     %arg) and their code is the same once each one's own locations
//     (%start.N, %done.N, %ret.N) are renamed (the spin-site numbers that
//     only name where a thread stopped are ignored);
//   - between the creations of the group's threads, and between its
//     joins, main accesses only the group's flags and main's own local
//     variables that no other thread can reach (named by no other
//     thread's code, their address never stored).
func symmetricThreads(q *spec.Test, asserts []Assertion) (sym []int, spinStops bool) {
	if len(q.Threads) < 3 {
		return nil, false
	}
	main := q.Threads[0]
	priv := mainPrivate(q)
	// key is a thread's code with its own locations renamed.
	key := func(k int) (string, bool) {
		own := regexp.MustCompile(`%(start|done|arg|ret)\.` + strconv.Itoa(k) + `\b`)
		th := q.Threads[k]
		// Registers and labels are renamed by first occurrence (inlined
		// calls number theirs); memory locations are not.
		names := map[string]bool{}
		for _, in := range th.Code {
			for _, d := range prog.Defs(in) {
				names[d] = true
			}
			for _, e := range prog.Exprs(in) {
				prog.WalkExpr(e, func(x prog.Expr) {
					if r, ok := x.(prog.Reg); ok {
						names[r.Name] = true
					}
				})
			}
			switch in := in.(type) {
			case prog.Label:
				names[in.Name] = true
			case prog.Jump:
				names[in.Target] = true
			}
		}
		for _, in := range th.Code {
			for _, v := range prog.AddrConsts(in) {
				delete(names, baseOf(v.Loc)) // a variable keeps its name
			}
		}
		canon := map[string]string{}
		var b strings.Builder
		for _, in := range th.Code {
			if ld, ok := in.(prog.Load); ok && (isConstAddr(ld.Addr, argLoc(k)) || isConstAddr(ld.Addr, fnpLoc(k))) {
				return "", false // the argument (or function) is read: values may differ
			}
			if as, ok := in.(prog.Assign); ok && as.Dst == "%spinat" {
				continue
			}
			if as, ok := in.(prog.Assign); ok && as.Dst == failReg {
				// An assertion site: copies of a thread number theirs
				// apart; what a failure reports is its place and text.
				if c, ok := as.Val.(prog.Const); ok && c.V.Loc == "" && c.V.Int >= 1 && int(c.V.Int) <= len(asserts) {
					fmt.Fprintf(&b, "%%fail = %v\n", asserts[c.V.Int-1])
					continue
				}
			}
			line := symToken.ReplaceAllStringFunc(prog.InstrString(in), func(tok string) string {
				if !names[tok] {
					return tok
				}
				if c, ok := canon[tok]; ok {
					return c
				}
				c := "$" + strconv.Itoa(len(canon))
				canon[tok] = c
				return c
			})
			b.WriteString(own.ReplaceAllString(line, "%$1.#"))
			b.WriteByte('\n')
		}
		return b.String(), true
	}
	// span gives the first and last instruction of main that accesses a
	// flag among locs.
	span := func(locs map[string]bool) (int, int) {
		lo, hi := -1, -1
		for i, in := range main.Code {
			for _, l := range accessed(in) {
				if locs[l] {
					if lo < 0 {
						lo = i
					}
					hi = i
				}
			}
		}
		return lo, hi
	}
	// quiet tells whether main's accesses from lo to hi are to flags of
	// the group, or to main's private locations.
	quiet := func(lo, hi int, flags map[string]bool) bool {
		for i := lo; i <= hi && i >= 0; i++ {
			in := main.Code[i]
			if _, ok := in.(prog.Fence); ok {
				return false
			}
			if !isAccess(in) {
				continue
			}
			ls := accessed(in)
			if ls == nil {
				// A computed address: main's own variable only.
				if b, ok := priv.base(in); !ok || !priv.local[b] {
					return false
				}
				continue
			}
			for _, l := range ls {
				if !flags[l] && !priv.local[baseOf(l)] {
					return false
				}
			}
		}
		return true
	}
	sym = make([]int, len(q.Threads))
	for i := range sym {
		sym[i] = -1
	}
	groups := map[string][]int{}
	var order []string
	for k := 1; k < len(q.Threads); k++ {
		created := false
		for _, in := range main.Code {
			if st, ok := in.(prog.Store); ok && isConstAddr(st.Addr, startLoc(k)) {
				created = true
			}
		}
		if !created {
			continue
		}
		s, ok := key(k)
		if !ok {
			continue
		}
		if _, seen := groups[s]; !seen {
			order = append(order, s)
		}
		groups[s] = append(groups[s], k)
	}
	any := false
	for _, s := range order {
		g := groups[s]
		if len(g) < 2 {
			continue
		}
		starts, dones := map[string]bool{}, map[string]bool{}
		for _, k := range g {
			starts[startLoc(k)] = true
			dones[doneLoc(k)] = true
		}
		flags := map[string]bool{}
		for _, k := range g {
			for _, l := range []string{startLoc(k), doneLoc(k), argLoc(k), retLoc(k), fnpLoc(k)} {
				flags[l] = true
			}
		}
		lo, hi := span(starts)
		jlo, jhi := span(dones)
		stops, spins := mayStop(q.Threads[g[0]])
		if !quiet(lo, hi, flags) || !quiet(jlo, jhi, flags) || stops {
			continue
		}
		spinStops = spinStops || spins
		for i := 1; i < len(g); i++ {
			sym[g[i]] = g[i-1]
		}
		any = true
	}
	if !any {
		return nil, false
	}
	return sym, spinStops
}

// mayStop tells whether a created thread may stop before its end: stops
// for a jump to where it blocks (an assumption), spins for a jump out of
// a cut spin loop or to the unroller's cut, but for the check of its
// start (which, under the graph engine, waits for its creation instead).
// The symmetry reduction is exact on the complete executions (tests
// count them against a run without it). Threads that may stop only in
// cut spin loops or at the unroller's cut are reduced too: the engine
// then checks every blocked execution it meets and gives the reduction
// up at the first whose verdict facts no complete execution is known to
// have (graph.Options.SymStops). Threads that may stop on an assumption
// are not reduced: which joins their parent made before waiting depends
// on the threads' numbers, and the reduced exploration was seen to leave
// out blocked executions no swap of threads gives.
func mayStop(th *prog.Thread) (stops, spins bool) {
	dead := false // after a jump, before a label: unreachable
	for _, in := range th.Code {
		if _, ok := in.(prog.Label); ok {
			dead = false
		}
		j, ok := in.(prog.Jump)
		if dead || !ok {
			continue
		}
		dead = j.Cond == nil
		if j.Target != blockLabel && j.Target != spinLabel && j.Target != compile.CutLabel {
			continue
		}
		start := false
		prog.WalkExpr(j.Cond, func(e prog.Expr) {
			if r, ok := e.(prog.Reg); ok && r.Name == "%start" {
				start = true
			}
		})
		switch {
		case start:
		case j.Target == blockLabel:
			stops = true
		default:
			spins = true
		}
	}
	return stops, spins
}

func isConstAddr(e prog.Expr, loc string) bool {
	c, ok := e.(prog.Const)
	return ok && c.V.Loc == loc && c.V.Int == 0
}

func isAccess(in prog.Instr) bool {
	switch in.(type) {
	case prog.Load, prog.Store, prog.RMW, prog.StoreCond, prog.Located:
		return true
	}
	return false
}

// accessed gives the location an access reaches when its address is a
// constant (nil otherwise, or when in is no access).
func accessed(in prog.Instr) []string {
	if !isAccess(in) {
		return nil
	}
	if c, ok := prog.Exprs(in)[0].(prog.Const); ok && c.V.Loc != "" {
		return []string{baseOf(c.V.Loc)}
	}
	return nil
}

// baseOf is the variable of a location name ("main.1.t+8": "main.1.t").
func baseOf(loc string) string {
	if k := strings.IndexByte(loc, '+'); k >= 0 {
		return loc[:k]
	}
	return loc
}

// privInfo knows main's private variables: its locals that no other
// thread names and whose address it never stores, and the variables
// each of its registers may point into.
type privInfo struct {
	local map[string]bool
	regs  map[string]map[string]bool // register: variables it may point into ("?": unknown)
}

// base is the variable a computed access of main reaches, when known.
func (p *privInfo) base(in prog.Instr) (string, bool) {
	bs := p.bases(prog.Exprs(in)[0])
	if len(bs) != 1 || bs["?"] {
		return "", false
	}
	for b := range bs {
		return b, true
	}
	return "", false
}

func (p *privInfo) bases(e prog.Expr) map[string]bool {
	out := map[string]bool{}
	prog.WalkExpr(e, func(s prog.Expr) {
		switch s := s.(type) {
		case prog.Const:
			if s.V.Loc != "" {
				out[baseOf(s.V.Loc)] = true
			}
		case prog.Reg:
			for b := range p.regs[s.Name] {
				out[b] = true
			}
		case prog.Old:
			out["?"] = true
		}
	})
	return out
}

func mainPrivate(q *spec.Test) *privInfo {
	p := &privInfo{local: map[string]bool{}, regs: map[string]map[string]bool{}}
	main := q.Threads[0]
	// What each register of main may point into (a value loaded from
	// memory: unknown), to a fixpoint over the loop-free code.
	for changed := true; changed; {
		changed = false
		add := func(r string, bs map[string]bool) {
			if p.regs[r] == nil {
				p.regs[r] = map[string]bool{}
			}
			for b := range bs {
				if !p.regs[r][b] {
					p.regs[r][b] = true
					changed = true
				}
			}
		}
		for _, in := range main.Code {
			switch in := in.(type) {
			case prog.Assign:
				add(in.Dst, p.bases(in.Val))
			case prog.Load:
				add(in.Dst, map[string]bool{"?": true})
			case prog.RMW:
				if in.Dst != "" {
					add(in.Dst, map[string]bool{"?": true})
				}
			default:
				for _, d := range prog.Defs(in) {
					add(d, map[string]bool{"?": true})
				}
			}
		}
	}
	for _, in := range main.Code {
		for _, e := range prog.Exprs(in) {
			for b := range p.bases(e) {
				if strings.HasPrefix(b, "main.") {
					p.local[b] = true
				}
			}
		}
	}
	// Not private: named by another thread, or its address stored.
	for _, th := range q.Threads[1:] {
		for _, in := range th.Code {
			for _, v := range prog.AddrConsts(in) {
				delete(p.local, baseOf(v.Loc))
			}
		}
	}
	for _, in := range main.Code {
		var val prog.Expr
		switch in := in.(type) {
		case prog.Store:
			val = in.Val
		case prog.RMW:
			val = in.New
		case prog.StoreCond:
			val = in.Val
		default:
			continue
		}
		for b := range p.bases(val) {
			delete(p.local, b)
		}
	}
	return p
}

// graphSymmetric is symmetricThreads for the graph engine: of the
// C-level program under -target riscv (found before the compilation,
// cSym), of q otherwise. RISC-V's compilation puts a fence rw,w before
// each of the parent's creations (a release write) and a fence after
// each join (an acquire read), which symmetricThreads's quiet parent
// does not allow; each fence implements the C-level release or acquire
// the C-level check already accepts (smtsym.go's smtSymmetryModel), and
// the compilation maps every thread's instructions alike, so threads
// symmetric at the C level stay so once compiled.
func (opts CheckOptions) graphSymmetric(q *spec.Test, asserts []Assertion) ([]int, bool) {
	if opts.cSymSet {
		return opts.cSym, opts.cSymStops
	}
	return symmetricThreads(q, asserts)
}
