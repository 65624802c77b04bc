package param

import (
	"slices"
)

// instEnv maps the placeholders of a template to the slots and node of
// one transition instance.
type instEnv struct {
	args []int32         // slot of each parameter
	q    int32           // slot of the quantified variable
	u    [maxArity]int32 // slots of the universal indices of an update
	node int32           // id of the new node
}

func (env *instEnv) slot(s int32) int32 {
	switch {
	case s >= 0:
		return s
	case s == qvarSlot:
		return env.q
	}
	if k, ok := uvarIndex(s); ok {
		return env.u[k]
	}
	return env.args[-s-1]
}

func (env *instEnv) term(t Term) Term {
	switch t.Kind {
	case KLin:
		r, _ := mapAtoms(t, func(a Term) (Term, bool) { return env.term(a), true })
		return r
	case KSlot:
		t.Sym = env.slot(t.Sym)
	case KVar, KVal, KInit:
		for i := 0; i < int(t.NArgs); i++ {
			t.Args[i] = env.slot(t.Args[i])
		}
		if t.Kind == KVal {
			t.Proc = env.slot(t.Proc)
			if t.Node == newNode {
				t.Node = env.node
			}
		}
	}
	return t
}

func (env *instEnv) lit(l Lit) (Lit, litResult) {
	return mkLit(l.Op, env.term(l.L), env.term(l.R))
}

// dnf is a formula in disjunctive normal form: no conjunction is false,
// and a conjunction with no literal is true.
type dnf [][]Lit

var dnfTrue = dnf{{}}

func (d dnf) isTrue() bool {
	for _, c := range d {
		if len(c) == 0 {
			return true
		}
	}
	return false
}

// instDNF instantiates the literals of a template DNF (quantifiers and
// fences are not allowed there).
func (env *instEnv) dnf(ts []Conj) dnf {
	var out dnf
next:
	for _, cj := range ts {
		var lits []Lit
		for _, l := range cj.Lits {
			nl, r := env.lit(l)
			switch r {
			case litFalse:
				continue next
			case litOpen:
				lits = append(lits, nl)
			}
		}
		if len(lits) == 0 {
			return dnfTrue
		}
		out = append(out, lits)
	}
	return out
}

func product(a, b dnf) dnf {
	var out dnf
	for _, x := range a {
		for _, y := range b {
			z := make([]Lit, 0, len(x)+len(y))
			out = append(out, append(append(z, x...), y...))
		}
	}
	return out
}

// negate is the DNF of the negation of d.
func negate(d dnf) dnf {
	if d.isTrue() {
		return nil
	}
	out := dnfTrue
	for _, c := range d {
		var alt dnf
		for _, l := range c {
			nl, r := negLit(l)
			switch r {
			case litTrue:
				alt = dnfTrue
			case litOpen:
				alt = append(alt, []Lit{nl})
			}
			if r == litTrue {
				break
			}
		}
		out = product(out, alt)
		if len(out) == 0 {
			return nil
		}
	}
	return out
}

// valAlt is one possible value of an update: when lits hold, the new
// value is val (any value if nondet; no write at all if skip).
type valAlt struct {
	lits   []Lit
	val    Term
	nondet bool
	skip   bool
}

// caseAlts lists the alternatives of a case expression.
func caseAlts(cases []Case, env *instEnv) []valAlt {
	if len(cases) > 0 && cases[0].Cond == nil {
		// an assignment: one alternative, without literals (the loop
		// below gives the same, through two products)
		cs := cases[0]
		return []valAlt{{val: env.term(cs.Value), nondet: cs.Nondet, skip: cs.Skip}}
	}
	var out []valAlt
	prev := dnfTrue // all previous conditions are false
	for _, cs := range cases {
		cond := dnfTrue
		if cs.Cond != nil {
			cond = env.dnf(cs.Cond)
		}
		val := env.term(cs.Value)
		for _, c := range product(prev, cond) {
			out = append(out, valAlt{lits: c, val: val, nondet: cs.Nondet, skip: cs.Skip})
		}
		prev = product(prev, negate(cond))
		if len(prev) == 0 {
			break
		}
	}
	return out
}

// guardAlt is one disjunct of an instantiated guard.
type guardAlt struct {
	lits  []Lit
	fence bool
	extra []int32 // fresh slots introduced by exists_other
}

// guardAlts instantiates one disjunct of a guard; universal quantifiers
// range over the other slots of the cube (the approximation of MCMT).
// An alternative with two literals that contradict each other, or one
// of keep (literals that the pre-image keeps as they are), is left out:
// its cube would be empty. (A forall_other over many processes
// multiplies the alternatives; most of them are such.)
func guardAlts(g Conj, env *instEnv, slots []int32, fresh int32, stop func() bool, keep []Lit) []guardAlt {
	base, ok := instGuardLits(g, env)
	if !ok {
		return nil
	}
	return guardAltsFrom(g, base, env, slots, fresh, stop, keep)
}

// instGuardLits instantiates the literals of g (without its
// quantifiers); false when one of them is false.
func instGuardLits(g Conj, env *instEnv) ([]Lit, bool) {
	base := make([]Lit, 0, len(g.Lits))
	for _, l := range g.Lits {
		nl, r := env.lit(l)
		switch r {
		case litFalse:
			return nil, false
		case litOpen:
			base = append(base, nl)
		}
	}
	return base, true
}

