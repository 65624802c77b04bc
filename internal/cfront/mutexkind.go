package cfront

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
)

// This file reads the kind a program asks of a mutex. A mutex here is a
// word taken by a compare-and-swap from 0 to 1 (pthread.go): a thread
// that locks it again waits forever. That is what POSIX says of a normal
// (or default) mutex, but a recursive mutex lets its owner lock it again
// and an error-checking one returns EDEADLK: lowered as a normal one,
// the thread that relocks would block, the rest of its path would never
// be explored, and an assertion after it would never be checked (a
// silent PASS). So a recursive or error-checking kind is refused by
// name; the normal, default and adaptive ones are lowered as they were.

// glibc's kinds: PTHREAD_MUTEX_NORMAL and DEFAULT are 0, RECURSIVE 1,
// ERRORCHECK 2, ADAPTIVE_NP 3 (a normal mutex that spins first); C11's
// mtx_plain is 0, mtx_recursive 1, mtx_timed 2.
const (
	mutexRecursive  = 1
	mutexErrorCheck = 2
	mtxRecursive    = 1
)

// mutexAttrType lowers pthread_mutexattr_settype: no event for a normal
// kind, refused for the others.
func (l *lowerer) mutexAttrType(cs *callSite) error {
	if len(cs.args) < 2 {
		return l.errAt(cs.pos, "%s: missing argument 2", cs.name)
	}
	k, ok := cs.args[1].(*constant.Int)
	if !ok {
		return l.errAt(cs.pos, "%s with a kind that is not a constant (unsupported: only normal and default mutexes are)", cs.name)
	}
	switch k.X.Int64() {
	case mutexRecursive:
		return l.errAt(cs.pos, "%s(PTHREAD_MUTEX_RECURSIVE): a recursive mutex is not supported (a relock would wait forever here)", cs.name)
	case mutexErrorCheck:
		return l.errAt(cs.pos, "%s(PTHREAD_MUTEX_ERRORCHECK): an error-checking mutex is not supported (a relock would wait forever here, not return EDEADLK)", cs.name)
	}
	return l.noEvent(cs)
}

// mtxInit lowers C11's mtx_init as pthread_mutex_init; a recursive kind
// is refused.
func (l *lowerer) mtxInit(cs *callSite) error {
	if len(cs.args) >= 2 {
		k, ok := cs.args[1].(*constant.Int)
		if !ok {
			return l.errAt(cs.pos, "mtx_init with a kind that is not a constant (unsupported)")
		}
		if k.X.Int64()&mtxRecursive != 0 {
			return l.errAt(cs.pos, "mtx_init(mtx_recursive): a recursive mutex is not supported (a relock would wait forever here)")
		}
	}
	return l.mutexInit(cs)
}

// staticMutexKind refuses a global initialised with glibc's
// PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP or
// PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP (the kind, the fifth int of
// struct __pthread_mutex_s, is 1 or 2 in the initializer), anywhere in
// its initial value (a mutex in a struct or an array too), for the
// reason mutexAttrType gives.
func (l *lowerer) staticMutexKind(g *ir.Global) error {
	var walk func(c constant.Constant) error
	walk = func(c constant.Constant) error {
		switch c := c.(type) {
		case *constant.Struct:
			if c.Typ != nil && c.Typ.Name() == "struct.__pthread_mutex_s" && len(c.Fields) > 4 {
				if k, ok := c.Fields[4].(*constant.Int); ok {
					switch k.X.Int64() {
					case mutexRecursive:
						return l.errAt(l.globalPos(g), "%s: PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP: a recursive mutex is not supported (a relock would wait forever here)", g.Name())
					case mutexErrorCheck:
						return l.errAt(l.globalPos(g), "%s: PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP: an error-checking mutex is not supported (a relock would wait forever here, not return EDEADLK)", g.Name())
					}
				}
			}
			for _, f := range c.Fields {
				if err := walk(f); err != nil {
					return err
				}
			}
		case *constant.Array:
			for _, e := range c.Elems {
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if g.Init == nil {
		return nil
	}
	return walk(g.Init)
}
