package cfront

import (
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the kinds of mutex: normal (or default), recursive
// and error-checking.
//
// A program that never asks for a recursive or error-checking mutex
// keeps the plain lowering of pthread.go: the lock word is 0 when free
// and 1 when held, a lock is a compare-and-swap from 0 to 1 that must
// succeed, an unlock a release store of 0 (so an unlock by a thread that
// does not hold the mutex is not reported, nor anywhere: see unlock).
//
// A program that asks for one anywhere (pthread_mutexattr_settype with
// PTHREAD_MUTEX_RECURSIVE, PTHREAD_MUTEX_ERRORCHECK or a kind that is
// not a constant; mtx_init with mtx_recursive or a type that is not a
// constant; a global initialised with glibc's
// PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP or
// PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP) has every mutex lowered with
// an owner and a count ("owned" mutexes), as POSIX (IEEE Std 1003.1,
// pthread_mutex_lock) and glibc give them. The lock word holds
//
//	w = kind*2^20 + owner*2^12 + count
//
// with kind 0 (normal), 1 (recursive) or 2 (error-checking), owner the
// holding thread's number plus one (0: free) and count the number of
// locks the owner has not yet unlocked (0 when free; at most 2^12-1).
// Every thread's number is known when its code is lowered (at most
// maxThreads+1 < 2^8), so every question on the word is a union of
// constant ranges (one per kind): "free" is w in [k*2^20, k*2^20+2^12),
// "held by me" is w in [k*2^20 + me*2^12, k*2^20 + (me+1)*2^12). The
// SMT engine encodes them in linear arithmetic, without the division
// and remainder a packing in low bits would need (a first version with
// w mod 1024 took 8 times the CPU time of the plain lowering).
//
//   - lock: one read-modify-write (acquire) that succeeds when the
//     mutex is free (it writes w + me*2^12 + 1) or when the caller owns
//     a recursive one (it writes w + 1). Otherwise nothing is written:
//     an error-checking mutex
//     held by the caller returns EDEADLK (35) at once; in every other
//     case the thread waits (stops there, a spin site as pthread.go's
//     lock: the owner of a normal mutex that locks it again waits for
//     itself forever, which -liveness reports).
//   - trylock: the same read-modify-write; when it writes nothing,
//     EBUSY (glibc returns EBUSY, not EDEADLK, for an error-checking
//     mutex its caller holds) or C11's thrd_busy. timedlock: as lock,
//     but a wait is a time-out (ETIMEDOUT, thrd_timedout), as
//     posixsync.go's timed forms are.
//   - unlock: a relaxed read of the word and, when the caller owns the
//     mutex, a release write of w − 1, or of the kind alone when the
//     count was 1 (w − me*2^12 − 1): the mutex is free again (a read and
//     a write, not a read-modify-write: see below why nothing can come
//     between them; a release read-modify-write followed by a plain
//     read made the graph engine refuse aarch64 programs as load
//     buffering it does not explore). When the
//     caller does not own it: a recursive or error-checking mutex
//     returns EPERM (1) and nothing changes (POSIX; C11's mtx_unlock
//     returns thrd_error), which the program sees and Musket does not
//     report; a normal mutex is released (a release write of 0), as
//     glibc does (its unlock of a normal mutex writes "free" without
//     looking at the owner) and as the plain lowering does (a store of
//     0). POSIX leaves that unlock undefined (and C11 7.26.4.6 every
//     mtx_unlock of a mutex the caller does not hold); GenMC reports it
//     ("unlock() not matched by a lock of the same thread"), SV-COMP's
//     verifiers (no property names it) and Dartagnan (a store of 0) do
//     not. Musket does not, in every program: reporting it needs the
//     owner in every mutex word, which cmutex measured at up to 4 times
//     the CPU time (power) and which would make symmetric threads'
//     code differ; before, only programs that asked for a mutex kind
//     reported it, so the same unlock was or was not a failure
//     depending on another mutex of the program. A condition wait on a
//     mutex the caller does not hold is treated alike.
//   - pthread_mutex_init writes the kind read from its attribute (a
//     pthread_mutexattr_t: one int that pthread_mutexattr_init sets to
//     0 and pthread_mutexattr_settype to the kind; NULL: normal);
//     mtx_init writes kind 1 for mtx_recursive, else 0; a static
//     initializer starts the word at its kind (glibc keeps it in a further
//     field, __kind, which Musket does not read). Kind 3
//     (PTHREAD_MUTEX_ADAPTIVE_NP, a normal mutex that spins first) is
//     normal.
//   - A condition wait gives back one level of the mutex (the unlock
//     above) and takes it again (the lock above), as glibc's waits do.
//
// Why the unlock's read cannot mislead: only the owner writes the word
// while it is held (the others' lock read-modify-writes fail and write
// nothing, since no two read-modify-writes read the same write; a
// non-owner's unlock of a recursive or error-checking mutex writes
// nothing; a non-owner's unlock of a normal one writes 0, after which the
// owner's unlock reads a word that is not its own and writes 0 again, as
// glibc's unconditional write does), and its own lock write is before
// its unlock in program order, so by coherence its unlock reads its own
// latest write: "held by me" is read exactly when the caller holds the
// mutex, and no write comes between that read and the unlock's write
// (which is therefore as atomic as a read-modify-write). A thread that
// does not hold it never reads its own number there, whatever value it
// reads. Spin locks (pthread_spin_*),
// read-write locks and the hidden lock of SV-COMP's atomic sections keep
// the plain lowering.

// glibc's kinds: PTHREAD_MUTEX_NORMAL and DEFAULT are 0, RECURSIVE 1,
// ERRORCHECK 2, ADAPTIVE_NP 3 (a normal mutex that spins first); C11's
// mtx_plain is 0, mtx_recursive 1, mtx_timed 2.
const (
	mutexRecursive  = 1
	mutexErrorCheck = 2
	mtxRecursive    = 1
)

// The parts of an owned mutex's word, and the error codes.
const (
	ownerUnit = 1 << 12 // w = kind*kindUnit + owner*ownerUnit + count
	kindUnit  = 1 << 20 // owner < kindUnit/ownerUnit
	errEPERM  = 1
	errEBUSY  = 16
	errEDEAD  = 35
	errETIME  = 110
)

// ownedMutexes tells whether the program asks for a recursive or an
// error-checking mutex anywhere (see the top of the file); decided once,
// before any thread is lowered.
func (l *lowerer) ownedMutexes() bool {
	if l.owned == 0 {
		l.owned = 1
		if forceOwnedMutexes || l.asksMutexKind() {
			l.owned = 2
		}
	}
	return l.owned == 2
}

// forceOwnedMutexes lowers every program's mutexes as owned ones (a
// test's switch: TestOwnedSame compares both lowerings).
var forceOwnedMutexes = false

// asksMutexKind scans the program for a call or initializer asking for
// a recursive or error-checking mutex.
func (l *lowerer) asksMutexKind() bool {
	for _, g := range l.mod.Globals {
		if g.Init != nil && staticKind(g.Init) != 0 {
			return true
		}
	}
	for _, c := range moduleCalls(l.mod) {
		if len(c.Args) < 2 {
			continue
		}
		k, isConst := argValue(c.Args[1]).(*constant.Int)
		switch calleeName(c) {
		case "pthread_mutexattr_settype":
			if !isConst || (k.X.Int64() != 0 && k.X.Int64() != 3) {
				return true
			}
		case "mtx_init":
			if !isConst || k.X.Int64()&mtxRecursive != 0 {
				return true
			}
		}
	}
	return false
}

// normKind is the kind of an owned mutex for a pthread kind k: 1 or 2,
// else 0 (normal, default, adaptive).
func normKind(k prog.Expr) prog.Expr {
	if c, ok := k.(prog.Const); ok && !c.V.IsAddr() {
		if c.V.Int == mutexRecursive || c.V.Int == mutexErrorCheck {
			return k
		}
		return prog.Int(0)
	}
	one := prog.Bin{Op: prog.OpEq, X: k, Y: prog.Int(mutexRecursive)}
	two := prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpEq, X: k, Y: prog.Int(mutexErrorCheck)}, Y: prog.Int(2)}
	return prog.Bin{Op: prog.OpAdd, X: one, Y: two}
}

