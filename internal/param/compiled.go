package param

import "slices"

// This file compiles the transitions of a finite instance explored under
// sequential consistency without store buffers (the samples of the
// approximation, the cross-check of systems without weak memory): every
// instance of every transition (a tuple of distinct processes for its
// parameters) becomes its guard and its updates with the cells and
// constants resolved, so that successors reads cells by index instead
// of interpreting terms, environments and quantifiers at every state.
// The successors and their order are exactly those of the interpreter
// (wfinite.fire through successors' enumeration): the instances are
// listed in the order successors tries them, a literal that cannot be
// evaluated (a process outside the instance) is false, as in the
// interpreter, and the writes, their cases and the choices of the
// nondeterministic values are made in the same order. What the
// compilation does not handle (weak reads, initial values, linear
// terms, quantifiers inside quantifiers) leaves the interpreter in
// charge of the whole instance. The writes go through apply, which
// makes the state and leaves out those an invariant formula excludes.

// cTerm is a compiled term: st[cell]+val when cell >= 0, the constant
// val when cell is cConst, not a value (a process outside the instance)
// when cell is cBad.
type cTerm struct {
	cell int32
	val  int64
}

const (
	cConst int32 = -1
	cBad   int32 = -2
)

func (t cTerm) eval(st []int64) int64 {
	if t.cell >= 0 {
		return st[t.cell] + t.val
	}
	return t.val
}

// cLit is a compiled literal over cells (both sides never both
// constant: those are decided when compiled).
type cLit struct {
	op   Op
	l, r cTerm
}

func (l *cLit) holds(st []int64) bool {
	return evalInt(l.op, l.l.eval(st), l.r.eval(st))
}

// cConj is a compiled conjunction: its literals, then for each
// forall_other (exists_other) the instances of its DNF, one per process
// that is not a parameter.
type cConj struct {
	lits    []cLit
	foralls [][]cDNF
	exists  [][]cDNF
	maybe   bool // (abstract mode) a literal of it is always maybe
}

type cDNF []cConj

func (d cDNF) holds(st []int64) bool {
	for i := range d {
		if d[i].holds(st) {
			return true
		}
	}
	return false
}