// guardAltsFrom is guardAlts with g's literals instantiated already
// (base, which it does not modify).
func guardAltsFrom(g Conj, base []Lit, env *instEnv, slots []int32, fresh int32, stop func() bool, keep []Lit) []guardAlt {
	if conflicting(base, keep) {
		return nil
	}
	alts := []guardAlt{{lits: base, fence: g.Fence}}
	others := make([]int32, 0, len(slots))
	for _, s := range slots {
		if !slices.Contains(env.args, s) {
			others = append(others, s)
		}
	}
	addDNF := func(d dnf, extra int32) []guardAlt {
		var out []guardAlt
		for _, a := range alts {
			if stop() {
				return nil // the caller sees the deadline
			}
			for _, c := range d {
				if conflicting(c, a.lits) || conflicting(c, keep) {
					continue // an empty cube
				}
				na := guardAlt{lits: append(slices.Clip(a.lits), c...), fence: a.fence, extra: a.extra}
				if extra != 0 {
					na.extra = append(slices.Clip(a.extra), extra)
				}
				out = append(out, na)
			}
		}
		return out
	}
	for _, f := range g.Foralls {
		for _, s := range others {
			env.q = s
			d := env.dnf(f)
			if d.isTrue() {
				continue
			}
			alts = addDNF(d, 0) // a forall_other over many processes multiplies the alternatives
			if len(alts) == 0 {
				return nil
			}
		}
	}
	for _, x := range g.Exists {
		var out []guardAlt
		for _, s := range others {
			env.q = s
			out = append(out, addDNF(env.dnf(x), 0)...)
		}
		env.q = fresh
		out = append(out, addDNF(env.dnf(x), fresh)...)
		fresh++
		alts = out
	}
	return alts
}

// collectReads adds to reads the weak reads of node in t.
func collectReads(reads []Access, t Term, node int32) []Access {
	if t.Kind == KLin {
		for _, a := range linAtoms(t) {
			reads = collectReads(reads, a, node)
		}
		return reads
	}
	if t.Kind != KVal || t.Node != node {
		return reads
	}
	a := Access{Proc: t.Proc, Sym: t.Sym, NArgs: t.NArgs, Args: t.Args}
	for _, r := range reads {
		if r == a {
			return reads
		}
	}
	return append(reads, a)
}

// atomUpdate finds how t updates the atom a: the alternatives of its new
// value, or nil if a is not updated.
func atomUpdate(t *Trans, a Term, env *instEnv, cache map[altKey][]valAlt) []valAlt {
	for ui, u := range t.Updates {
		if u.Global != a.Sym || a.Kind != KVar {
			continue
		}
		match := true
		env.u = [maxArity]int32{}
		for i := 0; i < u.NArgs; i++ {
			if k, ok := uvarIndex(u.Args[i]); ok && env.u[k] == 0 {
				env.u[k] = a.Args[i]
			} else if env.slot(u.Args[i]) != a.Args[i] {
				match = false
			}
		}
		if match {
			k, ok := newAltKey(t, ui, env)
			if cache == nil || !ok {
				return caseAlts(u.Cases, env)
			}
			alts, ok := cache[k]
			if !ok {
				alts = caseAlts(u.Cases, env)
				cache[k] = alts
			}
			return alts
		}
	}
	return nil
}

// altKey identifies the alternatives of an update of a transition
// instance: caseAlts reads the transition's update, and the instance's
// slots through env (its parameters, the update's universal indices and
// the quantified slot; the id of the new node only in the terms of weak
// reads, which systems without weak memory have none of). They are the
// same for every cube, and a search asks for them again for each cube
// the transition meets (4-5 % of the FLASH files' CPU). The cached
// alternatives are shared, and read only: preImage appends their
// literals to its own lists and copies the alternatives by value.
// The update's index and the slots are packed in 6-bit fields (a
// small key hashes faster: the look-up is made for every atom of every
// cube that a transition instance updates); an instance with more
// parameters or larger slots is not kept.
type altKey struct {
	t    *Trans
	inst uint64
}

func newAltKey(t *Trans, update int, env *instEnv) (altKey, bool) {
	const bits, limit = 6, 1 << 6
	if update >= limit || len(env.args) > 4 {
		return altKey{}, false
	}
	k := uint64(update)<<bits | uint64(len(env.args))
	for _, s := range [...][]int32{env.args, env.u[:], {env.q}} {
		for _, x := range s {
			if x < 0 || x >= limit {
				return altKey{}, false
			}
			k = k<<bits | uint64(x)
		}
	}
	return altKey{t: t, inst: k}, true
}

// substitution maps atoms of the cube after the transition to terms
// before it (nondet: any value).
type substitution map[Term]valAlt

// nondetIn reports whether an atom of t is assigned at random.
func (s substitution) nondetIn(t Term) bool {
	for _, a := range linAtoms(t) {
		if v, ok := s[a]; ok && v.nondet {
			return true
		}
	}
	return false
}

func (s substitution) term(t Term) (Term, bool) {
	if t.Kind == KLin {
		return mapAtoms(t, s.term)
	}
	if !t.isAtom() {
		return t, true
	}
	v, ok := s[t.base()]
	if !ok {
		return t, true
	}
	if v.nondet {
		return Term{}, false
	}
	r := v.val
	if r.Kind == KNum {
		r.Off = r.Off.add(t.Off)
	} else if !t.Off.isZero() {
		r.Off = r.Off.add(t.Off)
	}
	return r, true
}

