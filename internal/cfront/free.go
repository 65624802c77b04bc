package cfront

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/prog"
)

// free(p) of a heap object (malloc, calloc, aligned_alloc) is no event
// on the object itself (objects are never reused), but it marks the
// object freed: each heap object of a program that calls free has a
// hidden cell at byte freedOff, past every object's end, initially 0,
// and free does an acquire-release exchange of 1 into the cell of the
// object p points to. A free that finds 1 there is a double free (the
// program's behaviour is undefined; glibc aborts): an assertion that
// says so. The exchange is atomic, so of two frees of one object, in
// any threads and under any model, one reads the other's 1. free(NULL)
// does nothing. free of an address known when the call is lowered (a
// global's, a local's: never a heap object's, whose address comes from
// malloc at run time) is a failure too. A computed pointer into a global
// or into the middle of an object makes the mark's address name no cell
// of the program: an invalid memory access (narrow.go; under the graph
// engine a fault of the thread, graph.Options.Fault, graphfault.go).
//
// A use after free: the object keeps its cells (a read after the free
// reads what was last written), and the graph engine checks each
// complete execution for an access to a cell of a freed object that is
// not ordered before the free (graph.Options.FreedMark, internal/graph's
// uaf.go says which order per model): a failure "use after free" at the
// access. The SMT engine decides it too, in its first query, under the
// models bmc.UseAfterFreeOrder has an order for (the same orders, and
// power's and c11's: bmc's uaf.go); under another model (one read from
// a file), a program whose only ends are lifetimes, each tracked local
// accessed only before its end in the owner's program order, is decided
// too (bmc's uaf.go, memRefusal); otherwise there, and under the
// explicit engine, a program that calls free gets a failure or a race,
// never PASS (memRefusal).

// freedMark is graph.Options.FreedMark for p: the mark of the heap
// object whose cell loc is.
func (p *Program) freedMark(loc string) string {
	base, off := loc, ""
	if i := strings.IndexByte(loc, '+'); i >= 0 {
		base, off = loc[:i], loc[i+1:]
	}
	if _, ok := p.lifetimes[base]; ok && !p.lifeHeaps[base] {
		return endMark(base) // a local or thread-local copy (lifetime.go)
	}
	if !p.heaps[base] || off == strconv.Itoa(freedOff) || off == strconv.Itoa(sizeOff) {
		return ""
	}
	return locName(base, freedOff)
}

// freedOff is the offset of a heap object's freed mark, past the
// largest object (maxHeapObject), 8-aligned.
const freedOff = maxHeapObject + 8

// free lowers free(p); l.frees is set (check.go) when the program
// declares free.
func (l *lowerer) free(cs *callSite) error {
	if len(cs.args) != 1 {
		return l.errAt(cs.pos, "free takes one argument")
	}
	if _, ok := cs.args[0].(*constant.Null); ok {
		return nil
	}
	if _, ok := l.lateAddr(cs.fr, cs.args[0]); ok {
		// A local whose lifetime a loop repeats is a heap object of
		// Musket's (lifetime.go), never malloc's.
		l.fail(cs.fr.b, cs.pos, "free of memory that malloc did not allocate")
		return nil
	}
	p, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	l.freePtr(cs.fr.b, p, cs.pos)
	return nil
}

// freePtr emits the free of pointer p (see above) at pos.
func (l *lowerer) freePtr(b *builder, p prog.Expr, pos prog.Pos) {
	if c, ok := p.(prog.Const); ok {
		if c.V.IsAddr() && c.V.Loc != heapLoc {
			// A global's or a local's address, known here: never
			// malloc's (glibc aborts: "free(): invalid pointer").
			l.fail(b, pos, "free of memory that malloc did not allocate")
			return
		}
		if !c.V.IsAddr() && c.V.Int == 0 {
			return
		}
	}
	done := l.label("freed")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: p, Y: prog.Int(0)}, Target: done})
	old := l.fresh("freed")
	tags := []string{tagA, "ACQ_REL", tagRMW, tagX}
	b.emit(prog.RMW{Dst: old, Addr: addrPlus(p, freedOff), New: prog.Int(1), RTags: withSize(tags, types.I32), WTags: withSize(tags, types.I32)})
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: old}, Y: prog.Int(0)}, Target: done})
	double := l.label("double")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: old}, Y: prog.Int(localMark)}, Target: double})
	l.fail(b, pos, "free of memory that malloc did not allocate")
	b.emit(prog.Label{Name: double})
	l.fail(b, pos, "free: double free")
	b.emit(prog.Label{Name: done})
}

