package cfront

import (
	"github.com/musket-verify/musket/internal/prog"
)

// SV-COMP's atomic sections: __VERIFIER_atomic_begin() and
// __VERIFIER_atomic_end() around a block, and a function whose name
// starts with __VERIFIER_atomic_, whose body is one section. The
// benchmark suites use them around the counters and guards of their
// drivers (the pthread-wmm programs around every __unbuffered_cnt).
//
// A section is lowered as the critical section of one hidden lock,
// atomicSectionLoc, taken and released as pthread_mutex_lock and
// pthread_mutex_unlock are: sections exclude one another and are ordered
// by the lock (acquire, release), but an access outside every section may
// still come between a section's accesses. Where a location is only
// accessed inside sections — the suites' use — this is what an atomic
// section means; the help says so.

// atomicFuncPrefix starts the name of a function whose body is one
// atomic section.
const atomicFuncPrefix = "__VERIFIER_atomic_"

// atomicSectionLoc is the hidden lock of the atomic sections.
const atomicSectionLoc = "%atomic"

// atomicLockAddr declares the hidden lock (once) and gives its address.
func (l *lowerer) atomicLockAddr() prog.Expr {
	if !l.locs[atomicSectionLoc] {
		l.locs[atomicSectionLoc] = true
		l.init = append(l.init, initCell{name: atomicSectionLoc, size: 4})
	}
	return prog.Addr(atomicSectionLoc)
}

// atomicBegin lowers __VERIFIER_atomic_begin: the hidden lock taken
// (inside a __VERIFIER_atomic_ function, already held: nothing).
//
// Sections nest (a begin inside a section, a __VERIFIER_atomic_ function
// called inside begin/end): only the outermost takes the lock, which is
// not reentrant. The nesting is counted as the code is lowered, in the
// order of the function's blocks; where that is not the order of
// execution, a lock is left out rather than taken twice (a thread that
// waited on itself would hide every execution after it).
func (l *lowerer) atomicBegin(cs *callSite) error {
	if l.atomicFn == 0 && l.atomicBegun == 0 {
		l.lockAt(cs.fr.b, l.atomicLockAddr(), cs.pos)
	}
	if l.atomicFn == 0 {
		l.atomicBegun++
	}
	cs.returnZero()
	return nil
}

// atomicEnd lowers __VERIFIER_atomic_end: the hidden lock released.
func (l *lowerer) atomicEnd(cs *callSite) error {
	if l.atomicFn == 0 && l.atomicBegun > 0 {
		l.atomicBegun--
		if l.atomicBegun == 0 {
			cs.fr.b.emit(prog.Store{Addr: l.atomicLockAddr(), Val: prog.Int(0), Tags: []string{tagA, "REL"}})
		}
	}
	cs.returnZero()
	return nil
}

// atomicFunc lowers a call to a function named __VERIFIER_atomic_...
// that the program defines: its body inlined inside one section (a
// call from inside a section is inlined as it is).
func (l *lowerer) atomicFunc(cs *callSite) error {
	if l.atomicFn > 0 || l.atomicBegun > 0 {
		return l.inlineCall(cs)
	}
	if f := l.funcs[cs.name]; f == nil || len(f.Blocks) == 0 {
		return l.inlineCall(cs) // names what is missing
	}
	m := l.atomicLockAddr()
	l.lockAt(cs.fr.b, m, cs.pos)
	l.atomicFn++
	err := l.inlineCall(cs)
	l.atomicFn--
	if err != nil {
		return err
	}
	cs.fr.b.emit(prog.Store{Addr: m, Val: prog.Int(0), Tags: []string{tagA, "REL"}})
	return nil
}