// preImages computes the pre-images of c by every instance of every
// transition.
func (e *engine) preImages(c *Cube) []*Cube {
	var out []*Cube
	e.grKeep.c, e.grKeep.on = nil, true // (c may reuse the memory of an earlier cube)
	defer func() { e.grKeep.c, e.grKeep.on = nil, false }()
	maxSlot := e.sys.Pinned
	for _, s := range c.Slots {
		maxSlot = max(maxSlot, s)
	}
	for _, t := range e.sys.Trans {
		args := make([]int32, len(t.Params))
		var rec func(k int, fresh int32)
		rec = func(k int, fresh int32) {
			if e.stopped() {
				return // the caller sees the deadline
			}
			if k == len(args) {
				out = e.preImage(c, t, slices.Clone(args), fresh, out)
				return
			}
			for _, s := range c.Slots {
				if !slices.Contains(args[:k], s) {
					args[k] = s
					rec(k+1, fresh)
				}
			}
			// a pinned process not yet in the cube
			for s := int32(1); s <= e.sys.Pinned; s++ {
				if !c.hasSlot(s) && !slices.Contains(args[:k], s) {
					args[k] = s
					rec(k+1, fresh)
				}
			}
			if n := e.sys.NumberProcs; n > 0 && int(fresh-maxSlot)+c.procs(e.sys.Pinned) > n {
				return // number_procs n: no room for another process
			}
			args[k] = fresh
			rec(k+1, fresh+1)
		}
		rec(0, maxSlot+1)
	}
	return out
}

// preImage computes the pre-image of c by transition t with parameters
// args, appending the resulting cubes to out.
func (e *engine) preImage(c *Cube, t *Trans, args []int32, fresh int32, out []*Cube) []*Cube {
	maxID := int32(0)
	for _, n := range c.Nodes {
		maxID = max(maxID, n.ID)
	}
	env := &instEnv{args: args, node: maxID + 1}
	actor := int32(0)
	if t.Actor >= 0 {
		actor = args[t.Actor]
	}
	if e.guardRefuted(c, t, env) {
		return out
	}
	// (preImage does not call itself: its buffers are free again when
	// it returns)
	if e.alts == nil && !e.sys.Weak && !e.noPreFilter {
		e.alts = map[altKey][]valAlt{}
	}
	atoms, seen := updatedAtoms(c, t, env, e.atomsBuf[:0], e.seenBuf[:0], e.alts)
	e.atomsBuf, e.seenBuf = atoms[:0], seen[:0]
	slots := preSlots(c, args)
	node, writes := e.weakWrites(t, env, slots, actor)
	rffr := rffrNodes(c, node, actor)
	if len(atoms) == 0 && len(rffr) == 0 {
		// the pre-image is included in c
		return out
	}
	// (weak reads are KVal terms, which only weak variables make)
	var valueReads []Access
	if e.sys.Weak {
		valueReads = updateReads(t, env, slots)
	}

	// the literals of c that the transition leaves as they are (a plain
	// cube: no events): an alternative that contradicts one of them, or
	// the guard, or an alternative chosen for another atom, gives an
	// empty cube, and the combinations that extend it are not built
	// (keep is the engine's buffer: only conflict tests read it, and
	// preImage does not call itself)
	keep := e.keepBuf[:0]
	if len(c.Nodes) == 0 && len(writes) == 0 {
		for i := range c.Lits {
			if !mentionsAtom(&c.Lits[i], atoms) {
				keep = append(keep, c.Lits[i])
			}
		}
	}
	e.keepBuf = keep[:0]
	nAtoms, nWrites := len(atoms), len(writes)
	lim := func(k int) int {
		if k < nAtoms {
			return len(atoms[k].alts)
		}
		return len(writes[k-nAtoms].alts)
	}
	altLits := func(k, i int) []Lit {
		if k < nAtoms {
			return atoms[k].alts[i].lits
		}
		return writes[k-nAtoms].alts[i].lits
	}
	bases := e.instGuard(t, env)
	for gi, g := range t.Guard {
		if !bases[gi].ok {
			continue // (guardAlts: a literal of the guard is false)
		}
		for _, ga := range guardAltsFrom(g, bases[gi].lits, env, slots, fresh+int32(len(args)), e.stopped, keep) {
			// enumerate the choices of update values, in the order of a
			// counter whose first digit turns fastest
			choice := make([]int, nAtoms+nWrites)
			// conflicts reports whether add contradicts keep, the guard
			// or the alternatives chosen for the digits above k (the
			// literals they would add up to; testing the parts one after
			// the other gives the same answer without building them)
			conflicts := func(add []Lit, k int) bool {
				if conflicting(add, keep) || conflicting(add, ga.lits) {
					return true
				}
				for j := k + 1; j < len(choice); j++ {
					if conflicting(add, altLits(j, choice[j])) {
						return true
					}
				}
				return false
			}
			var rec func(k int) bool
			rec = func(k int) bool {
				if e.stopped() {
					return false // the caller sees the deadline
				}
				if k < 0 {
					out = e.preImageChoice(c, t, args, actor, ga, node, valueReads, atoms, writes, rffr, choice, slots, out)
					return true
				}
				for i := range lim(k) {
					add := altLits(k, i)
					if conflicts(add, k) {
						continue
					}
					choice[k] = i
					if !rec(k - 1) {
						return false
					}
				}
				choice[k] = 0
				return true
			}
			if !rec(len(choice) - 1) {
				return out
			}
		}
	}
	return out
}

