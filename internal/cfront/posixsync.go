package cfront

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// The other synchronisation primitives of POSIX and C11 that benchmark
// programs use, each lowered onto the events the mutexes use (a
// read-modify-write that must succeed, or the thread waits there: the
// spin-loop argument of mutexLock; a release write or read-modify-write
// to give it back).
//
//   - C11 <threads.h>: thrd_create, thrd_join, thrd_exit, thrd_current,
//     thrd_equal, thrd_yield, thrd_sleep, thrd_detach are the pthread
//     ones (thrd_success is 0, as pthread's 0); mtx_init, mtx_lock,
//     mtx_trylock (thrd_busy when held), mtx_unlock, mtx_destroy are a
//     mutex's (mtx_recursive: a recursive mutex, mutexkind.go);
//     cnd_* are condition variables (condvar.go).
//   - Barriers: pthread_barrier_init(b, attr, n) with n a constant once
//     the code is lowered; pthread_barrier_wait is an acquire-release
//     fetch-and-add on the barrier's first cell, returning k, then an
//     acquire read of the cell that must read at least (k/n+1)*n: the
//     thread waits until the n-th arrival of its round (rounds follow
//     one another: a barrier may be used again). The thread whose
//     arrival completes a round gets PTHREAD_BARRIER_SERIAL_THREAD (-1),
//     the others 0. Every write before the barrier in any of the round's
//     threads happens before every access after it (the fetch-and-adds
//     form one release sequence that the acquire read reads the end of).
//   - Read-write locks (pthread_rwlock_*): the first cell holds the
//     number of readers, or rwWriter when a writer holds it; rdlock
//     adds a reader when no writer holds it, wrlock takes it when it is
//     0 (both acquire, and must succeed), unlock is a release
//     read-modify-write that gives back what its thread holds; the
//     trylocks may fail (EBUSY). No preference between readers and
//     writers is modelled (a liveness matter).
//   - Semaphores (sem_init, sem_wait, sem_trywait, sem_post,
//     sem_getvalue, sem_destroy): the first cell holds the value;
//     sem_wait decrements it when positive (acquire, must succeed),
//     sem_trywait may fail (-1), sem_post increments it (release).
//   - Timed forms (pthread_mutex_timedlock, mtx_timedlock,
//     pthread_rwlock_timedrdlock/wrlock, sem_timedwait) are the try
//     forms with the time-out's result (ETIMEDOUT, thrd_timedout, -1):
//     one attempt that succeeds when the lock is free (POSIX: never a
//     time-out when it can be taken at once), else a time-out. An
//     attempt that fails and a later one that succeeds is the execution
//     in which the one attempt reads the releasing write (the spin-loop
//     argument), and a time-out saw the lock held: nothing is lost.
//   - pthread_once and call_once: the flag goes from 0 to 1 by an
//     acquire-release compare-and-swap; the thread that wins calls the
//     function (named directly) and writes 2 with release; the others
//     wait for 2 (an acquire read that must read it).

// rwWriter is the value of a read-write lock's cell while a writer holds
// it (readers count from 1).
const rwWriter = 1 << 30

