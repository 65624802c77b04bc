package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the POSIX thread primitives: thread creation and join
// (placeholders until the threads are unrolled, see site) and mutexes and
// spin locks (a location holding 0 when free, 1 when held).

// lockTags are the tags of a lock's acquiring compare-and-swap.
func lockTags() []string { return []string{tagA, "ACQ", tagRMW, tagX} }

// mutexWord tags an access to a mutex with its size: the lock word, the
// int at the start of glibc's pthread_mutex_t. Without it, a mutex that
// is a member of a struct whose other members are accessed with several
// sizes (copied by memcpy) was refused as an access of unknown size. The
// other synchronisation objects (condition variables, barriers, rwlocks,
// semaphores, once flags: posixsync.go, condvar.go) are one int cell at
// their start too, and their accesses are tagged the same way.
func mutexWord(tags []string) []string { return append(tags, sizeTagPrefix+"4") }

// pthreadCreate records a thread creation site; the thread function is
// named directly or held in a pointer (threadfn.go). Thread attributes (stack size, detach state, ...)
// change nothing that is checked: they are ignored.
func (l *lowerer) pthreadCreate(cs *callSite) error {
	args := cs.args
	f, ok := args[2].(*ir.Func)
	if !ok {
		if bc, ok2 := args[2].(*constant.ExprBitCast); ok2 {
			f, ok = bc.From.(*ir.Func)
		}
	}
	s := site{fn: f, pos: cs.pos}
	var err error
	if !ok {
		// Through a function pointer (threadfn.go).
		s.fn = nil
		if s.fnp, err = l.arg(cs, 2); err != nil {
			return err
		}
		s.fnt = args[2].Type().String()
	}
	if s.tid, err = l.arg(cs, 0); err != nil {
		return err
	}
	if s.arg, err = l.arg(cs, 3); err != nil {
		return err
	}
	l.addSite(cs, s)
	return nil
}

// pthreadJoin records a join site; when its second argument is not
// NULL, the value the thread's function returned is written there (read
// from the thread's %ret location once its done flag is read).
func (l *lowerer) pthreadJoin(cs *callSite) error {
	tid, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	s := site{join: true, tid: tid, pos: cs.pos, dst: cs.dst, selfErr: edeadlk}
	if cs.name == "thrd_join" {
		s.selfErr = thrdError
	}
	if _, isNull := cs.args[1].(*constant.Null); !isNull {
		if s.ret, err = l.arg(cs, 1); err != nil {
			return err
		}
		l.joinRet = true
	}
	l.addSite(cs, s)
	return nil
}

// joinsResult tells whether some join of the module asks for the
// thread's result (a non-null second argument of pthread_join or
// thrd_join): then every thread stores its result (%ret) when it ends.
// Known before any thread is lowered, as a thread may be joined by one
// lowered after it (a sibling joining it): a flag set when the join was
// met left the threads lowered before without their result.
func joinsResult(m *ir.Module) bool {
	for _, c := range moduleCalls(m) {
		if len(c.Args) < 2 {
			continue
		}
		if n := calleeName(c); n != "pthread_join" && n != "thrd_join" {
			continue
		}
		if _, isNull := argValue(c.Args[1]).(*constant.Null); !isNull {
			return true
		}
	}
	return false
}

// pthreadSelf lowers pthread_self and __VERIFIER_tid: the number of the
// thread (main is 0; pthread_create writes the same number into the
// pthread_t of the thread it makes).
func (l *lowerer) pthreadSelf(cs *callSite) error {
	if cs.dst != "" {
		cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: prog.Int(int64(l.curThread))})
	}
	return nil
}

// addSite records a create or join site and emits its placeholder; the
// call returns 0.
func (l *lowerer) addSite(cs *callSite, s site) {
	l.sites = append(l.sites, s)
	cs.fr.b.emit(prog.Fence{Tags: []string{placeholder, fmt.Sprint(len(l.sites) - 1)}})
	if !s.join {
		cs.returnZero() // (a join's value: emitJoin)
	}
}

// The value of a join of the calling thread itself: glibc's EDEADLK
// (Linux's errno 35) for pthread_join, thrd_error for thrd_join.
const (
	edeadlk   = 35
	thrdError = 2
)

// mutexInit lowers pthread_mutex_init: a plain store of 0 (free).
func (l *lowerer) mutexInit(cs *callSite) error {
	m, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	cs.fr.b.emit(prog.Store{Addr: m, Val: prog.Int(0), Tags: mutexWord([]string{tagNA})})
	cs.returnZero()
	return nil
}