// guardRefuted reports that every disjunct of t's guard, instantiated by
// env, is false or contradicts a literal of c that t leaves as it is:
// then preImage makes no cube, and it need not compute the alternatives
// of the updated atoms first (most instances of FLASH's transitions end
// so, and those alternatives were a quarter of the pre-image's time).
//
// It is exactly preImage's own test, done earlier with fewer kept
// literals: guardAlts drops a disjunct whose instantiated literals hold a
// false one or conflict with keep, the literals of c that mention no
// updated atom (computed when c has no events and t no weak write, as
// here). Literals that mention no atom of an array or variable t
// updates at all are among them, and conflicting is monotone in its
// second list, so a disjunct dropped here is dropped there too.
func (e *engine) guardRefuted(c *Cube, t *Trans, env *instEnv) bool {
	if len(c.Nodes) > 0 || t.WritesWeak || e.noPreFilter {
		return false
	}
	for _, u := range t.Updates {
		if e.sys.Globals[u.Global].Weak {
			return false
		}
	}
	// keep: the literals of c over no variable t updates. They depend
	// on c and t only, not on the instance: preImages meets every
	// instance of t in a row, and making them again for each was half
	// of this test's cost on ref_count (grKeep keeps them for the last
	// (c, t) while preImages runs, which does not change c; the other
	// callers of preImage make them each time)
	gr := &e.grKeep
	if !gr.on || gr.c != c || gr.t != t {
		updated := func(b Term) bool { return b.Kind == KVar && t.updates(b.Sym) }
		gr.c, gr.t, gr.lits = c, t, gr.lits[:0]
		for i := range c.Lits {
			l := &c.Lits[i]
			if !anyAtom(&l.L, updated) && !anyAtom(&l.R, updated) {
				gr.lits = append(gr.lits, *l)
			}
		}
		if !gr.on {
			gr.c = nil
		}
	}
	keep := gr.lits
	if len(keep) == len(c.Lits) {
		// t updates no atom of c (and c has no events to read from
		// t's writes): preImage returns at once too ("the pre-image is
		// included in c"), before it looks at the guard
		return true
	}
	if len(keep) == 0 {
		return len(t.Guard) == 0
	}
	for _, b := range e.instGuard(t, env) {
		if b.ok && !conflicting(b.lits, keep) {
			return false
		}
	}
	return true
}

// guardKeep is guardRefuted's list of the literals of cube c over no
// variable that t updates.
type guardKeep struct {
	c    *Cube
	t    *Trans
	lits []Lit
	on   bool // preImages runs: lits serve every instance of t
}

// guardInst is a disjunct of a guard with its literals instantiated
// (instGuardLits; ok false: one of them is false).
type guardInst struct {
	lits []Lit
	ok   bool
}

// transInstKey names an instance of a transition: its parameters' slots.
type transInstKey struct {
	t    *Trans
	args [4]int32
}

// instGuard instantiates the literals of each disjunct of t's guard by
// env's parameters. Without weak reads they depend on the parameters
// only, and the search meets the same few instances for every cube:
// they are kept in e.guards (read only: guardAltsFrom and the conflict
// tests copy what they extend).
func (e *engine) instGuard(t *Trans, env *instEnv) []guardInst {
	cache := !e.sys.Weak && !t.ReadsWeak && len(env.args) <= len(transInstKey{}.args) && !e.noPreFilter
	var k transInstKey
	if cache {
		k.t = t
		copy(k.args[:], env.args)
		if g, ok := e.guards[k]; ok {
			return g
		}
	}
	out := make([]guardInst, len(t.Guard))
	for i, g := range t.Guard {
		out[i].lits, out[i].ok = instGuardLits(g, env)
	}
	if cache {
		if e.guards == nil {
			e.guards = map[transInstKey][]guardInst{}
		}
		e.guards[k] = out
	}
	return out
}

// preImageChoice builds the cubes of one choice of update values.
func (e *engine) preImageChoice(c *Cube, t *Trans, args []int32, actor int32, ga guardAlt, node *Node,
	valueReads []Access, atoms []atomAlts, writes []weakWrite, rffr []rffrChoice, choice []int, slots []int32, out []*Cube) []*Cube {
	nAtoms, nWrites := len(atoms), len(writes)
	// sub and lits are the engine's, reused: finish and build read them
	// and copy what they keep (build copies sub before it adds to it,
	// and lits into the cube), and preImageChoice does not call itself
	if e.choiceSub == nil {
		e.choiceSub = make(substitution, len(atoms)+4)
	}
	sub := e.choiceSub
	clear(sub)
	lits := append(e.choiceBuf[:0], ga.lits...)
	for i, a := range atoms {
		v := a.alts[choice[i]]
		sub[a.atom] = v
		lits = append(lits, v.lits...)
	}
	wvals := make([]valAlt, nWrites)
	skips := false
	for i, w := range writes {
		wvals[i] = w.alts[choice[nAtoms+i]]
		lits = append(lits, wvals[i].lits...)
		skips = skips || wvals[i].skip
	}
	e.choiceBuf = lits[:0]
	if skips {
		// some cells are not written: a node without those writes
		n2, ws2 := withoutSkipped(node, writes2(writes, wvals))
		return e.finishNondet(c, t, args, actor, ga, n2, valueReads, ws2, rffrNodes(c, n2, actor), sub, lits, slots, out)
	}
	return e.finishNondet(c, t, args, actor, ga, node, valueReads, writes2(writes, wvals), rffr, sub, lits, slots, out)
}