func init() {
	for name, f := range map[string]callLowering{
		"thrd_create":  (*lowerer).thrdCreate,
		"thrd_join":    (*lowerer).pthreadJoin,
		"thrd_exit":    (*lowerer).pthreadExit,
		"thrd_current": (*lowerer).pthreadSelf,
		"thrd_equal":   (*lowerer).pthreadEqual,
		"thrd_yield":   (*lowerer).noEvent,
		"thrd_sleep":   (*lowerer).noEvent,
		"thrd_detach":  (*lowerer).noEvent,
		"mtx_init":     (*lowerer).mtxInit,
		"mtx_lock":     (*lowerer).mutexLockCall,
		"mtx_trylock":  (*lowerer).mutexTryCall,
		"mtx_unlock":   (*lowerer).mutexUnlockCall,
		"mtx_destroy":  (*lowerer).noEvent,

		"pthread_barrier_init":        (*lowerer).barrierInit,
		"pthread_barrier_wait":        (*lowerer).barrierWait,
		"pthread_barrier_destroy":     (*lowerer).noEvent,
		"pthread_barrierattr_init":    (*lowerer).noEvent,
		"pthread_barrierattr_destroy": (*lowerer).noEvent,

		"pthread_rwlock_init":      (*lowerer).mutexInit,
		"pthread_rwlock_destroy":   (*lowerer).noEvent,
		"pthread_rwlock_rdlock":    (*lowerer).rwLock,
		"pthread_rwlock_wrlock":    (*lowerer).rwLock,
		"pthread_rwlock_tryrdlock": (*lowerer).rwLock,
		"pthread_rwlock_trywrlock": (*lowerer).rwLock,
		"pthread_rwlock_unlock":    (*lowerer).rwUnlock,
		"pthread_rwlockattr_init":  (*lowerer).noEvent,

		"sem_init":     (*lowerer).semInit,
		"sem_destroy":  (*lowerer).noEvent,
		"sem_wait":     (*lowerer).semWait,
		"sem_trywait":  (*lowerer).semWait,
		"sem_post":     (*lowerer).semPost,
		"sem_getvalue": (*lowerer).semGetValue,

		"pthread_mutex_timedlock":    (*lowerer).mutexTryCall,
		"mtx_timedlock":              (*lowerer).mutexTryCall,
		"pthread_rwlock_timedrdlock": (*lowerer).rwLock,
		"pthread_rwlock_timedwrlock": (*lowerer).rwLock,
		"sem_timedwait":              (*lowerer).semWait,

		"pthread_once": (*lowerer).callOnce,
		"call_once":    (*lowerer).callOnce,
	} {
		knownCalls[name] = ownFirst(f)
	}
}

// thrdCreate lowers thrd_create(thr, func, arg) as pthread_create(thr,
// NULL, func, arg).
func (l *lowerer) thrdCreate(cs *callSite) error {
	if len(cs.args) != 3 {
		return l.errAt(cs.pos, "%s takes three arguments", cs.name)
	}
	c := *cs
	c.args = []value.Value{cs.args[0], cs.args[0], cs.args[1], cs.args[2]}
	return l.pthreadCreate(&c)
}

// mtxTryLock lowers mtx_trylock: thrd_success (0) or thrd_busy (1).
func (l *lowerer) mtxTryLock(cs *callSite) error {
	r, _, err := l.mutexCAS(cs)
	if err != nil {
		return err
	}
	if cs.dst != "" {
		cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: r}, Y: prog.Int(0)}})
	}
	return nil
}

// timedLock lowers pthread_mutex_timedlock (0 or ETIMEDOUT) and
// mtx_timedlock (thrd_success or thrd_timedout): one attempt (see the top
// of the file).
func (l *lowerer) timedLock(cs *callSite) error {
	r, _, err := l.mutexCAS(cs)
	if err != nil {
		return err
	}
	code := int64(110) // ETIMEDOUT
	if cs.name == "mtx_timedlock" {
		code = 4 // thrd_timedout
	}
	if cs.dst != "" {
		cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: r}, Y: prog.Int(0)}, Y: prog.Int(code)}})
	}
	return nil
}

// constLoc is the location an address names, when it is a constant.
func constLoc(e prog.Expr) (string, bool) {
	c, ok := e.(prog.Const)
	if !ok || !c.V.IsAddr() {
		return "", false
	}
	return locName(c.V.Loc, c.V.Int), true
}

// barrierInit lowers pthread_barrier_init: the count is recorded for the
// barrier's location, whose cell is reset to 0.
func (l *lowerer) barrierInit(cs *callSite) error {
	b, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	n, err := l.arg(cs, 2)
	if err != nil {
		return err
	}
	loc, ok := constLoc(b)
	c, okN := n.(prog.Const)
	if !ok || !okN || c.V.IsAddr() || c.V.Int < 1 {
		return l.errAt(cs.pos, "%s: the barrier must be named directly and its count be a positive constant (Musket counts a round's arrivals against it)", cs.name)
	}
	ps := l.posixOf()
	if old, seen := ps.barriers[loc]; seen && old != c.V.Int {
		return l.errAt(cs.pos, "%s: the barrier was initialised with count %d before, now %d", cs.name, old, c.V.Int)
	}
	ps.barriers[loc] = c.V.Int
	cs.fr.b.emit(prog.Store{Addr: b, Val: prog.Int(0), Tags: mutexWord([]string{tagNA})})
	cs.returnZero()
	return nil
}