// mutexAttrInit lowers pthread_mutexattr_init: the attribute's kind is
// normal (owned mutexes only; else no event).
func (l *lowerer) mutexAttrInit(cs *callSite) error {
	if !l.ownedMutexes() {
		return l.noEvent(cs)
	}
	a, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	cs.fr.b.emit(prog.Store{Addr: a, Val: prog.Int(0), Tags: mutexWord([]string{tagNA})})
	cs.returnZero()
	return nil
}

// mutexAttrType lowers pthread_mutexattr_settype: the kind written into
// the attribute (owned mutexes only; else no event: every kind is then
// normal, default or adaptive).
func (l *lowerer) mutexAttrType(cs *callSite) error {
	if !l.ownedMutexes() {
		return l.noEvent(cs)
	}
	a, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	k, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	cs.fr.b.emit(prog.Store{Addr: a, Val: normKind(k), Tags: mutexWord([]string{tagNA})})
	cs.returnZero()
	return nil
}

// pthreadMutexInit lowers pthread_mutex_init: the kind of its attribute
// (NULL: normal) written into the word of an owned mutex.
func (l *lowerer) pthreadMutexInit(cs *callSite) error {
	if !l.ownedMutexes() {
		return l.mutexInit(cs)
	}
	m, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	var kind prog.Expr = prog.Int(0)
	if len(cs.args) > 1 {
		if _, null := cs.args[1].(*constant.Null); !null {
			a, err := l.arg(cs, 1)
			if err != nil {
				return err
			}
			r := l.fresh("mattr")
			cs.fr.b.emit(prog.Load{Dst: r, Addr: a, Tags: mutexWord([]string{tagNA})})
			kind = prog.Bin{Op: prog.OpMul, X: normKind(prog.Reg{Name: r}), Y: prog.Int(kindUnit)}
		}
	}
	cs.fr.b.emit(prog.Store{Addr: m, Val: kind, Tags: mutexWord([]string{tagNA})})
	cs.returnZero()
	return nil
}