// finishNondet is finish, with one pre-image for each value of an atom
// that the transition assigns any value, of a finite sort (bool, an
// enumeration), that a literal of c relates with another unknown and
// that no equality of c fixes (nondetWitnesses): "exists v. rest(v)" is
// the disjunction of rest(d) over the values d. Dropping the literals
// on the atom (what build does with the others) lost the relation:
// with X := . over {A, B} and V = A, W = B never written, the cube
// "X <> V && X <> W" became true, a wrong UNSAFE where Cubicle, whose
// pre-image keeps the literals on a fresh constant, answers SAFE.
func (e *engine) finishNondet(c *Cube, t *Trans, args []int32, actor int32, ga guardAlt, proto *Node,
	valueReads []Access, writes []writeVal, rffr []rffrChoice, sub substitution, lits []Lit,
	slots []int32, out []*Cube) []*Cube {
	sub = nondetWitnesses(sub, c.Lits)
	finite := func(b Term) bool {
		v, ok := sub[b]
		return ok && v.nondet && (b.Sort.Kind == SBool || b.Sort.Kind == SEnum && len(e.sys.Enums[b.Sort.Enum].Ctors) > 0)
	}
	// the first such atom in the order of the literals (deterministic)
	var a Term
	found := false
	for i := range c.Lits {
		l := &c.Lits[i]
		pick := func(b Term) bool {
			if finite(b) {
				a, found = b, true
			}
			return found
		}
		if (!l.R.isConst() && anyAtom(&l.L, pick)) || (!l.L.isConst() && anyAtom(&l.R, pick)) {
			break
		}
	}
	if found {
		n := 2
		if a.Sort.Kind == SEnum {
			n = len(e.sys.Enums[a.Sort.Enum].Ctors)
		}
		for k := range n {
			d := boolTerm(k == 1)
			if a.Sort.Kind == SEnum {
				d = Term{Kind: KEnum, Sort: a.Sort, Sym: int32(k), Off: Rat{0, 1}}
			}
			s2 := maps2(sub)
			s2[a] = valAlt{val: d}
			out = e.finishNondet(c, t, args, actor, ga, proto, valueReads, writes, rffr, s2, lits, slots, out)
		}
		return out
	}
	return e.finish(c, t, args, actor, ga, proto, valueReads, writes, rffr, sub, lits, slots, out)
}

// mentionsAtom reports whether l mentions one of the updated atoms.
func mentionsAtom(l *Lit, atoms []atomAlts) bool {
	in := func(b Term) bool {
		for i := range atoms {
			if atoms[i].atom == b {
				return true
			}
		}
		return false
	}
	return anyAtom(&l.L, in) || anyAtom(&l.R, in)
}

// anyAtom reports whether f holds for one of the atoms of t, in the
// order of linAtoms (which makes a list of them).
func anyAtom(t *Term, f func(Term) bool) bool {
	switch {
	case t.Kind == KLin:
		for _, p := range linSum(*t) {
			if f(p.Atom) {
				return true
			}
		}
	case t.isAtom():
		return f(t.base())
	}
	return false
}

// conflicting reports whether a literal of add contradicts one of acc
// syntactically: x = v and x <> v, or x = v and x = w for distinct
// constants or slots (the slots of a cube are distinct processes).
func conflicting(add, acc []Lit) bool {
	for _, a := range add {
		for _, b := range acc {
			if litsConflict(a, b) {
				return true
			}
		}
	}
	return false
}

func litsConflict(a, b Lit) bool {
	same := a.L == b.L && a.R == b.R || a.L == b.R && a.R == b.L
	if same && (a.Op == Eq && b.Op == Ne || a.Op == Ne && b.Op == Eq) {
		return true
	}
	if a.Op != Eq || b.Op != Eq {
		return false
	}
	distinct := func(x, y Term) bool {
		switch {
		case x.Kind == KSlot && y.Kind == KSlot:
			return x.Sym != y.Sym && x.Off.isZero() && y.Off.isZero()
		case (x.Kind == KBool || x.Kind == KEnum) && x.Kind == y.Kind:
			return x.Sym != y.Sym && x.Off.isZero() && y.Off.isZero()
		case x.Kind == KNum && y.Kind == KNum:
			return x.Off.cmp(y.Off) != 0
		}
		return false
	}
	return a.L == b.L && distinct(a.R, b.R) || a.R == b.R && distinct(a.L, b.L)
}

// atomAlts is an atom of a cube that a transition updates, with the
// alternatives of its value before the transition.
type atomAlts struct {
	atom Term
	alts []valAlt
}

