package bmc

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/smt"
)

// Use after free (Options.FreedMark), decided as the graph engine decides
// it (package graph, uaf.go): cfront gives each heap object O of a
// program that calls free a hidden mark cell, and free(p) is an atomic
// exchange of 1 into the mark of p's object, so the first free of O is
// the exchange whose read reads the mark's initial write. An access (a
// read or a write, in any thread) to a cell of O that is not ordered
// before that free, by the model's order, is a failure of the accessing
// thread: its failure register (Options.FaultReg) ends as
// UseAfterFree(thread, instruction), as a read of uninitialised memory
// sets it (rawread.go).
//
// "Ordered before" is, for each model, the transitive closure of a
// relation R that the model itself requires acyclic (uafOrders), so that
// the question needs no term for the closure: for events a ≠ f of an
// execution with R acyclic, a is not R+-before f exactly when R ∪ {(f,a)}
// is still acyclic (an edge from f to a closes a cycle exactly when a
// path leads from a to f). The encoding adds one fresh Boolean, a probe,
// per access a to a cell of a freed object, the relation
// uaf-probe = {(f, a) | probe(a) ∧ f is the first free of a's object}
// over the frees f of that object, and asks
//
//	acyclic R | uaf-probe
//
// in place of the model's own `acyclic R` (or, where the model has no
// such check, rc11's and imm's sb | sw, as a new check); it sets the
// failure register of a's thread where a executes, some free of its
// object is the first and probe(a) holds. A satisfying assignment with
// a probe true has R ∪ {(f,a)} acyclic, so a is not ordered before f
// (no false failure); an execution with a not ordered before f satisfies
// the check with that probe alone true (no missed one); with every probe
// false the check is R's own, so the consistent executions, their final
// states and flags are those without the option. The check is the
// model's, on the same relations: it is encoded as they are (clocks, or
// the CAAT theory under Options.Derived), and the polarity analysis
// sees it (its names are wanted small, as in the model's own check).
//
// One shortcut: a free that comes after the access in the access's own
// thread (program order, whenever both execute) gets no edge, and makes
// no failure when it is the first: every order here contains program
// order from an access to the free's exchange (uafOrder.poBefore: sb,
// po; x86-TSO's ppo and implied, the exchange being locked; ARMv8's
// po;[L] to the release write, RISC-V's [M];po;[RL] to the AMO, Power's
// lwsync before the exchange), so that edge would close a cycle.
// MUSKET_UAF_PRUNE=off in the environment turns it off (the cross-check
// test compares the verdicts, package graph's TestUseAfterFreeCrossCheck).
// Not under pso, whose ppo does not order a plain write before the
// exchange's read.
// A read-modify-write the model sees as one event (single.go) and the
// two halves of the free's exchange: the probe's edges leave from both
// halves, so "before f" is "before the exchange's read or its write",
// as the graph engine takes an AMO as one node.
//
// The orders (the same as the graph engine's, uaf.go there):
//
//   - rc11, imm: sb | sw, whose closure is hb (the C standard's order: an
//     access that does not happen before the free races with it or comes
//     after it). RC11 requires hb irreflexive (its coherence axiom); the
//     new check asks acyclicity of sb | sw, which that implies.
//   - sc: po | rf | co | fr (the sc axiom).
//   - tso, pso: ghb (their tso/pso axiom).
//   - aarch64: ob (the external axiom).
//   - riscv: global-ppo | rfe | co | fr (the global-order axiom).
//   - power: hb = ppo | fences | rfe, the no-thin-air axiom's order
//     (Alglave, Maranget, Tautschnig, "Herding Cats: Modelling,
//     Simulation, Testing, and Data Mining for Weak Memory", TOPLAS 2014,
//     Sections 4.3-4.4). It is the order in which that paper's model
//     performs events on the machine: a read is satisfied, a write
//     committed, after its hb-predecessors (preserved program order, the
//     fences' ordering, and reading from a write of another thread); an
//     access not hb-before the free may be performed after the free
//     commits. The usual C hand-offs map into it: a release store is
//     lwsync; st (the lwsync orders every earlier access, but a write
//     before a read, before the store: fences), the acquire load's ld;
//     lwsync (or the branch and isync) orders it before what follows
//     (fences, ppo), and the store is read by another thread (rfe); the
//     exchange of free starts with the same fence. This is the stricter
//     choice: propagation (prop) is not added, so an access whose only
//     order before the free goes through the propagation of a write to a
//     third thread counts as a use after free.
//
//   - c11 (the shipped c11.cat, Batty et al.'s model): its own hb, in
//     its hb-acyclic check. hb is the C standard's happens-before, the
//     order the standard's rules on an object's lifetime and on data
//     races are stated in: an access not hb-before the free (or the end)
//     either races with it or comes after it, undefined behaviour in
//     both cases, so it is a failure. The probe asks "not hb+-before";
//     that is "not hb-before" because hb is transitive here: hb = sb |
//     ithb, and sb;ithb ⊆ ithb (its first step sb;ithb-step is one of
//     ithb's steps), ithb;sb ⊆ ithb when ithb ends in sw or sw;sb
//     (then sw;sb is a step), that is always unless dob is used: dob
//     needs a consume read (CON), and then ithb;sb may leave ithb (the
//     consume ordering's non-transitivity). No CON event comes from C
//     programs (LLVM IR has no consume ordering: clang-14 makes a
//     consume load an acquire one), and the engine refuses a program
//     with one (uafStmts), so hb+ = hb on every program decided. This
//     does not need po ∪ rf acyclic (C11 has no no-thin-air axiom):
//     only the model's own hb-acyclic check.
//
// The end of a local's or thread-local's lifetime (cfront's lifetime.go)
// is a plain write of 1 to the object's mark, not an exchange (it is no
// instruction of the machine and must order nothing): the first such
// end is the write when it executes (the lowering makes at most one per
// path), and the owner thread's accesses before it in program order are
// before it whatever the model (the frame is reused by that thread only,
// which sees its own accesses in order): no probe for them, the
// shortcut above made a rule, under every model (pso too) and whatever
// MUSKET_UAF_PRUNE says. The graph engine decides the same (its uaf.go).
//
// Another model (or a file under a built-in's name) has no order here:
// the caller gets "" from UseAfterFreeOrder. Its relations are the
// user's: none of them is known to mean "performed before" (a relation
// named hb may be anything, and a model need not require po | rf or any
// other relation acyclic), so "not ordered before the end" has no
// meaning the engine could take from it. One rule needs no model: the
// lifetime rule above (the owner's accesses before the end in program
// order are before it: that is C's sequencing within a thread, not a
// property of a memory model). With UAFModel "" the engine applies that
// rule alone: no probe and no failure are added, and the accesses it
// does not place before the end (another thread's, or any access to a
// heap object: free's exchange gets no rule without the model) are
// counted in Stats.UAFUndecided. A caller that finds none may answer
// PASS (no access can come after an end under any model); else it must
// refuse one (cfront's memRefusal), as before.