// mtxInit lowers C11's mtx_init: kind 1 for mtx_recursive, else 0
// (glibc makes mtx_plain and mtx_timed normal mutexes); thrd_success.
func (l *lowerer) mtxInit(cs *callSite) error {
	if !l.ownedMutexes() {
		return l.mutexInit(cs)
	}
	m, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	var kind prog.Expr = prog.Int(0)
	if len(cs.args) > 1 {
		t, err := l.arg(cs, 1)
		if err != nil {
			return err
		}
		if c, ok := t.(prog.Const); ok && !c.V.IsAddr() {
			kind = prog.Int((c.V.Int & mtxRecursive) * kindUnit)
		} else {
			kind = prog.Bin{Op: prog.OpMul, X: umod(t, 2), Y: prog.Int(kindUnit)}
		}
	}
	cs.fr.b.emit(prog.Store{Addr: m, Val: kind, Tags: mutexWord([]string{tagNA})})
	cs.returnZero()
	return nil
}

// inRange is lo <= w < hi.
func inRange(w prog.Expr, lo, hi int64) prog.Expr {
	return prog.Bin{Op: prog.OpLAnd, X: prog.Bin{Op: prog.OpGe, X: w, Y: prog.Int(lo)}, Y: prog.Bin{Op: prog.OpLt, X: w, Y: prog.Int(hi)}}
}