// updatedAtoms appends to atoms the atoms of c that t updates; seen is
// a buffer (both are the engine's, reused: a pre-image is computed for
// every instance of every transition, and growing them was a tenth of
// the allocations of FLASH's searches).
func updatedAtoms(c *Cube, t *Trans, env *instEnv, atoms []atomAlts, seen []Term, cache map[altKey][]valAlt) ([]atomAlts, []Term) {
	// (seen: few atoms, a slice beats a map keyed by Term)
	visit := func(b Term) bool {
		if b.Kind != KVar || !t.updates(b.Sym) || slices.Contains(seen, b) {
			return false
		}
		seen = append(seen, b)
		if alts := atomUpdate(t, b, env, cache); alts != nil {
			atoms = append(atoms, atomAlts{b, alts})
		}
		return false
	}
	for i := range c.Lits {
		anyAtom(&c.Lits[i].L, visit)
		anyAtom(&c.Lits[i].R, visit)
	}
	return atoms, seen
}

// preSlots are the process slots of the pre-image: those of c and the
// transition's parameters, sorted.
func preSlots(c *Cube, args []int32) []int32 {
	slots := slices.Clone(c.Slots)
	for _, a := range args {
		if !slices.Contains(slots, a) {
			slots = append(slots, a)
		}
	}
	slices.Sort(slots)
	return slots
}

// weakWrites makes the new node of the pre-image: its writes. A weak
// array updated for every process at once writes the cells of the
// processes of the cube (the cells of other processes are read by no
// event of the cube).
func (e *engine) weakWrites(t *Trans, env *instEnv, slots []int32, actor int32) (*Node, []weakWrite) {
	node := &Node{ID: env.node}
	var writes []weakWrite
	for _, u := range t.Updates {
		if !e.sys.Globals[u.Global].Weak {
			continue
		}
		for _, us := range univTuples(slots, u.NUniv) {
			env.u = [maxArity]int32{}
			copy(env.u[:], us)
			a := Access{Proc: actor, Sym: u.Global, NArgs: int32(u.NArgs)}
			for i := 0; i < u.NArgs; i++ {
				a.Args[i] = env.slot(u.Args[i])
			}
			node.Writes = append(node.Writes, a)
			writes = append(writes, weakWrite{a, caseAlts(u.Cases, env)})
		}
	}
	return node, writes
}

// updateReads lists the reads of the new node in the values of t's
// updates.
func updateReads(t *Trans, env *instEnv, slots []int32) []Access {
	var valueReads []Access
	for _, u := range t.Updates {
		for _, us := range univTuples(slots, u.NUniv) {
			env.u = [maxArity]int32{}
			copy(env.u[:], us)
			for _, a := range caseAlts(u.Cases, env) {
				if !a.nondet && !a.skip {
					valueReads = collectReads(valueReads, a.val, env.node)
				}
				for _, l := range a.lits {
					valueReads = collectReads(collectReads(valueReads, l.L, env.node), l.R, env.node)
				}
			}
		}
	}
	return valueReads
}

// nextChoice advances choice, an odometer whose digit k counts up to
// lim(k), to its next value; it reports false after the last one.
func nextChoice(choice []int, lim func(k int) int) bool {
	k := 0
	for k < len(choice) {
		choice[k]++
		if choice[k] < lim(k) {
			break
		}
		choice[k] = 0
		k++
	}
	return k < len(choice)
}

// univTuples lists the instances of k universal indices over slots:
// every tuple, not necessarily of distinct slots (one empty tuple for k = 0).
func univTuples(slots []int32, k int) [][]int32 {
	out := [][]int32{nil}
	for range k {
		var next [][]int32
		for _, t := range out {
			for _, s := range slots {
				next = append(next, append(slices.Clone(t), s))
			}
		}
		out = next
	}
	return out
}

// weakWrite is a write of the new node with the alternatives of its value.
type weakWrite struct {
	acc  Access
	alts []valAlt
}

// writeVal is a write of the new node with its value.
type writeVal struct {
	acc Access
	val valAlt
}

// withoutSkipped removes from the new node the writes whose chosen
// alternative writes nothing (a weak case without default).
func withoutSkipped(proto *Node, ws []writeVal) (*Node, []writeVal) {
	n := &Node{ID: proto.ID}
	var out []writeVal
	for _, w := range ws {
		if !w.val.skip {
			n.Writes = append(n.Writes, w.acc)
			out = append(out, w)
		}
	}
	return n, out
}

func writes2(ws []weakWrite, vals []valAlt) []writeVal {
	out := make([]writeVal, len(ws))
	for i, w := range ws {
		out[i] = writeVal{acc: w.acc, val: vals[i]}
	}
	return out
}