// probeName is the name the probe relation is bound to for the added
// check (it shadows a model's own binding of the name, if any).
const probeName = "uaf-probe"

// uafOrder says where a model's order is: the model's own acyclic check
// named check, whose relation gets the probes (the union with R's own
// check then asks nothing more of an execution whose probes are false),
// or, when check is "", a new check over the relation order.
type uafOrder struct {
	check, order string
	poBefore     bool
}

// uafOrders is the relation R of each built-in model.
var uafOrders = map[string]uafOrder{
	"rc11":    {order: "sb | sw", poBefore: true},
	"imm":     {order: "sb | sw", poBefore: true},
	"sc":      {check: "sc", poBefore: true},           // po | com
	"tso":     {check: "tso", poBefore: true},          // ghb
	"pso":     {check: "pso"},                          // ghb
	"aarch64": {check: "external", poBefore: true},     // ob
	"riscv":   {check: "global-order", poBefore: true}, // global-ppo | rfe | co | fr
	"power":   {check: "no-thin-air", poBefore: true},  // hb
	"c11":     {check: "hb-acyclic", poBefore: true},   // hb (no consume: see above)
}

// UseAfterFreeOrder is the name of model m loaded as name when the
// engine decides a use after free under it (Options.UAFModel), else "".
func UseAfterFreeOrder(m *cat.Model, name string) string {
	name = strings.ToLower(strings.TrimSuffix(name, ".cat"))
	if m == nil || m.Path() != "builtin:"+name+".cat" {
		return ""
	}
	if _, ok := uafOrders[name]; !ok {
		return ""
	}
	return name
}