// ownerIs is "the word w of a mutex of one of kinds has owner o" (0:
// free).
func ownerIs(w prog.Expr, o int64, kinds ...int64) prog.Expr {
	var e prog.Expr
	for _, k := range kinds {
		lo := k*kindUnit + o*ownerUnit
		r := inRange(w, lo, lo+ownerUnit)
		if e == nil {
			e = r
		} else {
			e = prog.Bin{Op: prog.OpLOr, X: e, Y: r}
		}
	}
	return e
}

var allKinds = []int64{0, mutexRecursive, mutexErrorCheck}

// heldBy is "the word w says thread me (its number plus one) holds it".
func heldBy(w prog.Expr, me int64) prog.Expr { return ownerIs(w, me, allKinds...) }

// lockTaken is the condition under which a lock by thread me of the word
// w takes it: free, or a recursive mutex me holds.
func lockTaken(w prog.Expr, me int64) prog.Expr {
	return prog.Bin{Op: prog.OpLOr, X: ownerIs(w, 0, allKinds...), Y: ownerIs(w, me, mutexRecursive)}
}

// ownedLockRMW emits the read-modify-write of a lock of the owned mutex
// at m by the thread being lowered (see the top of the file); the
// register returned holds the word read, and the condition under which
// it was taken, over that register.
func (l *lowerer) ownedLockRMW(b *builder, m prog.Expr) (string, prog.Expr) {
	me := int64(l.curThread + 1)
	r := l.fresh("mtx")
	nw := prog.Bin{Op: prog.OpAdd, X: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)},
		Y: prog.Bin{Op: prog.OpMul, X: ownerIs(prog.Old{}, 0, allKinds...), Y: prog.Int(ownerUnit * me)}}
	b.emit(prog.RMW{Dst: r, Addr: m, Cond: lockTaken(prog.Old{}, me), New: nw, RTags: mutexWord(lockTags()), WTags: lockTags()})
	return r, lockTaken(prog.Reg{Name: r}, me)
}

// deadBy is "the word w is an error-checking mutex held by thread me".
func deadBy(w prog.Expr, me int64) prog.Expr { return ownerIs(w, me, mutexErrorCheck) }

// ownedLock lowers pthread_mutex_lock and mtx_lock of an owned mutex:
// 0, EDEADLK (an error-checking mutex the caller holds; pthread only), or
// the thread waits.
func (l *lowerer) ownedLock(cs *callSite) error {
	m, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	l.ownedLockAt(cs.fr.b, m, cs.pos, cs.dst, cs.name != "mtx_lock")
	return nil
}

// ownedLockAt emits a lock of the owned mutex at m; dst ("" for none)
// gets 0 or EDEADLK (thrd_error, 2, for C11: never met, C11 has no
// error-checking kind).
func (l *lowerer) ownedLockAt(b *builder, m prog.Expr, pos prog.Pos, dst string, posix bool) {
	me := int64(l.curThread + 1)
	r, taken := l.ownedLockRMW(b, m)
	rr := prog.Reg{Name: r}
	dead, done := l.label("edeadlk"), l.label("locked")
	b.emit(prog.Jump{Cond: deadBy(rr, me), Target: dead})
	site := spinSite{pos: pos, real: true}
	site.add(r, m)
	l.spinAt(b, site)
	b.emit(prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: taken}, Target: spinLabel})
	if dst != "" {
		b.emit(prog.Assign{Dst: dst, Val: prog.Int(0)})
	}
	b.emit(prog.Jump{Target: done})
	b.emit(prog.Label{Name: dead})
	if dst != "" {
		code := int64(errEDEAD)
		if !posix {
			code = 2 // thrd_error
		}
		b.emit(prog.Assign{Dst: dst, Val: prog.Int(code)})
	}
	b.emit(prog.Label{Name: done})
}