// barrierWait lowers pthread_barrier_wait (see the top of the file).
func (l *lowerer) barrierWait(cs *callSite) error {
	bar, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	loc, ok := constLoc(bar)
	n, known := l.posixOf().barriers[loc]
	if !ok || !known {
		return l.errAt(cs.pos, "%s: a barrier that no pthread_barrier_init lowered before names directly", cs.name)
	}
	b := cs.fr.b
	k := l.fresh("bar")
	b.emit(prog.RMW{Dst: k, Addr: bar, New: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)},
		RTags: mutexWord([]string{tagA, "ACQ_REL", tagRMW, tagX}), WTags: []string{tagA, "ACQ_REL", tagRMW, tagX}})
	kr := prog.Reg{Name: k}
	last := prog.Bin{Op: prog.OpEq, X: prog.Bin{Op: prog.OpMod, X: prog.Bin{Op: prog.OpAdd, X: kr, Y: prog.Int(1)}, Y: prog.Int(n)}, Y: prog.Int(0)}
	if cs.dst != "" {
		b.emit(prog.Assign{Dst: cs.dst, Val: prog.Un{Op: prog.OpNeg, X: last}})
	}
	done := l.label("bardone")
	b.emit(prog.Jump{Cond: last, Target: done})
	r := l.fresh("bar")
	b.emit(prog.Load{Dst: r, Addr: bar, Tags: mutexWord([]string{tagA, "ACQ"})})
	site := spinSite{pos: cs.pos, real: true}
	site.add(r, bar)
	l.spinAt(b, site)
	target := prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpAdd, X: prog.Bin{Op: prog.OpDiv, X: kr, Y: prog.Int(n)}, Y: prog.Int(1)}, Y: prog.Int(n)}
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: prog.Reg{Name: r}, Y: target}, Target: spinLabel})
	b.emit(prog.Label{Name: done})
	return nil
}

// rwLock lowers the read and write locks of a read-write lock, and their
// try forms (0, or EBUSY when the lock is not free for it).
func (l *lowerer) rwLock(cs *callSite) error {
	a, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	b := cs.fr.b
	write := cs.name == "pthread_rwlock_wrlock" || cs.name == "pthread_rwlock_trywrlock" || cs.name == "pthread_rwlock_timedwrlock"
	try := cs.name != "pthread_rwlock_rdlock" && cs.name != "pthread_rwlock_wrlock"
	var cond, nv prog.Expr
	if write {
		cond, nv = prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Int(0)}, prog.Int(rwWriter)
	} else {
		cond, nv = prog.Bin{Op: prog.OpNe, X: prog.Old{}, Y: prog.Int(rwWriter)}, prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)}
	}
	r := l.fresh("rw")
	b.emit(prog.RMW{Dst: r, Addr: a, Cond: cond, New: nv, RTags: mutexWord(lockTags()), WTags: lockTags()})
	failed := prog.ReplaceOld(prog.Un{Op: prog.OpNot, X: cond}, prog.Reg{Name: r})
	if try {
		code := int64(16) // EBUSY
		if cs.name == "pthread_rwlock_timedrdlock" || cs.name == "pthread_rwlock_timedwrlock" {
			code = 110 // ETIMEDOUT
		}
		if cs.dst != "" {
			b.emit(prog.Assign{Dst: cs.dst, Val: prog.Bin{Op: prog.OpMul, X: failed, Y: prog.Int(code)}})
		}
		return nil
	}
	site := spinSite{pos: cs.pos, real: true}
	site.add(r, a)
	l.spinAt(b, site)
	b.emit(prog.Jump{Cond: failed, Target: spinLabel})
	cs.returnZero()
	return nil
}

// rwUnlock lowers pthread_rwlock_unlock: a writer's cell goes back to 0,
// a reader's loses one reader (release).
func (l *lowerer) rwUnlock(cs *callSite) error {
	a, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	old := prog.Old{}
	nv := prog.Bin{Op: prog.OpSub, X: prog.Bin{Op: prog.OpSub, X: old, Y: prog.Int(1)},
		Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpEq, X: old, Y: prog.Int(rwWriter)}, Y: prog.Int(rwWriter - 1)}}
	tags := []string{tagA, "REL", tagRMW, tagX}
	cs.fr.b.emit(prog.RMW{Dst: l.fresh("rw"), Addr: a, New: nv, RTags: mutexWord(tags), WTags: tags})
	cs.returnZero()
	return nil
}

// semInit lowers sem_init(s, pshared, v): a plain write of v.
func (l *lowerer) semInit(cs *callSite) error {
	s, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	v, err := l.arg(cs, 2)
	if err != nil {
		return err
	}
	cs.fr.b.emit(prog.Store{Addr: s, Val: v, Tags: mutexWord([]string{tagNA})})
	cs.returnZero()
	return nil
}