// uafSyntax is ss with the probes added to the order of the model
// (uafOrders): in its own check, or in a new one.
func uafSyntax(ss []cat.Stmt, model string) ([]cat.Stmt, error) {
	o, ok := uafOrders[model]
	if !ok {
		return nil, &UnsupportedError{What: fmt.Sprintf("the program frees heap objects: the SMT engine decides a use after free under %s only", UseAfterFreeModels())}
	}
	if o.check == "" {
		src := fmt.Sprintf("acyclic (%s) | %s as use-after-free\n", o.order, probeName)
		f, err := cat.ParseFile("use-after-free.cat", []byte(src))
		if err != nil {
			return nil, err
		}
		return append(append([]cat.Stmt(nil), ss...), f.Stmts...), nil
	}
	out, found := withProbe(ss, o.check)
	if !found {
		return nil, fmt.Errorf("internal error: the model %s has no acyclic check %s", model, o.check)
	}
	return out, nil
}

// withProbe is ss with the relation of the acyclic check named check
// united with the probe relation (a copy of what it changes; ss itself
// when it has no such check).
func withProbe(ss []cat.Stmt, check string) ([]cat.Stmt, bool) {
	for i, s := range ss {
		switch s := s.(type) {
		case *cat.CheckStmt:
			t := s.Test
			if s.Kind != cat.Check || t.Kind != cat.Acyclic || t.Negate || t.Name != check {
				continue
			}
			nt := *t
			nt.X = &cat.BinaryExpr{At: t.At, Op: cat.OpUnion, X: t.X, Y: &cat.Ident{At: t.At, Name: probeName}}
			out := append([]cat.Stmt(nil), ss...)
			out[i] = &cat.CheckStmt{At: s.At, Kind: s.Kind, Test: &nt}
			return out, true
		case *cat.BlockStmt:
			in, ok := withProbe(s.Stmts, check)
			if !ok {
				continue
			}
			out := append([]cat.Stmt(nil), ss...)
			out[i] = &cat.BlockStmt{At: s.At, File: s.File, Stmts: in}
			return out, true
		}
	}
	return ss, false
}

// uafFault is one way a thread fails by a use after free: cond holds
// when its access at instruction node is not ordered before the first
// free of its object.
type uafFault struct {
	node int
	loc  string
	cond B
}