// ownedTryLock lowers the try and timed forms on an owned mutex: the
// lock's read-modify-write; when it writes nothing, the call's code
// (EBUSY, thrd_busy, ETIMEDOUT, thrd_timedout; a timed lock of an
// error-checking mutex its caller holds: EDEADLK).
func (l *lowerer) ownedTryLock(cs *callSite) error {
	m, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	me := int64(l.curThread + 1)
	b := cs.fr.b
	r, taken := l.ownedLockRMW(b, m)
	if cs.dst == "" {
		return nil
	}
	var code int64
	switch cs.name {
	case "mtx_trylock":
		code = 1 // thrd_busy
	case "mtx_timedlock":
		code = 4 // thrd_timedout
	case "pthread_mutex_timedlock":
		code = errETIME
	default:
		code = errEBUSY
	}
	var v prog.Expr = prog.Bin{Op: prog.OpMul, X: prog.Un{Op: prog.OpNot, X: taken}, Y: prog.Int(code)}
	if cs.name == "pthread_mutex_timedlock" {
		// EDEADLK rather than ETIMEDOUT: + (35-110)*dead.
		v = prog.Bin{Op: prog.OpAdd, X: v, Y: prog.Bin{Op: prog.OpMul, X: deadBy(prog.Reg{Name: r}, me), Y: prog.Int(errEDEAD - errETIME)}}
	}
	b.emit(prog.Assign{Dst: cs.dst, Val: v})
	return nil
}

// ownedUnlock lowers pthread_mutex_unlock and mtx_unlock of an owned
// mutex (see the top of the file).
func (l *lowerer) ownedUnlock(cs *callSite) error {
	m, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	return l.ownedUnlockAt(cs.fr.b, m, cs.pos, cs.dst, cs.name == "mtx_unlock")
}

// ownedUnlockAt emits an unlock of the owned mutex at m by the thread
// being lowered; dst ("" for none) gets 0, or EPERM (thrd_error when
// c11) when the caller does not hold a recursive or error-checking
// mutex.
func (l *lowerer) ownedUnlockAt(b *builder, m prog.Expr, pos prog.Pos, dst string, c11 bool) error {
	me := int64(l.curThread + 1)
	r := l.fresh("mtx")
	// A relaxed read of the word, then, when the caller holds it, a
	// release write of the word less one lock (see the top of the file
	// for why no read-modify-write is needed).
	b.emit(prog.Load{Dst: r, Addr: m, Tags: mutexWord([]string{tagA, "RLX"})})
	rr := prog.Reg{Name: r}
	// The count was 1: w is k*2^20 + me*2^12 + 1 for some kind k.
	var last prog.Expr
	for _, k := range allKinds {
		e := prog.Bin{Op: prog.OpEq, X: rr, Y: prog.Int(k*kindUnit + me*ownerUnit + 1)}
		if last == nil {
			last = e
		} else {
			last = prog.Bin{Op: prog.OpLOr, X: last, Y: e}
		}
	}
	nw := prog.Bin{Op: prog.OpSub, X: prog.Bin{Op: prog.OpSub, X: rr, Y: prog.Int(1)},
		Y: prog.Bin{Op: prog.OpMul, X: last, Y: prog.Int(ownerUnit * me)}}
	ok, store, done := l.label("unlocked"), l.label("unlockstore"), l.label("unlockdone")
	v := l.fresh("mtxw") // the word written: one write on both ways
	b.emit(prog.Jump{Cond: heldBy(rr, me), Target: ok})
	// Not held by the caller: EPERM for a recursive or error-checking
	// mutex (thrd_error for C11's mtx_unlock); a normal one is released
	// (POSIX leaves it undefined; glibc's unlock writes "free" whoever
	// calls it, as the plain lowering's store of 0 does: see the top of
	// the file).
	eperm := l.label("eperm")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: rr, Y: prog.Int(kindUnit)}, Target: eperm})
	b.emit(prog.Assign{Dst: v, Val: prog.Int(0)})
	b.emit(prog.Jump{Target: store})
	b.emit(prog.Label{Name: ok})
	b.emit(prog.Assign{Dst: v, Val: nw})
	b.emit(prog.Label{Name: store})
	// (One store for both ways rather than one on each: two made the
	// SMT engine's encoding of cmx/rmutex.c under power twice as slow.)
	b.emit(prog.Store{Addr: m, Val: prog.Reg{Name: v}, Tags: mutexWord([]string{tagA, "REL"})})
	if dst != "" {
		b.emit(prog.Assign{Dst: dst, Val: prog.Int(0)})
	}
	b.emit(prog.Jump{Target: done})
	b.emit(prog.Label{Name: eperm})
	if dst != "" {
		code := int64(errEPERM)
		if c11 {
			code = thrdError
		}
		b.emit(prog.Assign{Dst: dst, Val: prog.Int(code)})
	}
	b.emit(prog.Label{Name: done})
	return nil
}