// semWait lowers sem_wait (the value decremented when positive, or the
// thread waits) and sem_trywait (0, or -1 when the value is 0).
func (l *lowerer) semWait(cs *callSite) error {
	s, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	b := cs.fr.b
	cond := prog.Bin{Op: prog.OpGt, X: prog.Old{}, Y: prog.Int(0)}
	r := l.fresh("sem")
	b.emit(prog.RMW{Dst: r, Addr: s, Cond: cond, New: prog.Bin{Op: prog.OpSub, X: prog.Old{}, Y: prog.Int(1)}, RTags: mutexWord(lockTags()), WTags: lockTags()})
	failed := prog.Bin{Op: prog.OpLe, X: prog.Reg{Name: r}, Y: prog.Int(0)}
	if cs.name == "sem_trywait" || cs.name == "sem_timedwait" {
		if cs.dst != "" {
			b.emit(prog.Assign{Dst: cs.dst, Val: prog.Un{Op: prog.OpNeg, X: failed}})
		}
		code := int64(errEAGAIN)
		if cs.name == "sem_timedwait" {
			code = errETIMEDOUT
		}
		return l.setErrnoIf(b, failed, code, cs.pos)
	}
	site := spinSite{pos: cs.pos, real: true}
	site.add(r, s)
	l.spinAt(b, site)
	b.emit(prog.Jump{Cond: failed, Target: spinLabel})
	cs.returnZero()
	return nil
}

// semPost lowers sem_post: the value incremented (release).
func (l *lowerer) semPost(cs *callSite) error {
	s, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	tags := []string{tagA, "REL", tagRMW, tagX}
	cs.fr.b.emit(prog.RMW{Dst: l.fresh("sem"), Addr: s, New: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)}, RTags: mutexWord(tags), WTags: tags})
	cs.returnZero()
	return nil
}

// semGetValue lowers sem_getvalue(s, &v): a relaxed read of the value,
// written to v.
func (l *lowerer) semGetValue(cs *callSite) error {
	s, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	v, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	r := l.fresh("sem")
	cs.fr.b.emit(prog.Load{Dst: r, Addr: s, Tags: mutexWord([]string{tagA, "RLX"})})
	cs.fr.b.emit(prog.Store{Addr: v, Val: prog.Reg{Name: r}, Tags: mutexWord([]string{tagNA})})
	cs.returnZero()
	return nil
}

// callOnce lowers pthread_once(flag, f) and call_once(flag, f) (see the
// top of the file).
func (l *lowerer) callOnce(cs *callSite) error {
	if len(cs.args) != 2 {
		return l.errAt(cs.pos, "%s takes two arguments", cs.name)
	}
	flag, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	f, ok := cs.args[1].(*ir.Func)
	if !ok {
		if bc, ok2 := cs.args[1].(*constant.ExprBitCast); ok2 {
			f, ok = bc.From.(*ir.Func)
		}
	}
	if !ok {
		return l.errAt(cs.pos, "%s: the function must be named directly", cs.name)
	}
	b := cs.fr.b
	tags := []string{tagA, "ACQ_REL", tagRMW, tagX}
	r := l.fresh("once")
	b.emit(prog.RMW{Dst: r, Addr: flag, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Int(0)}, New: prog.Int(1), RTags: mutexWord(tags), WTags: tags})
	wait, done := l.label("oncewait"), l.label("oncedone")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: r}, Y: prog.Int(0)}, Target: wait})
	if err := l.lowerFunc(b, f, nil, "", cs.fr.depth+1, cs.pos); err != nil {
		return err
	}
	b.emit(prog.Store{Addr: flag, Val: prog.Int(2), Tags: mutexWord([]string{tagA, "REL"})})
	b.emit(prog.Jump{Target: done})
	b.emit(prog.Label{Name: wait})
	w := l.fresh("once")
	b.emit(prog.Load{Dst: w, Addr: flag, Tags: mutexWord([]string{tagA, "ACQ"})})
	site := spinSite{pos: cs.pos, real: true}
	site.add(w, flag)
	l.spinAt(b, site)
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: w}, Y: prog.Int(2)}, Target: spinLabel})
	b.emit(prog.Label{Name: done})
	cs.returnZero()
	return nil
}