// mutexCAS emits the compare-and-swap from 0 to 1 of a lock or trylock
// on the mutex of the call's first argument m; register r gets the old
// value.
func (l *lowerer) mutexCAS(cs *callSite) (r string, m prog.Expr, err error) {
	if m, err = l.arg(cs, 0); err != nil {
		return "", nil, err
	}
	r = l.fresh("mtx")
	cs.fr.b.emit(prog.RMW{Dst: r, Addr: m, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Int(0)}, New: prog.Int(1),
		RTags: mutexWord(lockTags()), WTags: lockTags()})
	return r, m, nil
}

// mutexTryLock lowers a trylock: a compare-and-swap from 0 to 1 that may
// fail.
func (l *lowerer) mutexTryLock(cs *callSite) error {
	b := cs.fr.b
	r, _, err := l.mutexCAS(cs)
	if err != nil {
		return err
	}
	if cs.dst != "" {
		// 0 when taken, EBUSY (16) when held.
		b.emit(prog.Assign{Dst: cs.dst, Val: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: r}, Y: prog.Int(0)}, Y: prog.Int(16)}})
	}
	return nil
}

// mutexLock lowers a lock: a compare-and-swap from 0 to 1 that succeeds:
// a failing attempt writes nothing and can be left out (the spin-loop
// argument), so the thread waits (blocks) unless it succeeds.
func (l *lowerer) mutexLock(cs *callSite) error {
	m, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	l.lockAt(cs.fr.b, m, cs.pos)
	cs.returnZero()
	return nil
}

// lockAt emits the taking of the lock at m: a compare-and-swap from 0 to
// 1 that succeeds (see mutexLock).
func (l *lowerer) lockAt(b *builder, m prog.Expr, pos prog.Pos) {
	r := l.fresh("mtx")
	b.emit(prog.RMW{Dst: r, Addr: m, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Int(0)}, New: prog.Int(1),
		RTags: mutexWord(lockTags()), WTags: lockTags()})
	site := spinSite{pos: pos, real: true}
	site.add(r, m)
	l.spinAt(b, site)
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: r}, Y: prog.Int(0)}, Target: spinLabel})
}

// mutexUnlock lowers an unlock: a release store of 0.
func (l *lowerer) mutexUnlock(cs *callSite) error {
	m, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	cs.fr.b.emit(prog.Store{Addr: m, Val: prog.Int(0), Tags: mutexWord([]string{tagA, "REL"})})
	cs.returnZero()
	return nil
}

// pthreadEqual lowers pthread_equal: the numbers compared.
func (l *lowerer) pthreadEqual(cs *callSite) error {
	a, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	b, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	if cs.dst != "" {
		cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: prog.Bin{Op: prog.OpEq, X: a, Y: b}})
	}
	return nil
}

func init() {
	// (Set here: pthreadExit lowers destructors' calls, which reach
	// knownCalls, so a literal entry would be an initialisation cycle.)
	knownCalls["pthread_exit"] = (*lowerer).pthreadExit
}

// pthreadExit lowers pthread_exit(v): the thread ends there, as if its
// function returned v (main's end: the other threads go on).
func (l *lowerer) pthreadExit(cs *callSite) error {
	b := cs.fr.b
	if l.curThread == 0 && l.hasExitHandlers() {
		return l.errAt(cs.pos, "pthread_exit from main in a program with exit handlers (atexit, destructors) is not supported: they would run when the last thread ends")
	}
	if l.curThread == 0 {
		if sites, err := l.tssDtorSites(); err == nil && len(sites) > 0 {
			return l.errAt(cs.pos, "pthread_exit from main in a program with thread-specific data destructors is not supported")
		}
	}
	// The thread's stack goes: its locals' lifetimes end, and its
	// thread-locals' (lifetime.go).
	l.endFrames(b)
	if l.curThread == 0 {
		// main's thread-locals too: the other threads go on
		// (lifetime.go; main's return ends the process, so they are
		// tracked only here).
		if err := l.endMainThreadLocals(b); err != nil {
			return err
		}
	}
	if id := l.curThread; id > 0 {
		if err := l.tssDtorRun(b, id, cs.pos); err != nil {
			return err
		}
		l.endThreadLocals(b, id)
		if l.joinRet && l.created[id].returns() {
			v, err := l.arg(cs, 0)
			if err != nil {
				return err
			}
			b.emit(prog.Store{Addr: prog.Addr(retLoc(id)), Val: v, Tags: []string{tagNA}})
		}
		b.emit(prog.Store{Addr: prog.Addr(doneLoc(id)), Val: prog.Int(1), Tags: flagRelease()})
	}
	b.emit(prog.Jump{Target: exitLabel})
	return nil
}
