package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers a block's terminator: the jumps, with the phi
// assignments and the spin-loop cuts on the edges.

// term lowers a block's terminator, with the phi assignments of each
// edge on the edge.
func (l *lowerer) term(fr *frame, blk *ir.Block) error {
	b := fr.b
	pos := l.posOf(termMD(blk.Term))
	if pos.Line != 0 {
		b.cur = pos
	}
	pos = b.cur
	// edge emits the jump to target (when cond holds, or always when
	// cond is nil): straight to its label when it has no phi, else
	// through an edge block placed after the terminator.
	var edges []func() error
	edge := func(cond prog.Expr, target *ir.Block) {
		phis, spin := l.edgeWork(fr, blk, target)
		if !phis && !spin {
			b.emit(prog.Jump{Cond: cond, Target: fr.jumpLabel(blk, target)})
			return
		}
		lbl := l.label("edge")
		b.emit(prog.Jump{Cond: cond, Target: lbl})
		edges = append(edges, func() error {
			b.emit(prog.Label{Name: lbl})
			return l.edgeCode(fr, blk, target, pos)
		})
	}
	switch t := blk.Term.(type) {
	case *ir.TermRet:
		if t.X != nil && fr.retDst != "" && aggFields(t.X.Type()) > 0 {
			// A struct returned by value: field by field (aggregates.go).
			parts, err := l.aggParts(fr, t.X, aggFields(t.X.Type()), pos)
			if err != nil {
				return err
			}
			for k, x := range parts {
				b.emit(prog.Assign{Dst: fr.retDst + fmt.Sprintf(".%d", k), Val: x})
			}
		} else if t.X != nil && fr.retDst != "" {
			v, err := l.operand(fr, t.X, pos)
			if err != nil {
				return err
			}
			b.emit(prog.Assign{Dst: fr.retDst, Val: v})
		}
		b.emit(prog.Jump{Target: fr.retLbl})
	case *ir.TermBr:
		edge(nil, t.Target.(*ir.Block))
	case *ir.TermCondBr:
		c, err := l.operand(fr, t.Cond, pos)
		if err != nil {
			return err
		}
		edge(c, t.TargetTrue.(*ir.Block))
		edge(nil, t.TargetFalse.(*ir.Block))
	case *ir.TermSwitch:
		x, err := l.operand(fr, t.X, pos)
		if err != nil {
			return err
		}
		for _, c := range t.Cases {
			cv, err := l.operand(fr, c.X, pos)
			if err != nil {
				return err
			}
			edge(prog.Bin{Op: prog.OpEq, X: x, Y: cv}, c.Target.(*ir.Block))
		}
		edge(nil, t.TargetDefault.(*ir.Block))
	case *ir.TermUnreachable:
		b.emit(prog.Assign{Dst: blockedReg, Val: prog.Int(1)})
		b.emit(prog.Jump{Target: blockLabel})
	default:
		return l.errAt(pos, "unsupported terminator %s", blk.Term.LLString())
	}
	for _, e := range edges {
		if err := e(); err != nil {
			return err
		}
	}
	return nil
}

// phisOf lists the phi instructions of a block.
func phisOf(blk *ir.Block) []*ir.InstPhi {
	var out []*ir.InstPhi
	for _, in := range blk.Insts {
		if p, ok := in.(*ir.InstPhi); ok {
			out = append(out, p)
		}
	}
	return out
}

// edgeWork tells whether the edge from→to assigns phis and whether it is
// the back edge of a spin loop.
func (l *lowerer) edgeWork(fr *frame, from, to *ir.Block) (bool, bool) {
	return len(phisOf(to)) > 0, fr.loops.spin[[2]*ir.Block{from, to}] != nil || l.waitEntry(fr, from, to)
}