// finish builds the cubes of one alternative of a pre-image, one for each
// choice of the rffr split.
func (e *engine) finish(c *Cube, t *Trans, args []int32, actor int32, ga guardAlt, proto *Node,
	valueReads []Access, writes []writeVal, rffr []rffrChoice, sub substitution, lits []Lit,
	slots []int32, out []*Cube) []*Cube {
	// the reads of the new node
	var reads []Access
	for _, l := range lits {
		reads = collectReads(collectReads(reads, l.L, proto.ID), l.R, proto.ID)
	}
	for _, r := range valueReads {
		reads = collectReads(reads, r.valTerm(proto.ID, e.sys), proto.ID)
	}
	fence := ga.fence || t.Fence
	var node *Node
	if len(reads) > 0 || len(writes) > 0 {
		node = &Node{ID: proto.ID, Reads: reads, Writes: proto.Writes}
		node.setFlags(ProcFlags{Proc: actor, Read: len(reads) > 0, Write: len(writes) > 0, Fenced: fence && len(reads) > 0,
			FencedW: e.pso() && fence && len(writes) > 0})
	}
	// choices of the rffr split (rffrOptions)
	opts := e.rffrOptions(c, proto, rffr)
	choice := make([]rffrPick, len(rffr))
	idx := make([]int, len(rffr))
	for n := 0; n < maxRffrCombos; n++ {
		for k := range rffr {
			choice[k] = opts[k][idx[k]]
		}
		if nc := e.build(c, t, args, actor, ga, node, fence, writes, rffr, choice, sub, lits, slots); nc != nil {
			out = append(out, nc)
		}
		if !nextChoice(idx, func(k int) int { return len(opts[k]) }) {
			break
		}
	}
	return out
}

// maxRffrCombos bounds the rffr choices of one pre-image alternative.
const maxRffrCombos = 1 << 16

// build makes one pre-image cube, or returns nil when it is empty.
func (e *engine) build(c *Cube, t *Trans, args []int32, actor int32, ga guardAlt, node *Node, fence bool,
	writes []writeVal, rffr []rffrChoice, choice []rffrPick, sub substitution, lits []Lit, slots []int32) *Cube {
	nc := &Cube{Parent: c, Trans: t.Name, Args: args, Root: c.Root, Depth: c.Depth + 1}
	// weak part
	if len(c.Nodes) > 0 || node != nil {
		nc.Nodes = slices.Clone(c.Nodes)
		nc.GHB = slices.Clone(c.GHB)
		if fence && actor != 0 {
			fenceOldReads(nc, actor, e.pso())
		}
		if node != nil {
			if len(nc.Nodes) >= maxNodes {
				e.tooManyEvents = true
				return nil
			}
			edges := edgesFrom(nc, node, actor, e.pso())
			nc.Nodes = append(nc.Nodes, node)
			nc.GHB = append(nc.GHB, 0)
			self := len(nc.Nodes) - 1
			for j := 0; j < self; j++ {
				if edges&(1<<uint(j)) != 0 {
					addEdge(nc.GHB, self, j)
				}
			}
			if len(rffr) > 0 {
				sub = maps2(sub)
			}
			for k, r := range rffr {
				old := nc.Nodes[r.node].clone()
				pick := choice[k]
				var keep []Access
				for i, rd := range old.Reads {
					var w *writeVal
					for i := range writes {
						if writes[i].acc.sameLoc(rd) {
							w = &writes[i]
						}
					}
					if w == nil || pick.fr && rd.Proc != actor || pick.late&(1<<uint(i)) != 0 {
						keep = append(keep, rd)
						continue
					}
					sub[rd.valTerm(old.ID, e.sys)] = w.val
					if e.opts.precise && rd.Proc != actor && slices.Contains(c.Slots, actor) {
						// the precise mode (refine.go): the
						// source remembers its reader, unless
						// its process is one this step brings
						// in (see refine.go: fresh sources)
						src := nc.Nodes[self]
						if src == node {
							src = node.clone() // node is shared by the rffr choices
							nc.Nodes[self] = src
						}
						src.ReadBy = append(src.ReadBy, rd)
					}
					// coherence: a write to the location that is
					// ghb-before the read is co-before its source
					for u := range c.Nodes {
						if u != r.node && c.GHB[u]&(1<<uint(r.node)) != 0 && writesLoc(c.Nodes[u], rd) {
							addEdge(nc.GHB, u, self)
						}
					}
				}
				old.Reads = keep
				nc.Nodes[r.node] = old
				switch {
				case pick.fr:
					addEdge(nc.GHB, r.node, self)
				case r.other || pick.late != 0:
					addEdge(nc.GHB, self, r.node)
				}
			}
			if cyclic(nc.GHB) {
				return nil
			}
		}
		if fence && actor != 0 && e.sys.SharedSC && len(c.Nodes) > 0 {
			// the fence point: the earlier writes of actor are in memory
			// (they will be ghb-before it, as before a fenced read), and
			// every event later in time, of any process, comes after it:
			// that process may have learnt of the fence through
			// sequentially consistent variables, which have no events
			if len(nc.Nodes) >= maxNodes {
				e.tooManyEvents = true
				return nil
			}
			id := int32(0)
			for _, n := range nc.Nodes {
				id = max(id, n.ID)
			}
			f := &Node{ID: id + 1}
			f.setFlags(ProcFlags{Proc: actor, Read: true, Fenced: true})
			later := len(c.Nodes)
			nc.Nodes = append(nc.Nodes, f)
			nc.GHB = append(nc.GHB, 0)
			self := len(nc.Nodes) - 1
			for j := 0; j < later; j++ {
				addEdge(nc.GHB, self, j)
			}
		}
	}
	// substitute in the literals of c; lits is shared by the calls for
	// the other rffr choices: append to a copy, in the engine's buffer
	// (most pre-images are empty or covered: the cube that stays gets
	// its own copy below)
	lits = append(slices.Grow(e.buildBuf[:0], len(lits)+len(c.Lits)), lits...)
	inexact := false
	for _, l := range c.Lits {
		a, ok1 := sub.term(l.L)
		b, ok2 := sub.term(l.R)
		if !ok1 || !ok2 {
			// a value assigned at random drops the literal (the cube
			// then says nothing of it); so does a combination whose
			// numbers grow past ratLimit, which weakens the cube
			inexact = inexact || !sub.nondetIn(l.L) && !sub.nondetIn(l.R)
			continue
		}
		nl, r, exact := mkLitExact(l.Op, a, b)
		inexact = inexact || !exact
		switch r {
		case litFalse:
			return nil
		case litOpen:
			lits = append(lits, nl)
		}
	}
	e.buildBuf = lits[:0]
	nc.Lits = lits
	nc.ticked = c.ticked
	nc.inexact = inexact
	if !e.noTicks && len(nc.Nodes) == 0 {
		out, changed, ok := e.eliminateTicks(nc.Lits)
		if !ok {
			return nil
		}
		if changed {
			nc.Lits, nc.ticked, nc.tickHere = out, true, true
		}
	}
	nc.Slots = slots
	if len(ga.extra) > 0 {
		nc.Slots = append(slices.Clone(slots), ga.extra...)
		slices.Sort(nc.Slots)
	}
	r, norm := e.cheapNorm(nc)
	if r == cheapUnsat {
		return nil
	}
	nc.Lits = slices.Clone(nc.Lits) // (out of e.buildBuf)
	// prepared: prepare would normalize the literals again (sorted,
	// without duplicates or a disequality an equality implies, which a
	// second pass leaves as they are: cmpLit orders distinct literals)
	// and find norm; gc and dropUnusedSlots below change events and
	// slots only
	nc.sig, nc.open = 1, norm == cheapUnknown
	gc(nc)
	dropUnusedSlots(nc, e.sys.Pinned)
	if e.sys.tooManyProcs(nc) {
		// number_procs n: no state has more than n processes
		return nil
	}
	return nc
}

