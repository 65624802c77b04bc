package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// errno. glibc's errno is (*__errno_location()), a thread-local int:
// __errno_location returns the calling thread's own errno, an object
// %errno.tlsN (N the thread, main's too) of value 0 at the thread's
// start, declared on first use. Before, the call was refused (no
// definition), and with it every program that reads or clears errno.
//
// Of the library functions Musket lowers, those that fail through errno
// set it: sem_trywait to EAGAIN and sem_timedwait to ETIMEDOUT when they
// return -1 (posixsync.go). The others report errors through their
// results (pthread's) or never fail here.

// glibc's values on Linux.
const (
	errEAGAIN    = 11
	errETIMEDOUT = 110
)

// errnoObject is the calling thread's errno, declared on first use.
func (l *lowerer) errnoObject(pos prog.Pos) (string, error) {
	name := fmt.Sprintf("%%errno.tls%d", l.curThread)
	if !l.locs[name] {
		if err := l.addObject(name, types.I32, nil, pos); err != nil {
			return "", err
		}
	}
	return name, nil
}

// errnoLocation lowers __errno_location: the address of the thread's
// errno.
func (l *lowerer) errnoLocation(cs *callSite) error {
	name, err := l.errnoObject(cs.pos)
	if err != nil {
		return err
	}
	if cs.dst != "" {
		cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: prog.Addr(name)})
	}
	return nil
}

// usesErrno tells whether the program reads or writes errno.
func (l *lowerer) usesErrno() bool {
	f := l.funcs["__errno_location"]
	return f != nil
}

// setErrnoIf emits: if failed, errno = code (a plain store to the
// thread's errno).
func (l *lowerer) setErrnoIf(b *builder, failed prog.Expr, code int64, pos prog.Pos) error {
	if !l.usesErrno() {
		return nil
	}
	name, err := l.errnoObject(pos)
	if err != nil {
		return err
	}
	skip := l.label("errno")
	b.emit(prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: failed}, Target: skip})
	b.emit(prog.Store{Addr: prog.Addr(name), Val: prog.Int(code), Tags: withSize([]string{tagNA}, types.I32)})
	b.emit(prog.Label{Name: skip})
	return nil
}