// edgeCode is the code of an edge block: the spin-loop cut, then the phi
// assignments (in parallel: through temporaries), then the jump.
func (l *lowerer) edgeCode(fr *frame, from, to *ir.Block, pos prog.Pos) error {
	b := fr.b
	l.waitEdge(fr, from, to) // entering a loop with a cut condition wait (condvar.go)
	phis := phisOf(to)
	// The phis' registers and their values along this edge; a phi of
	// aggregate (cmpxchg's result pair) is a register per field (aggregates.go).
	var dsts []string
	var vals []prog.Expr
	for _, p := range phis {
		var v value.Value
		for _, inc := range p.Incs {
			if inc.Pred == from {
				v = inc.X
			}
		}
		if v == nil {
			return l.errAt(pos, "phi %s has no value for block %s", p.Ident(), from.Ident())
		}
		if n := aggFields(p.Type()); n > 0 {
			parts, err := l.aggParts(fr, v, n, pos)
			if err != nil {
				return err
			}
			for k, x := range parts {
				dsts = append(dsts, aggReg(fr, p, k))
				vals = append(vals, x)
			}
			continue
		}
		x, err := l.operand(fr, v, pos)
		if err != nil {
			return err
		}
		dsts = append(dsts, fr.reg(p))
		vals = append(vals, x)
	}
	if sl := fr.loops.spin[[2]*ir.Block{from, to}]; sl != nil {
		// The iteration that ends here wrote nothing; when it also ends
		// in the state it started in (every phi of the header gets its
		// own value back), it can be left out of any execution: the
		// thread stops here instead of running it again.
		var cond prog.Expr = prog.Int(1)
		and := func(c prog.Expr) { cond = prog.Bin{Op: prog.OpLAnd, X: cond, Y: c} }
		for i, d := range dsts {
			and(prog.Bin{Op: prog.OpEq, X: vals[i], Y: prog.Reg{Name: d}})
		}
		site := spinSite{pos: pos, real: true}
		for _, c := range sl.cas {
			and(prog.Un{Op: prog.OpNot, X: prog.Reg{Name: fr.reg(c) + ".1"}})
			if a, err := l.operand(fr, c.Ptr, pos); err == nil {
				site.add(fr.reg(c)+".0", a)
			}
		}
		for _, r := range sl.rmws {
			x, err := l.operand(fr, r.X, pos)
			if err != nil {
				return err
			}
			nv, err := rmwNew(r.Op, x, intBits(r.X.Type()))
			if err != nil {
				return l.errAt(pos, "%v", err)
			}
			old := prog.Reg{Name: fr.reg(r)}
			// Only an atomicrmw the iteration ran constrains it (a
			// test-and-test-and-set whose test failed did not run its
			// exchange).
			ran := prog.Reg{Name: ranReg(fr.reg(r))}
			and(prog.Bin{Op: prog.OpLOr, X: prog.Un{Op: prog.OpNot, X: ran}, Y: prog.Bin{Op: prog.OpEq, X: prog.ReplaceOld(nv, old), Y: old}})
			if a, err := l.operand(fr, r.Dst, pos); err == nil {
				site.add(fr.reg(r), a)
			}
		}
		for _, c := range sl.lkRMWs {
			// A kernel xchg must have written back what it read, a
			// cmpxchg must have failed, when the iteration ran them.
			if len(c.Args) < 3 {
				return l.errAt(pos, "%s: too few arguments", calleeName(c))
			}
			arg, err := l.operand(fr, c.Args[1], pos)
			if err != nil {
				return err
			}
			old := prog.Reg{Name: fr.reg(c)}
			var kept prog.Expr = prog.Bin{Op: prog.OpEq, X: arg, Y: old} // xchg(p, new)
			if calleeName(c) == lkmmPrefix+"cmpxchg" {
				kept = prog.Bin{Op: prog.OpNe, X: arg, Y: old} // cmpxchg(p, expected, new) failed
			}
			ran := prog.Reg{Name: ranReg(fr.reg(c))}
			and(prog.Bin{Op: prog.OpLOr, X: prog.Un{Op: prog.OpNot, X: ran}, Y: kept})
			if a, err := l.operand(fr, c.Args[0], pos); err == nil {
				site.add(fr.reg(c), a)
			}
		}
		for _, ld := range sl.loads {
			var src value.Value
			switch ld := ld.(type) {
			case *ir.InstLoad:
				src = ld.Src
			case *ir.InstCall:
				src = ld.Args[0]
			}
			if a, err := l.operand(fr, src, pos); err == nil {
				site.add(fr.reg(ld.(value.Named)), a)
			}
		}
		l.spinAt(b, site)
		b.emit(prog.Jump{Cond: cond, Target: spinLabel})
		for _, r := range sl.rmws {
			b.emit(prog.Assign{Dst: ranReg(fr.reg(r)), Val: prog.Int(0)})
		}
		for _, c := range sl.lkRMWs {
			b.emit(prog.Assign{Dst: ranReg(fr.reg(c)), Val: prog.Int(0)})
		}
	}
	tmps := make([]string, len(dsts))
	for i := range dsts {
		if len(dsts) == 1 {
			break
		}
		tmps[i] = l.fresh("phi")
		b.emit(prog.Assign{Dst: tmps[i], Val: vals[i]})
	}
	for i, d := range dsts {
		v := vals[i]
		if tmps[i] != "" {
			v = prog.Reg{Name: tmps[i]}
		}
		b.emit(prog.Assign{Dst: d, Val: v})
	}
	b.emit(prog.Jump{Target: fr.jumpLabel(from, to)})
	return nil
}

// spinSite is a place where a thread stops waiting: a cut spin loop, a
// lock, a join or a thread's start. The thread waits forever in a fair
// execution when each of its reads there read the final value of its
// location (the co-last write): no later write can release it.
type spinSite struct {
	pos  prog.Pos
	real bool     // a spin loop, lock or join (a start is not a liveness bug)
	join bool     // a join (reported only when no spin loop or lock is)
	regs []string // the registers of the reads
	locs []string // the locations they read
	dyn  bool     // some read has a computed address: not expressible
	// late are the registers of reads whose address was computed when
	// the site was lowered (a lock &forks[i], i from the thread's
	// argument): resolveSpins names their locations once the threads
	// are unrolled and their constants folded.
	late []string
}

func (s *spinSite) add(reg string, addr prog.Expr) {
	c, ok := addr.(prog.Const)
	if !ok || !c.V.IsAddr() {
		s.dyn = true
		s.late = append(s.late, reg)
		return
	}
	s.regs = append(s.regs, reg)
	s.locs = append(s.locs, locName(c.V.Loc, c.V.Int))
}

// spinAt records a site and sets spinAtReg to its number.
func (l *lowerer) spinAt(b *builder, s spinSite) {
	l.spins = append(l.spins, s)
	b.emit(prog.Assign{Dst: spinAtReg, Val: prog.Int(int64(len(l.spins)))})
}

// termMD is the metadata attached to a terminator (its !dbg location).
func termMD(t ir.Terminator) ir.Metadata {
	if m, ok := t.(interface{ MDAttachments() []*metadata.Attachment }); ok {
		return m.MDAttachments()
	}
	return nil
}