// mutexLockCall, mutexUnlockCall, mutexTryCall lower the calls of
// pthread_mutex_* and mtx_*: owned mutexes when the program asks for a
// kind (see the top of the file), else the plain lowering of pthread.go.
func (l *lowerer) mutexLockCall(cs *callSite) error {
	if l.ownedMutexes() {
		return l.ownedLock(cs)
	}
	return l.mutexLock(cs)
}

func (l *lowerer) mutexUnlockCall(cs *callSite) error {
	if l.ownedMutexes() {
		return l.ownedUnlock(cs)
	}
	return l.mutexUnlock(cs)
}

func (l *lowerer) mutexTryCall(cs *callSite) error {
	if l.ownedMutexes() {
		return l.ownedTryLock(cs)
	}
	switch cs.name {
	case "mtx_trylock":
		return l.mtxTryLock(cs)
	case "pthread_mutex_timedlock", "mtx_timedlock":
		return l.timedLock(cs)
	}
	return l.mutexTryLock(cs)
}

// staticKind is the kind a glibc static initializer gives the first
// mutex found in c (PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP: 1,
// PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP: 2; the kind is the fifth int
// of struct __pthread_mutex_s), or 0.
func staticKind(c constant.Constant) int64 {
	switch c := c.(type) {
	case *constant.Struct:
		if k := mutexStructKind(c); k != 0 {
			return k
		}
		for _, f := range c.Fields {
			if k := staticKind(f); k != 0 {
				return k
			}
		}
	case *constant.Array:
		for _, e := range c.Elems {
			if k := staticKind(e); k != 0 {
				return k
			}
		}
	}
	return 0
}

// mutexStructKind is the kind of a struct __pthread_mutex_s constant
// (1 or 2), else 0.
func mutexStructKind(c *constant.Struct) int64 {
	if c.Typ == nil || c.Typ.Name() != "struct.__pthread_mutex_s" || len(c.Fields) <= 4 {
		return 0
	}
	if k, ok := c.Fields[4].(*constant.Int); ok && (k.X.Int64() == mutexRecursive || k.X.Int64() == mutexErrorCheck) {
		return k.X.Int64()
	}
	return 0
}

// ownedInit is the initial value of a global for owned mutexes: every
// mutex of a recursive or error-checking static initializer in it has
// its lock word (the first int) set to its kind (see the top of the
// file). Other constants are returned as they are.
func ownedInit(c constant.Constant) constant.Constant {
	switch c := c.(type) {
	case *constant.Struct:
		if k := mutexStructKind(c); k != 0 {
			fs := append([]constant.Constant(nil), c.Fields...)
			fs[0] = constant.NewInt(types.I32, k*kindUnit)
			n := *c
			n.Fields = fs
			return &n
		}
		var fs []constant.Constant
		for i, f := range c.Fields {
			if g := ownedInit(f); g != f {
				if fs == nil {
					fs = append([]constant.Constant(nil), c.Fields...)
				}
				fs[i] = g
			}
		}
		if fs != nil {
			n := *c
			n.Fields = fs
			return &n
		}
	case *constant.Array:
		var es []constant.Constant
		for i, e := range c.Elems {
			if g := ownedInit(e); g != e {
				if es == nil {
					es = append([]constant.Constant(nil), c.Elems...)
				}
				es[i] = g
			}
		}
		if es != nil {
			n := *c
			n.Elems = es
			return &n
		}
	}
	return c
}