func (c *cConj) holds(st []int64) bool {
	for i := range c.lits {
		if !c.lits[i].holds(st) {
			return false
		}
	}
	for _, qs := range c.foralls {
		for _, d := range qs {
			if !d.holds(st) {
				return false
			}
		}
	}
	for _, qs := range c.exists {
		found := false
		for _, d := range qs {
			if d.holds(st) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// The kinds of a compiled case.
const (
	cwValue  uint8 = iota // writes val
	cwNondet              // writes any of alts (their first one without allNondet: val)
	cwSkip                // the cell is not written
	cwBad                 // the value names a process outside the instance
)

// cCase is a compiled branch of a case update.
type cCase struct {
	cond    cDNF
	hasCond bool
	kind    uint8
	val     cTerm
	alts    []int64
}

// cWrite is a cell an update may write, with its branches.
type cWrite struct {
	cell  int
	weak  bool
	cases []cCase
}

// branch is the first of w's cases whose condition holds in st (a case
// update takes its first true branch), or nil when none holds.
func (w *cWrite) branch(st []int64) *cCase {
	for ci := range w.cases {
		if cs := &w.cases[ci]; !cs.hasCond || cs.cond.holds(st) {
			return cs
		}
	}
	return nil
}

// cInst is a compiled transition instance.
type cInst struct {
	t      *Trans
	args   []int32 // the processes of the parameters (shared by its steps)
	actor  int32
	guard  cDNF
	writes []cWrite
	// gate: a literal "st[gate] = gateVal" of the guard's only
	// conjunction (gate < 0: none). The successors test it first,
	// inline: most instances are disabled in most states, and most by
	// such a literal (a process's control state), so that the guard is
	// evaluated for the few that pass. It only leaves out instances whose
	// guard is false.
	gate    int32
	gateVal int64
}

// setGate chooses in's gate: the first literal of its guard's only
// conjunction that compares a cell (without offset) with a constant.
func (in *cInst) setGate() {
	in.gate = -1
	if len(in.guard) != 1 {
		return
	}
	for _, l := range in.guard[0].lits {
		if l.op == Eq && l.l.cell >= 0 && l.l.val == 0 && l.r.cell == cConst {
			in.gate, in.gateVal = l.l.cell, l.r.val
			return
		}
	}
}

// dropIdleWrites removes from in what its firing never does, in exact
// and in abstract mode alike: a case whose condition compiled to no
// disjunct (it never holds: FLASH's "j = src" for a j that is not src)
// is never taken; a condition with a disjunct that holds in every state
// (no literal, no quantifier, not maybe) makes its case unconditional,
// and the cases after it are never reached; a write with no case left
// writes nothing; and a write whose first case is unconditional and
// leaves the cell as it is (a skip, or the cell's own value, as in
// FLASH's "_ : CacheWait[j]" for every j but one) changes nothing: in
// exact mode it writes the value the cell holds (a weak cell excepted:
// apply widens its ranges), in abstract mode its only value is the
// cell's, which sameCells and the successor's cells ignore. The
// successors are those of the interpreter, in the same order; half the
// writes of FLASH's instances were such.
func (in *cInst) dropIdleWrites() {
	ws := in.writes[:0]
	for _, w := range in.writes {
		cs := w.cases[:0]
		for _, k := range w.cases {
			if k.hasCond && len(k.cond) == 0 {
				continue
			}
			if k.hasCond && alwaysHolds(k.cond) {
				k.hasCond, k.cond = false, nil
			}
			cs = append(cs, k)
			if !k.hasCond {
				break
			}
		}
		w.cases = cs
		if len(cs) == 0 {
			continue
		}
		if k := cs[0]; !k.hasCond && (k.kind == cwSkip || k.kind == cwValue && !w.weak && k.val.cell == int32(w.cell) && k.val.val == 0) {
			continue
		}
		ws = append(ws, w)
	}
	in.writes = ws
}

// alwaysHolds reports whether a disjunct of d holds in every state, in
// exact and abstract mode.
func alwaysHolds(d cDNF) bool {
	for i := range d {
		if c := &d[i]; len(c.lits) == 0 && len(c.foralls) == 0 && len(c.exists) == 0 && !c.maybe {
			return true
		}
	}
	return false
}

// compiledSC is the compiled instance; nil when some transition cannot
// be compiled.
type compiledSC struct {
	insts []cInst
	index *guardIndex // guardindex.go; nil: every guard is evaluated
}

// compileOK reports whether the compiled successors apply to f now.
func (f *wfinite) compileOK() bool {
	return f.bufCap == 0 && len(f.weak) == 0 && f.overAtoms == nil && !f.noCompile
}

// compiled returns the compiled transitions of f, compiling them on
// first use, or nil.
func (f *wfinite) compiled() *compiledSC {
	if !f.compTried {
		f.compTried = true
		f.comp = compileSC(f)
	}
	return f.comp
}

// compileSC compiles the transitions of f, or returns nil.
func compileSC(f *wfinite) *compiledSC {
	insts, ok := compileInsts(f.sys.Trans, f.n, f.compileInst)
	if !ok {
		return nil
	}
	return &compiledSC{insts: insts, index: newGuardIndex(insts)}
}

// compileInsts compiles every instance of the transitions ts (each
// choice of distinct processes among n for their parameters, in the
// order the interpreter's successors try them) with compile; false when
// one cannot be compiled.
func compileInsts(ts []*Trans, n int32, compile func(t *Trans, params []int32) (cInst, bool)) ([]cInst, bool) {
	var insts []cInst
	for _, t := range ts {
		params := make([]int32, len(t.Params))
		ok := true
		var rec func(k int)
		rec = func(k int) {
			if !ok {
				return
			}
			if k == len(params) {
				inst, good := compile(t, params)
				if !good {
					ok = false
					return
				}
				inst.setGate()
				inst.dropIdleWrites()
				insts = append(insts, inst)
				return
			}
			for p := int32(1); p <= n; p++ {
				if !containsProc(params[:k], p) {
					params[k] = p
					rec(k + 1)
				}
			}
			params[k] = 0
		}
		rec(0)
		if !ok {
			return nil, false
		}
	}
	return insts, true
}

func containsProc(ps []int32, p int32) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// compileInst compiles t with the parameters params.
func (f *wfinite) compileInst(t *Trans, params []int32) (cInst, bool) {
	args := append([]int32(nil), params...)
	e := &fenv{params: args}
	inst := cInst{t: t, args: args}
	if len(args) == 0 {
		inst.args = nil
	}
	if t.Actor >= 0 {
		inst.actor = args[t.Actor]
	}
	var ok bool
	if inst.guard, ok = f.compileDNF(t.Guard, e, 0); !ok {
		return inst, false
	}
	for _, u := range t.Updates {
		g := f.sys.Globals[u.Global]
		for _, up := range f.univOf(u.NUniv) {
			copy(e.u[:], up)
			var cargs [maxArity]int32
			for i := 0; i < u.NArgs; i++ {
				cargs[i] = e.proc(u.Args[i])
			}
			cell := f.cell(u.Global, int32(u.NArgs), cargs)
			if cell < 0 {
				continue
			}
			w := cWrite{cell: cell, weak: g.Weak}
			for _, cs := range u.Cases {
				var k cCase
				if cs.Cond != nil {
					k.hasCond = true
					if k.cond, ok = f.compileDNF(cs.Cond, e, 0); !ok {
						return inst, false
					}
				}
				switch {
				case cs.Skip:
					k.kind = cwSkip
				case cs.Nondet:
					k.kind = cwNondet
					if g.Sort.Kind == SProc {
						k.val.val = 1
					}
					if f.allNondet {
						k.alts = f.nondetValues(g.Sort)
						k.val.val = k.alts[0]
					}
				default:
					tm, good := f.compileTerm(cs.Value, e)
					if !good {
						return inst, false
					}
					k.val = tm
					if tm.cell == cBad {
						k.kind = cwBad
					}
				}
				w.cases = append(w.cases, k)
			}
			inst.writes = append(inst.writes, w)
		}
	}
	e.u = [maxArity]int32{}
	return inst, true
}

// compileTerm compiles a term under e; ok is false for a term the
// compilation does not handle.
func (f *wfinite) compileTerm(t Term, e *fenv) (cTerm, bool) {
	off := int64(0)
	if t.Kind != KNum && t.Off.Den == 1 {
		off = t.Off.Num
	}
	switch t.Kind {
	case KBool, KEnum:
		return cTerm{cConst, int64(t.Sym)}, true
	case KNum:
		if t.Off.Den != 1 {
			return cTerm{cBad, 0}, true
		}
		return cTerm{cConst, t.Off.Num}, true
	case KSlot:
		p := e.proc(t.Sym)
		if p < 1 || p > f.n {
			return cTerm{cBad, 0}, true
		}
		return cTerm{cConst, int64(p)}, true
	case KVar, KVal:
		// a weak read (KVal) reads memory: compiled transitions run on a
		// weak system's states only when every store buffer is empty,
		// where each process's view is memory (wexplore.go,
		// emptyBuffers)
		var args [maxArity]int32
		for i := 0; i < int(t.NArgs); i++ {
			args[i] = e.proc(t.Args[i])
		}
		c := f.cell(t.Sym, t.NArgs, args)
		if c < 0 {
			return cTerm{cBad, 0}, true
		}
		return cTerm{int32(c), off}, true
	}
	return cTerm{}, false
}

// compileDNF compiles a DNF under e; depth counts the enclosing
// quantifiers (the interpreter shares one quantified variable, so
// nested quantifiers are left to it).
func (f *wfinite) compileDNF(d []Conj, e *fenv, depth int) (cDNF, bool) {
	return compileDNFWith(f.compileTerm, f.n, d, e, depth)
}

// termCompiler compiles one term under an environment (false: the
// interpreter must take the instance).
type termCompiler func(t Term, e *fenv) (cTerm, bool)

// compileDNFWith compiles a DNF with the term compiler tc, for an
// instance of n processes: the exact samples' (compileTerm) or the
// abstract sample's (compileAbsTerm, whose untracked cells are unknown).
func compileDNFWith(tc termCompiler, n int32, d []Conj, e *fenv, depth int) (cDNF, bool) {
	out := make(cDNF, 0, len(d))
	for _, c := range d {
		cc, live, ok := compileConjWith(tc, n, c, e, depth)
		if !ok {
			return nil, false
		}
		if live {
			out = append(out, cc)
		}
	}
	return out, true
}

// compileConjWith compiles a conjunction; live is false when it never
// holds, and a literal over an unknown cell (the abstract sample's) makes
// it only maybe hold.
func compileConjWith(tc termCompiler, n int32, c Conj, e *fenv, depth int) (cc cConj, live, ok bool) {
	live = true
	for _, l := range c.Lits {
		a, ok1 := tc(l.L, e)
		b, ok2 := tc(l.R, e)
		if !ok1 || !ok2 {
			return cc, false, false
		}
		switch {
		case a.cell == cBad || b.cell == cBad:
			live = false
		case a.cell == cUnknown || b.cell == cUnknown:
			cc.maybe = true
		case a.cell == cConst && b.cell == cConst:
			if !evalInt(l.Op, a.val, b.val) {
				live = false
			}
		default:
			cc.lits = append(cc.lits, cLit{l.Op, a, b})
		}
	}
	if (len(c.Foralls) > 0 || len(c.Exists) > 0) && depth > 0 {
		return cc, false, false
	}
	saved := e.q
	defer func() { e.q = saved }()
	quant := func(d []Conj) ([]cDNF, bool) {
		var inst []cDNF
		for q := int32(1); q <= n; q++ {
			if containsProc(e.params, q) {
				continue
			}
			e.q = q
			cd, ok := compileDNFWith(tc, n, d, e, depth+1)
			if !ok {
				return nil, false
			}
			inst = append(inst, cd)
		}
		return inst, true
	}
	for _, d := range c.Foralls {
		inst, ok := quant(d)
		if !ok {
			return cc, false, false
		}
		cc.foralls = append(cc.foralls, inst)
	}
	for _, d := range c.Exists {
		inst, ok := quant(d)
		if !ok {
			return cc, false, false
		}
		cc.exists = append(cc.exists, inst)
	}
	return cc, live, true
}

// compiledSuccessors appends the successors of st by the compiled
// instances (see successors).
func (f *wfinite) compiledSuccessors(c *compiledSC, st []int64, out []successor) []successor {
	if c.index != nil {
		c.index.candidates(st, func(i int) {
			if in := &c.insts[i]; in.guard.holds(st) {
				out = f.compiledFire(in, st, out)
			}
		})
		return out
	}
	for i := range c.insts {
		in := &c.insts[i]
		if in.gate >= 0 && st[in.gate] != in.gateVal || !in.guard.holds(st) {
			continue
		}
		out = f.compiledFire(in, st, out)
	}
	return out
}

// compiledFire is fire for a compiled instance whose guard holds.
func (f *wfinite) compiledFire(in *cInst, st []int64, out []successor) []successor {
	// fireDirect writes cells as they are: not on a weak system's states
	// with empty buffers (emptyBuffers), whose writes apply buffers.
	if len(f.weak) == 0 {
		if s, ok := f.fireDirect(in, st); ok {
			if s != nil {
				out = append(out, successor{s, forwardStep{t: in.t, args: in.args}})
			}
			return out
		}
	}
	ws := f.ws[:0]
	for wi := range in.writes {
		w := &in.writes[wi]
		cs := w.branch(st)
		if cs == nil {
			continue
		}
		switch cs.kind {
		case cwSkip:
		case cwBad:
			if !f.lenient {
				f.ws = ws[:0]
				return out
			}
		case cwNondet:
			ws = append(ws, write{w.cell, cs.val.val, w.weak, cs.alts, false})
		default:
			ws = append(ws, write{w.cell, cs.val.eval(st), w.weak, nil, false})
		}
	}
	var open []int
	combos := 1
	for i, w := range ws {
		if len(w.alts) > 1 {
			if combos*len(w.alts) > maxSuccessors {
				break
			}
			combos *= len(w.alts)
			open = append(open, i)
		}
	}
	step := forwardStep{t: in.t, args: in.args}
	atomic := in.t.ReadsWeak && in.t.WritesWeak
	if len(open) == 0 {
		if s := f.apply(st, in.t, in.actor, atomic, ws); s != nil {
			out = append(out, successor{s, step})
		}
		f.ws = ws[:0]
		return out
	}
	idx := make([]int, len(open))
	for {
		for k, i := range open {
			ws[i].val = ws[i].alts[idx[k]]
		}
		if s := f.apply(st, in.t, in.actor, atomic, ws); s != nil {
			out = append(out, successor{s, step})
		}
		if !nextChoice(idx, func(k int) int { return len(ws[open[k]].alts) }) {
			f.ws = ws[:0]
			return out
		}
	}
}

// fireDirect is compiledFire for a step with one successor: its
// writes go straight into a copy of st, without the list of writes
// that apply takes (making that list was a seventh of the growth of
// FLASH's exact deep sample). It reports false, and compiledFire takes
// its general path, when a write takes one of several values (the
// step has several successors). The successor is the one apply makes:
// every value is read from st, the writes are made in the order of the
// list (a later write of a cell wins), and compiledFire calls it only
// on an explorer without weak cells, where apply writes each cell as it
// is; nil when a value names a process outside the instance and
// f is not lenient, or when an invariant formula excludes the state.
func (f *wfinite) fireDirect(in *cInst, st []int64) ([]int64, bool) {
	s := f.newState(st)
	for wi := range in.writes {
		w := &in.writes[wi]
		cs := w.branch(st)
		if cs == nil {
			continue
		}
		switch cs.kind {
		case cwSkip:
		case cwBad:
			if !f.lenient {
				return nil, true
			}
		case cwNondet:
			if len(cs.alts) > 1 {
				return nil, false
			}
			s[w.cell] = cs.val.val
		default:
			s[w.cell] = cs.val.eval(st)
		}
	}
	if in.actor > 0 && (in.t.ReadsWeak || in.t.Fence) {
		f.resetRanges(s, in.actor)
	}
	if f.excluded(s) {
		return nil, true
	}
	return s, true
}

// compiledRoot is an unsafe or invariant formula compiled for every
// tuple of distinct processes for its parameters, in the order in which
// rootTuple tries them (compileInsts': the first parameter turns
// slowest), so that the first tuple whose formula holds is the
// interpreter's. Every new state of an exact sample is tested against
// the unsafe formulas: interpreted, that was a twentieth of the growth
// of FLASH's exact samples.
type compiledRoot struct {
	tuples [][]int32
	dnfs   []cDNF
}

// compiledRoot returns r compiled for f, compiling it on first use, or
// nil when it cannot be compiled.
func (f *wfinite) compiledRoot(r *Root) *compiledRoot {
	if cr, ok := f.rootComp[r]; ok {
		return cr
	}
	if f.rootComp == nil {
		f.rootComp = map[*Root]*compiledRoot{}
	}
	cr := &compiledRoot{}
	t := &Trans{Params: make([]string, r.Params), Guard: r.DNF}
	_, ok := compileInsts([]*Trans{t}, f.n, func(t *Trans, params []int32) (cInst, bool) {
		d, ok := f.compileDNF(r.DNF, &fenv{params: params}, 0)
		if ok {
			cr.tuples = append(cr.tuples, slices.Clone(params))
			cr.dnfs = append(cr.dnfs, d)
		}
		return cInst{}, ok
	})
	if !ok {
		cr = nil
	}
	f.rootComp[r] = cr
	return cr
}

// tuple is rootTuple for a compiled formula: the tuple, in f's buffer,
// or nil.
func (cr *compiledRoot) tuple(st []int64, f *wfinite) []int32 {
	for i := range cr.dnfs {
		if cr.dnfs[i].holds(st) {
			if cap(f.rootBuf) < len(cr.tuples[i]) || f.rootBuf == nil {
				f.rootBuf = make([]int32, 0, max(len(cr.tuples[i]), 1))
			}
			// (never nil, even for a formula without parameters: nil
			// says that the formula does not hold)
			return append(f.rootBuf[:0], cr.tuples[i]...)
		}
	}
	return nil
}

// The abstract mode of the samples (absexplore.go) is compiled the same
// way, with its three-valued literals: a cell the abstract exploration
// does not track is the constant unknown (cUnknown), a tracked cell
// may hold unknown, and a literal with an unknown side may hold.

// cUnknown marks a compiled term whose value is unknown.
const cUnknown int32 = -3

// tri evaluates a compiled literal in an abstract state.
func (l *cLit) tri(st []int64) tri {
	a, b := l.l.absEval(st), l.r.absEval(st)
	if a == unknown || b == unknown {
		return triMaybe
	}
	if evalInt(l.op, a, b) {
		return triTrue
	}
	return triFalse
}

func (t cTerm) absEval(st []int64) int64 {
	switch {
	case t.cell >= 0:
		return st[t.cell]
	case t.cell == cUnknown:
		return unknown
	}
	return t.val
}

func (d cDNF) tri(st []int64) tri {
	r := triFalse
	for i := range d {
		if r = triOr(r, d[i].tri(st)); r == triTrue {
			return r
		}
	}
	return r
}

// tri evaluates a compiled conjunction of the abstract mode (maybe: a
// literal of it is always maybe).
func (c *cConj) tri(st []int64) tri {
	r := triTrue
	if c.maybe {
		r = triMaybe
	}
	for i := range c.lits {
		if r = triAnd(r, c.lits[i].tri(st)); r == triFalse {
			return r
		}
	}
	for _, qs := range c.foralls {
		for _, d := range qs {
			if r = triAnd(r, d.tri(st)); r == triFalse {
				return r
			}
		}
	}
	for _, qs := range c.exists {
		found := triFalse
		for _, d := range qs {
			if found = triOr(found, d.tri(st)); found == triTrue {
				break
			}
		}
		if r = triAnd(r, found); r == triFalse {
			return r
		}
	}
	return r
}

// compiledAbs is the compiled abstract instance: like compiledSC, with
// the writes of the tracked cells only.
type compiledAbs struct {
	insts []cInst
	index *guardIndex // guardindex.go; nil: every guard is evaluated
}

// compileAbs compiles the transitions of the abstract sampler x, or
// returns nil.
func compileAbs(x *sampler) *compiledAbs {
	f := x.fin
	insts, ok := compileInsts(f.sys.Trans, f.n, func(t *Trans, params []int32) (cInst, bool) {
		return compileAbsInst(f, t, params)
	})
	if !ok {
		return nil
	}
	return &compiledAbs{insts: insts, index: newGuardIndex(insts)}
}

func compileAbsInst(f *finite, t *Trans, params []int32) (cInst, bool) {
	args := append([]int32(nil), params...)
	e := &fenv{params: args}
	inst := cInst{t: t, args: args}
	var ok bool
	if inst.guard, ok = compileAbsDNF(f, t.Guard, e, 0); !ok {
		return inst, false
	}
	for _, u := range t.Updates {
		g := f.sys.Globals[u.Global]
		if !tracked(g.Sort) {
			continue
		}
		for _, up := range univTuples(procSlice(f.n), u.NUniv) {
			copy(e.u[:], up)
			var cargs [maxArity]int32
			for i := 0; i < u.NArgs; i++ {
				cargs[i] = e.proc(u.Args[i])
			}
			cell := f.cell(u.Global, int32(u.NArgs), cargs)
			if cell < 0 {
				continue
			}
			w := cWrite{cell: cell}
			for _, cs := range u.Cases {
				var k cCase
				if cs.Cond != nil {
					k.hasCond = true
					if k.cond, ok = compileAbsDNF(f, cs.Cond, e, 0); !ok {
						return inst, false
					}
				}
				switch {
				case cs.Skip:
					k.kind = cwSkip
				case cs.Nondet:
					k.kind = cwNondet
				default:
					k.val = compileAbsTerm(f, cs.Value, e)
					if k.val.cell == cBad {
						k.val = cTerm{cUnknown, 0}
					}
				}
				w.cases = append(w.cases, k)
			}
			inst.writes = append(inst.writes, w)
		}
	}
	return inst, true
}

// compileAbsTerm compiles a term as absValue evaluates it.
func compileAbsTerm(f *finite, t Term, e *fenv) cTerm {
	switch t.Kind {
	case KBool, KEnum:
		return cTerm{cConst, int64(t.Sym)}
	case KSlot:
		p := e.proc(t.Sym)
		if p < 1 || p > f.n {
			return cTerm{cBad, 0}
		}
		return cTerm{cConst, int64(p)}
	case KVar:
		if !tracked(t.Sort) || t.Off.Num != 0 {
			return cTerm{cUnknown, 0}
		}
		var args [maxArity]int32
		for i := 0; i < int(t.NArgs); i++ {
			args[i] = e.proc(t.Args[i])
		}
		c := f.cell(t.Sym, t.NArgs, args)
		if c < 0 {
			return cTerm{cBad, 0}
		}
		return cTerm{int32(c), 0}
	}
	return cTerm{cUnknown, 0}
}

func compileAbsDNF(f *finite, d []Conj, e *fenv, depth int) (cDNF, bool) {
	tc := func(t Term, e *fenv) (cTerm, bool) { return compileAbsTerm(f, t, e), true }
	return compileDNFWith(tc, f.n, d, e, depth)
}

// absAssignIdx is a tracked cell a compiled abstract step writes, with
// its possible values (vals[lo:hi] of the sampler's buffer).
type absAssignIdx struct {
	cell   int
	lo, hi int
}

// compiledAbsSuccessors appends the abstract successors of st by the
// compiled instances, the states carved from x.scr (see absSuccessors,
// whose successors and order they are; st itself is left out).
func (x *sampler) compiledAbsSuccessors(c *compiledAbs, st []int64, out []successor) []successor {
	if c.index != nil {
		c.index.candidates(st, func(i int) {
			if in := &c.insts[i]; in.guard.tri(st) != triFalse {
				out = x.compiledAbsFire(in, st, out)
			}
		})
		return out
	}
	for i := range c.insts {
		in := &c.insts[i]
		// (the gate's cell is unknown: the literal may hold)
		if in.gate >= 0 && st[in.gate] != in.gateVal && st[in.gate] != unknown || in.guard.tri(st) == triFalse {
			continue
		}
		out = x.compiledAbsFire(in, st, out)
	}
	return out
}

func (x *sampler) compiledAbsFire(in *cInst, st []int64, out []successor) []successor {
	if s, ok := x.absFireDirect(in, st); ok {
		if s != nil {
			out = append(out, successor{s, forwardStep{t: in.t, args: in.args}})
		}
		return out
	}
	vals := x.absVals[:0]
	as := x.absAs[:0]
	combos := 1
	for wi := range in.writes {
		w := &in.writes[wi]
		lo := len(vals)
		add := func(v int64) {
			for _, u := range vals[lo:] {
				if u == v {
					return
				}
			}
			vals = append(vals, v)
		}
		for ci := range w.cases {
			cs := &w.cases[ci]
			cond := triTrue
			if cs.hasCond {
				cond = cs.cond.tri(st)
			}
			if cond == triFalse {
				continue
			}
			switch cs.kind {
			case cwSkip:
				add(st[w.cell])
			case cwNondet:
				add(unknown)
			default:
				add(cs.val.absEval(st))
			}
			if cond == triTrue {
				break
			}
		}
		if len(vals) == lo {
			continue
		}
		for _, v := range vals[lo:] {
			if v == unknown {
				vals = append(vals[:lo], unknown)
				break
			}
		}
		if k := len(vals) - lo; k > 1 {
			if combos*k > maxSuccessors {
				vals = append(vals[:lo], unknown)
			} else {
				combos *= k
			}
		}
		as = append(as, absAssignIdx{w.cell, lo, len(vals)})
	}
	x.absVals, x.absAs = vals, as
	step := forwardStep{t: in.t, args: in.args}
	idx := x.absIdx[:0]
	for range as {
		idx = append(idx, 0)
	}
	x.absIdx = idx
	for {
		if !sameCells(st, as, func(i int) int64 { return vals[as[i].lo+idx[i]] }) {
			s := x.scratchState(st)
			for i, a := range as {
				s[a.cell] = vals[a.lo+idx[i]]
			}
			out = append(out, successor{s, step})
		}
		i := 0
		for i < len(idx) {
			idx[i]++
			if idx[i] < as[i].hi-as[i].lo {
				break
			}
			idx[i] = 0
			i++
		}
		if i == len(idx) {
			break
		}
	}
	return out
}

// absFireDirect is compiledAbsFire for a step whose every write takes
// one value: the first case whose condition is not false holds for
// sure (triTrue), so it is the only one the general path lists. Its
// writes go straight into a copy of st (a seventh of the growth of
// challenges_flash2's abstract deep sample was making the lists of
// values). It reports false, leaving the copy to the scratch buffer
// that grow empties, when a write may take several values (a condition
// that only maybe holds); the successor is nil when no write changes a
// cell, as the general path leaves such a state out (sameCells).
func (x *sampler) absFireDirect(in *cInst, st []int64) ([]int64, bool) {
	s := x.scratchState(st)
	changed := false
	for wi := range in.writes {
		w := &in.writes[wi]
		for ci := range w.cases {
			cs := &w.cases[ci]
			cond := triTrue
			if cs.hasCond {
				cond = cs.cond.tri(st)
			}
			if cond == triFalse {
				continue
			}
			if cond == triMaybe {
				return nil, false
			}
			var v int64
			switch cs.kind {
			case cwSkip:
				v = st[w.cell]
			case cwNondet:
				v = unknown
			default:
				v = cs.val.absEval(st)
			}
			s[w.cell] = v
			changed = changed || v != st[w.cell]
			break
		}
	}
	if !changed {
		return nil, true
	}
	return s, true
}

// sameCells reports whether the assignment of the cells of as, the k-th
// to val(k), leaves st as it is. The abstract successors leave such a
// state out: it is st, which the sample already holds (grow expands the
// states it stored), so that adding it would only find it there; a fifth
// of a FLASH sample's successors are such.
func sameCells[A interface{ at() int }](st []int64, as []A, val func(k int) int64) bool {
	for k, a := range as {
		if st[a.at()] != val(k) {
			return false
		}
	}
	return true
}

func (a absAssignIdx) at() int { return a.cell }
func (a absAssign) at() int    { return a.cell }

// scratchState returns a copy of st carved from x.scr, which grow
// empties before each expansion (add copies the states it keeps).
func (x *sampler) scratchState(st []int64) []int64 {
	n := len(st)
	if cap(x.scr)-len(x.scr) < n {
		x.scr = make([]int64, 0, max(2*cap(x.scr), 64*n))
	}
	k := len(x.scr)
	x.scr = x.scr[:k+n]
	s := x.scr[k : k+n : k+n]
	copy(s, st)
	return s
}