// dropUnusedSlots removes the processes that no literal or event
// mentions: "there is another process" only matters for one process in
// all, and forgetting it keeps the cube general (an over-approximation).
func dropUnusedSlots(c *Cube, pinned int32) {
	used := map[int32]bool{}
	var mark func(t Term)
	mark = func(t Term) {
		switch t.Kind {
		case KLin:
			for _, a := range linAtoms(t) {
				mark(a)
			}
		case KSlot:
			used[t.Sym] = true
		case KVar, KVal, KInit:
			for i := 0; i < int(t.NArgs); i++ {
				used[t.Args[i]] = true
			}
			if t.Kind == KVal {
				used[t.Proc] = true
			}
		}
	}
	for _, l := range c.Lits {
		mark(l.L)
		mark(l.R)
	}
	for _, n := range c.Nodes {
		for _, f := range n.Procs {
			used[f.Proc] = true
		}
		for _, as := range [][]Access{n.Reads, n.Writes} {
			for _, a := range as {
				used[a.Proc] = true
				for i := 0; i < int(a.NArgs); i++ {
					used[a.Args[i]] = true
				}
			}
		}
		for _, a := range n.ReadBy {
			used[a.Proc] = true
			for i := 0; i < int(a.NArgs); i++ {
				used[a.Args[i]] = true
			}
		}
	}
	if len(used) == len(c.Slots) {
		return
	}
	out := make([]int32, 0, len(c.Slots))
	for _, s := range c.Slots {
		if used[s] || s <= pinned {
			out = append(out, s)
		}
	}
	c.Slots = out
}

// nondetWitnesses returns sub where an atom that the transition assigns
// any value (X := ., a case without default on a sequentially
// consistent cell) and that a literal "X = t" of the cube equates with
// a term t known before the transition takes t's value instead: the
// pre-image is the projection "exists v. v = t && rest(v)", that is
// rest(t). Cubicle's pre-image gives such an atom a fresh constant and
// keeps every literal on it; dropping the literals that mention it (what
// is left for the atoms without such a literal, an over-approximation)
// lost their relations with the other terms: with X := . and a
// never-written V = C, the cube "X <> V && X = C" became true, and a
// system whose unsafe formula it is was UNSAFE (TestSelfCheckRandomWide,
// seed 3003, system 2400; Cubicle: SAFE). sub is copied when changed.
func nondetWitnesses(sub substitution, lits []Lit) substitution {
	var out substitution
	for _, l := range lits {
		if l.Op != Eq {
			continue
		}
		for _, side := range [2][2]Term{{l.L, l.R}, {l.R, l.L}} {
			a, t := side[0], side[1]
			if !a.isAtom() || !a.Off.isZero() {
				continue
			}
			cur := sub
			if out != nil {
				cur = out
			}
			if v, ok := cur[a]; !ok || !v.nondet {
				continue
			}
			val, ok := sub.term(t) // t before the transition, no nondet atom in it
			if !ok {
				continue
			}
			if out == nil {
				out = maps2(sub)
			}
			out[a] = valAlt{val: val}
			break
		}
	}
	if out == nil {
		return sub
	}
	return out
}

func maps2(s substitution) substitution {
	n := make(substitution, len(s)+4)
	for k, v := range s {
		n[k] = v
	}
	return n
}
