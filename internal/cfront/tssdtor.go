package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// The destructors of thread-specific data keys (POSIX,
// pthread_key_create; C11's tss_create): when a created thread ends
// (its function returns or it calls pthread_exit), for each key with a
// destructor whose value in the thread is not null, the value is set to
// null and the destructor is called with the old value. The order among
// keys is unspecified (Musket: the order of the creation sites in the
// module). A thread that ends main's program by returning from main or
// calling exit runs none (exit runs no thread-specific destructors);
// pthread_exit from main with such keys is refused by name. POSIX
// repeats the round while a destructor sets a value again (up to
// PTHREAD_DESTRUCTOR_ITERATIONS): Musket runs one round, and a value a
// destructor sets again makes the program reach a failure that says so.
//
// Each call site of pthread_key_create or tss_create with a destructor
// (a named function) has a hidden location, %tssdk.i, holding its key's
// number plus one (0: not created yet), written with a release by the
// creation and read with an acquire at each thread's end. A site that
// creates a second key (a loop, a helper called twice) reaches a
// failure that names Musket's limit, never a silent cut.

// tssDtorSite is a creation site of a key with a destructor.
type tssDtorSite struct {
	call *ir.InstCall
	fn   *ir.Func
}

// tssDtorLoc is the hidden location of destructor site i.
func tssDtorLoc(i int) string { return fmt.Sprintf("%%tssdk.%d", i) }

// tssDtorSites lists the program's key creations with a destructor
// (once); a destructor that is no named function is refused.
func (l *lowerer) tssDtorSites() ([]tssDtorSite, error) {
	if l.tssDtorsDone {
		return l.tssDtors, nil
	}
	l.tssDtorsDone = true
	for _, c := range moduleCalls(l.mod) {
		if n := calleeName(c); n != "pthread_key_create" && n != "tss_create" || len(c.Args) != 2 {
			continue
		}
		if _, ok := argValue(c.Args[1]).(*constant.Null); ok {
			continue
		}
		f := funcOf(c.Args[1])
		if f == nil || len(f.Blocks) == 0 {
			return nil, fmt.Errorf("%s with a destructor that is not a function defined in the program (unsupported)", calleeName(c))
		}
		l.tssDtors = append(l.tssDtors, tssDtorSite{call: c, fn: f})
	}
	return l.tssDtors, nil
}

// tssDtorSiteOf is the index of the destructor site of call c (-1: none).
func (l *lowerer) tssDtorSiteOf(c *ir.InstCall) int {
	for i, s := range l.tssDtors {
		if s.call == c {
			return i
		}
	}
	return -1
}

// tssDtorDeclare declares the hidden location of site i (once).
func (l *lowerer) tssDtorDeclare(i int, pos prog.Pos) error {
	if l.locs[locName(tssDtorLoc(i), 0)] {
		return nil
	}
	return l.addObject(tssDtorLoc(i), types.I32, nil, pos)
}

// tssDtorRecord, at the creation of key k at site i, records it for the
// threads' ends.
func (l *lowerer) tssDtorRecord(b *builder, i int, k prog.Expr, pos prog.Pos) error {
	if err := l.tssDtorDeclare(i, pos); err != nil {
		return err
	}
	loc := prog.Addr(tssDtorLoc(i))
	old := l.fresh("tssdk")
	b.emit(prog.Load{Dst: old, Addr: loc, Tags: withSize([]string{tagA, "RLX"}, types.I32)})
	ok := l.label("tssdkok")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: old}, Y: prog.Int(0)}, Target: ok})
	l.failLimit(b, pos, "pthread_key_create with a destructor: a second key created at the same call site (Musket's limit: one per site)")
	b.emit(prog.Label{Name: ok})
	b.emit(prog.Store{Addr: loc, Val: prog.Bin{Op: prog.OpAdd, X: k, Y: prog.Int(1)}, Tags: withSize([]string{tagA, "REL"}, types.I32)})
	return nil
}

// tssDtorRun emits, at the end of created thread id, the destructors'
// round (see the top of the file).
func (l *lowerer) tssDtorRun(b *builder, id int, pos prog.Pos) error {
	sites, err := l.tssDtorSites()
	if err != nil || len(sites) == 0 {
		return err
	}
	table := fmt.Sprintf("%%tss.tls%d", id)
	if !l.locs[locName(table, 0)] {
		return nil // the thread never set a value: every one is null
	}
	slotOf := func(k string) prog.Expr {
		idx := prog.Bin{Op: prog.OpSub, X: prog.Reg{Name: k}, Y: prog.Int(1)}
		return prog.Bin{Op: prog.OpAdd, X: prog.Addr(table), Y: prog.Bin{Op: prog.OpMul, X: idx, Y: prog.Int(8)}}
	}
	keys := make([]string, len(sites))
	for i, s := range sites {
		if err := l.tssDtorDeclare(i, pos); err != nil {
			return err
		}
		k := l.fresh("tssdk")
		keys[i] = k
		b.emit(prog.Load{Dst: k, Addr: prog.Addr(tssDtorLoc(i)), Tags: withSize([]string{tagA, "ACQ"}, types.I32)})
		skip := l.label("tssdtor")
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: k}, Y: prog.Int(0)}, Target: skip})
		v := l.fresh("tssval")
		b.emit(prog.Load{Dst: v, Addr: slotOf(k), Tags: withSize([]string{tagNA}, types.I8Ptr)})
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: v}, Y: prog.Int(0)}, Target: skip})
		b.emit(prog.Store{Addr: slotOf(k), Val: prog.Int(0), Tags: withSize([]string{tagNA}, types.I8Ptr)})
		var args []prog.Expr
		if len(s.fn.Params) > 0 {
			args = []prog.Expr{prog.Reg{Name: v}}
		}
		if err := l.lowerFunc(b, s.fn, args, "", 0, pos); err != nil {
			return err
		}
		b.emit(prog.Label{Name: skip})
	}
	// One round: a value set again by a destructor is past Musket's
	// limit (POSIX would run another round).
	for i := range sites {
		skip := l.label("tssagain")
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: keys[i]}, Y: prog.Int(0)}, Target: skip})
		v := l.fresh("tssval")
		b.emit(prog.Load{Dst: v, Addr: slotOf(keys[i]), Tags: withSize([]string{tagNA}, types.I8Ptr)})
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: v}, Y: prog.Int(0)}, Target: skip})
		l.failLimit(b, pos, "a thread-specific data destructor set a value again (Musket runs one round of destructors)")
		b.emit(prog.Label{Name: skip})
	}
	return nil
}