// localMark is the initial value of the freed mark of a local whose
// lifetime a loop repeats (lifetime.go: a heap object of Musket's, not
// malloc's): free finds it there, a failure. (Its lifetime's end writes
// 1: a free after it is a double free.)
const localMark = 2

// memRefusal is the refusal of the explicit engine, and of the SMT
// engine under a model bmc.UseAfterFreeOrder has no order for, to answer
// anything but a failure or a race on a program whose heap objects may
// be freed, and of the explicit engine on one whose heap objects start
// uninitialised (uninit.go): they do not check that the accesses to an
// object are ordered before its free, nor (the explicit engine) that a
// read of malloc's memory reads a write of the program, so a PASS (or
// BOUND) could hide a use after free or a read of indeterminate memory.
// (The SMT engine checks the reads of uninitialised memory:
// bmc.Options.RawRead.)
//
// Under a model with no order, a program whose only ends are lifetimes
// is decided when the SMT engine's first query (its report rep) placed
// every access to a tracked object before the object's end by program
// order (bmc.Stats.UAFUndecided zero: bmc's uaf.go), whatever the model.
func memRefusal(p *Program, opts CheckOptions, rep *bmc.Report) error {
	raw := p.raw != nil && opts.Engine == "enum"
	decided := opts.Engine != "enum" && lifetimesOnly(p) && rep != nil && rep.Stats.UAFUndecided == 0
	frees := p.heaps != nil && (opts.Engine == "enum" || bmc.UseAfterFreeOrder(opts.Model, opts.ModelName) == "" && !decided)
	if !frees && !raw || opts.SMTIgnoresFree {
		return nil
	}
	name := "SMT"
	if opts.Engine == "enum" {
		name = "explicit"
	}
	what, check, who := "frees heap objects", "whether an access to an object comes after its free (a use after free)", "the graph engine decides"
	if lifetimesOnly(p) {
		// Only locals and thread-locals end (lifetime.go).
		what, check = "ends the lifetime of a local or thread-local object whose address escapes", "whether an access to it comes after that end"
	}
	if opts.Engine != "enum" {
		check += " under " + opts.ModelName
		if opts.Model == nil || !strings.HasPrefix(opts.Model.Path(), "builtin:") {
			// A user's model: its relations' meaning is not known.
			check += " (a model read from a file names no order the engine may take for \"before\""
			if lifetimesOnly(p) {
				check += "; it decides only an access before the end in the owner thread's program order, and another access is made here"
			}
			check += ")"
		}
		who = "the SMT engine decides it under " + bmc.UseAfterFreeModels() + "; the graph engine decides"
	}
	if p.heaps == nil {
		what, check = "reads memory malloc made", "whether a read of it reads a write of the program (a read of uninitialised memory)"
		who = "the SMT engine (-engine smt) and the graph engine decide"
	}
	return fmt.Errorf("the program %s: the %s engine does not decide %s, and answers only a failure or a race here; %s it (-engine graph, under %s)", what, name, check, who, graph.SupportedModels())
}

// lifetimesOnly says whether p's tracked objects are all locals or
// thread-locals whose lifetime ends (lifetime.go): it calls no free.
func lifetimesOnly(p *Program) bool {
	return p.heaps != nil && len(p.lifetimes) == len(p.heaps)
}