// buildUAF makes the probes, the probe relation and each thread's
// conditions (e.uafFaults); it returns the relation (nil: no access to
// a freed object's cell can happen).
func (e *encoding) buildUAF() *Rel {
	p, f := e.p, e.f
	// The frees of each mark: the events of the exchanges on it, each
	// with the condition that it is the first free.
	type free struct {
		first    B
		evs      []int // the model's events of the exchange
		read     int   // the exchange's read (a lifetime's end: its write)
		lifetime bool  // the end of a lifetime: a plain write
	}
	partner := map[int]int{}
	rmwWrite := map[int]bool{}
	for k := range p.rmw {
		partner[k[0]] = k[1]
		rmwWrite[k[1]] = true
	}
	frees := map[string][]free{}
	marks := map[string]bool{}
	mark := map[string]string{}
	markOf := func(loc string) string {
		m, ok := mark[loc]
		if !ok {
			m = e.opts.FreedMark(loc)
			mark[loc] = m
			if m != "" {
				marks[m] = true
			}
		}
		return m
	}
	for _, ev := range p.events {
		if ev.thread >= 0 && (ev.kind == event.Read || ev.kind == event.Write) {
			markOf(ev.loc)
		}
	}
	for _, ev := range p.events {
		if ev.thread < 0 || ev.kind != event.Read || !marks[ev.loc] {
			continue
		}
		iw, ok := p.initOf[ev.loc]
		if !ok {
			continue
		}
		v, ok := e.rf[[2]int{iw, ev.id}]
		if !ok {
			continue // it never reads the initial write: never the first free
		}
		evs := []int{e.fuseOf(ev.id)}
		if w, ok := partner[ev.id]; ok && e.fuseOf(w) != evs[0] {
			evs = append(evs, e.fuseOf(w))
		}
		frees[ev.loc] = append(frees[ev.loc], free{first: f.and(ev.exec, v), evs: evs, read: ev.id})
	}
	for _, ev := range p.events {
		if ev.thread < 0 || ev.kind != event.Write || !marks[ev.loc] || rmwWrite[ev.id] {
			continue
		}
		frees[ev.loc] = append(frees[ev.loc], free{first: ev.exec, evs: []int{e.fuseOf(ev.id)}, read: ev.id, lifetime: true})
	}
	// One probe per access: its edges leave from the exchanges of the
	// free that is the first (exactly one is, if any), so a true probe
	// adds the edge from the first free only.
	prune := uafOrders[e.opts.UAFModel].poBefore && os.Getenv("MUSKET_UAF_PRUNE") != "off"
	var rel *Rel
	e.uafFaults = map[int][]uafFault{}
	undecided := 0
	for th, evs := range p.threadEvents {
		for _, id := range evs {
			a := p.events[id]
			if a.kind != event.Read && a.kind != event.Write {
				continue
			}
			fs := frees[mark[a.loc]]
			if len(fs) == 0 {
				continue
			}
			var probe B
			t := e.fuseOf(a.id)
			var first []B
			for _, fr := range fs {
				if (prune || fr.lifetime) && e.poBefore(a, p.events[fr.read]) {
					// a is ordered before this free: where it is the
					// first, a is no use after free (uafOrder.poBefore).
					continue
				}
				if first == nil {
					probe = f.boolVar("uaf")
					if rel == nil {
						rel = newRel(e.n)
					}
				}
				for _, s := range fr.evs {
					old, _ := rel.get(s, t)
					rel.set(s, t, f.or(old, f.and(probe, fr.first)))
				}
				first = append(first, fr.first)
			}
			if first != nil {
				undecided++
				e.uafFaults[th] = append(e.uafFaults[th], uafFault{node: a.node, loc: a.loc, cond: f.and(a.exec, probe, f.or(first...))})
			}
		}
	}
	if e.opts.UAFModel == "" {
		// No order: nothing is decided beyond the lifetime rule (above).
		e.f.stats.UAFUndecided = undecided
		e.uafFaults = nil
		return nil
	}
	return rel
}

// uafStmts is the model's syntax with the use-after-free check added
// (the model's own when the option is off).
func (e *encoding) uafStmts() ([]cat.Stmt, error) {
	ss := e.m.Syntax()
	if e.opts.FreedMark == nil {
		return ss, nil
	}
	if e.incons != nil {
		return nil, &UnsupportedError{What: "a use-after-free check in an inconsistency query"}
	}
	if e.opts.UAFModel == "" {
		return ss, nil // no order: the model unchanged (buildUAF)
	}
	if o := uafOrders[e.opts.UAFModel]; o.check == "hb-acyclic" {
		// c11: hb is transitive only without consume reads (above).
		for _, ev := range e.p.events {
			if _, cond := ev.condTags["CON"]; cond || hasTag(ev.tags, "CON") {
				return nil, &UnsupportedError{What: "a use-after-free check under c11 with a consume read (happens-before is not transitive then)"}
			}
		}
	}
	return uafSyntax(ss, e.opts.UAFModel)
}

// UseAfterFreeModels lists the models UseAfterFreeOrder knows.
func UseAfterFreeModels() string {
	var ns []string
	for n := range uafOrders {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	s := ""
	for i, n := range ns {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// uafFault wraps base, the final term of thread th's failure register,
// with its uses after free, the earliest access in code order outermost.
func (e *encoding) uafFault(th int, base smt.Term) smt.Term {
	fs := e.uafFaults[th]
	for i := len(fs) - 1; i >= 0; i-- {
		fault := e.ctx.IntVal(e.p.enc(e.opts.UseAfterFree(th, fs[i].node, fs[i].loc)))
		base = e.ctx.Ite(e.f.term(fs[i].cond), fault, base)
	}
	return base
}

// poBefore tells whether access a comes before free's exchange (its
// read) in program order whenever both execute.
func (e *encoding) poBefore(a, free *evt) bool {
	if a.thread < 0 || a.thread != free.thread || a.node == free.node {
		return false
	}
	r := e.p.reach[a.thread]
	return r[a.node][free.node>>6]&(1<<(uint(free.node)&63)) != 0
}
