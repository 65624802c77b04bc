package smt

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "shim.h"
#include "z3load.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Context is a Z3 context: the factory and owner of all terms, solvers and
// models created from it. A Context must be used by one goroutine at a time
// (see the package documentation); only Interrupt may be called
// concurrently. Every NewContext must be paired with a Close.
type Context struct {
	z C.Z3_context // nil after Close; read and written by the owner only

	imu sync.Mutex   // guards iz against a concurrent Close
	iz  C.Z3_context // copy of z for Interrupt

	rq      *releaseQueue
	live    []C.musket_obj // by slot: the objects Go holds a reference on ({nil, 0}: a free slot; owner only)
	free    []uint32       // free slots of live (owner only)
	spare   []uint32       // drained batch buffer, reused (owner only)
	batch   []C.musket_obj // objects to release, reused (owner only)
	scratch []C.Z3_ast     // argument buffer for n-ary calls (owner only)
	nfreed  uint64         // objects released by drain so far (owner only; for tests)
	// arith: an integer or real term was made (acyclic.go's guard).
	arith bool
	arena bool          // objects are released by Close only (NewArenaContext)
	props []*acycTheory // acyclicity theories of its solvers, freed by Close
}

// releaseQueue collects Z3 objects whose Go handles became unreachable.
// Cleanups (which run on a runtime goroutine) only append to it; the owner
// goroutine drains it. It is a separate allocation so that pending
// cleanups do not keep the Context itself reachable.
type releaseQueue struct {
	pending atomic.Bool
	mu      sync.Mutex
	closed  bool
	slots   []uint32 // slots of Context.live to release
}

// release is the argument of a cleanup: which object to hand back to Z3.
type release struct {
	q    *releaseQueue
	slot uint32 // index in Context.live
}

func releaseObj(r release) {
	r.q.mu.Lock()
	if !r.q.closed {
		r.q.slots = append(r.q.slots, r.slot)
		r.q.pending.Store(true)
	}
	r.q.mu.Unlock()
}

// track registers the Z3 object ptr, on which the caller holds one
// reference, in the context's table of live objects, and a cleanup on
// handle that releases it.
func track[T any](c *Context, handle *T, kind C.int, ptr unsafe.Pointer) {
	o := C.musket_obj{ptr: ptr, kind: kind}
	var slot uint32
	if n := len(c.free); n > 0 {
		slot = c.free[n-1]
		c.free = c.free[:n-1]
		c.live[slot] = o
	} else {
		slot = uint32(len(c.live))
		c.live = append(c.live, o)
	}
	if !c.arena {
		runtime.AddCleanup(handle, releaseObj, release{q: c.rq, slot: slot})
	}
}

// lifecycleMu serialises context creation: Z3 initialises process-wide
// state (symbol table, global parameters) lazily there. It is not held
// while a context is deleted: freeing a large encoding takes tens of
// seconds, and a check that starts meanwhile (the next program of a
// batch, after an earlier one ran out of time and is freed in the
// background) must not wait for it. Z3's memory manager is safe for
// concurrent use by different contexts.
var lifecycleMu sync.Mutex

// NewContext creates a Z3 context with reference-counted terms, model
// generation enabled and an error handler that never aborts the process.
// It panics only if Z3 cannot allocate a context at all.
func NewContext() *Context {
	c, err := TryNewContext()
	if err != nil {
		panic(err)
	}
	return c
}

// TryNewContext is NewContext returning an *Error (MemoutFail) when Z3
// cannot allocate a context, as under a small memory limit (-memory):
// the check that wanted it reports the memory limit instead of crashing.
func TryNewContext() (*Context, error) {
	if err := loadZ3(); err != nil {
		return nil, err
	}
	lifecycleMu.Lock()
	z := C.musket_mk_context()
	lifecycleMu.Unlock()
	if z == nil {
		return nil, &Error{Op: "NewContext", Code: MemoutFail, Msg: "Z3 could not create a context"}
	}
	return &Context{z: z, iz: z, rq: &releaseQueue{}}, nil
}

// TryNewArenaContext is NewArenaContext returning TryNewContext's error.
func TryNewArenaContext() (*Context, error) {
	c, err := TryNewContext()
	if err != nil {
		return nil, err
	}
	c.arena = true
	return c, nil
}

// NewArenaContext is NewContext for a context whose objects live as long
// as it does, as the terms of an encoding do: they are released by Close
// only, never when their Go handles become unreachable. That saves a
// cleanup registration per object (a sixth of the time of encoding a
// program under a memory model), at the price of holding every object
// until Close: a context asked many unrelated questions wants NewContext.
func NewArenaContext() *Context {
	c := NewContext()
	c.arena = true
	return c
}

// Close deletes the Z3 context, freeing every term, solver and model
// created from it. Using any of them afterwards panics with *Error.
// Close is idempotent.
func (c *Context) Close() {
	if c == nil || c.z == nil {
		return
	}
	c.rq.mu.Lock()
	c.rq.closed = true
	c.rq.slots = nil
	c.rq.pending.Store(false)
	c.rq.mu.Unlock()

	c.imu.Lock()
	c.iz = nil
	c.imu.Unlock()

	// Every reference Go still holds is released before the context is
	// deleted: Z3 then frees the terms by reference counting, in time
	// linear in their number. Z3_del_context alone frees the terms still
	// referenced in passes over its whole term table, one pass per level
	// of nesting, which took a third of the time of checking Szymanski's
	// mutual exclusion under ARMv7 (0.3 s of 0.9 s).
	batch := c.batch[:0]
	for i := len(c.live) - 1; i >= 0; i-- {
		if c.live[i].ptr != nil {
			batch = append(batch, c.live[i])
		}
	}
	uncapped(func() {
		if len(batch) > 0 {
			C.musket_release(c.z, &batch[0], C.size_t(len(batch)))
		}
		C.Z3_del_context(c.z)
	})
	for _, t := range c.props {
		t.free()
	}
	c.props = nil
	c.z = nil
	c.live = nil
	c.free = nil
	c.spare = nil
	c.batch = nil
	c.scratch = nil
}

// Interrupt asks Z3 to stop the operation currently running in this
// context (typically a Check, which then returns Unknown with reason
// "interrupted"; Simplify returns its argument unchanged). It may be called from any goroutine, and is a no-op after
// Close. An Interrupt that arrives while nothing is running is lost; use
// Solver.CheckContext for cancellation without that race.
func (c *Context) Interrupt() {
	c.imu.Lock()
	if c.iz != nil {
		C.Z3_interrupt(c.iz)
	}
	c.imu.Unlock()
}

// enter must start every operation that calls into Z3: it rejects a
// closed context and releases the objects queued by cleanups. It must run
// before the operation extracts the C pointers of its arguments.
func (c *Context) enter(op string) {
	if c.z == nil {
		panic(&Error{Op: op, Code: InvalidUsage, Msg: "context is closed"})
	}
	if c.rq.pending.Load() {
		c.drain()
	}
}

func (c *Context) drain() {
	q := c.rq
	q.mu.Lock()
	slots := q.slots
	q.slots = c.spare
	q.pending.Store(false)
	q.mu.Unlock()
	batch := c.batch[:0]
	for _, s := range slots {
		batch = append(batch, c.live[s])
		c.live[s] = C.musket_obj{}
		c.free = append(c.free, s)
	}
	if len(batch) > 0 {
		C.musket_release(c.z, &batch[0], C.size_t(len(batch)))
		c.nfreed += uint64(len(batch))
	}
	clear(batch)
	if cap(batch) > 1<<16 {
		batch = nil
	}
	c.batch = batch[:0]
	if cap(slots) > 1<<16 {
		slots = nil
	}
	c.spare = slots[:0]
}

// arg returns the C handle of t, checking that it belongs to c.
func (c *Context) arg(op string, t Term) C.Z3_ast {
	if t.r == nil {
		panic(&Error{Op: op, Code: InvalidArg, Msg: "zero Term"})
	}
	if t.r.ctx != c {
		panic(&Error{Op: op, Code: InvalidArg, Msg: "Term belongs to a different Context"})
	}
	return t.r.ast
}

// args copies the C handles of ts into the scratch buffer. The result is
// valid until the next call of args.
func (c *Context) args(op string, ts []Term) *C.Z3_ast {
	if len(ts) == 0 {
		return nil
	}
	if cap(c.scratch) > 1<<12 && len(ts) <= 1<<12 {
		c.scratch = nil // do not keep a huge buffer alive forever
	}
	c.scratch = c.scratch[:0]
	for _, t := range ts {
		c.scratch = append(c.scratch, c.arg(op, t))
	}
	return &c.scratch[0]
}

// error builds the *Error for a Z3 error code reported by the C side.
func (c *Context) error(op string, code C.int) *Error {
	msg := ""
	if c.z != nil {
		if s := C.musket_error_msg(c.z, code); s != nil {
			msg = C.GoString(s)
		}
	}
	return &Error{Op: op, Code: ErrorCode(code), Msg: msg}
}

// AllocatedBytes returns Z3's estimate of the memory it currently has
// allocated, over all contexts of the process.
func AllocatedBytes() uint64 {
	if C.musket_z3_loaded() == 0 {
		return 0 // no context was ever made
	}
	return uint64(C.Z3_get_estimated_alloc_size())
}

// Version returns the full version of the Z3 library, e.g. "4.8.12.0"
// (loading it), or why it cannot be loaded.
func Version() string {
	if err := loadZ3(); err != nil {
		return "not available: " + err.Error()
	}
	return C.GoString(C.Z3_get_full_version())
}

// z3Mu guards the loading of libz3 and the memory limit waiting for it.
var z3Mu sync.Mutex

// z3PendingLimit is the memory limit set before libz3 was loaded (see
// setZ3MemoryLimit); z3HasPending says whether there is one.
var (
	z3PendingLimit int64
	z3HasPending   bool
)

// loadZ3 loads libz3 the first time the SMT engine needs it (a run that
// never uses the engine does not load it: z3lazy.c), and gives it the
// memory limit set so far. The error is an *Error (Code Exception) when
// the library cannot be loaded.
func loadZ3() error {
	if C.musket_z3_loaded() != 0 {
		return nil
	}
	z3Mu.Lock()
	defer z3Mu.Unlock()
	if e := C.musket_z3_load(); e != nil {
		return &Error{Op: "load", Code: Exception, Msg: C.GoString(e)}
	}
	if z3HasPending {
		z3Want = z3PendingLimit
		applyZ3MemoryLimit(z3PendingLimit)
		z3HasPending = false
	}
	return nil
}

// ErrorCode mirrors Z3_error_code.
type ErrorCode int

// Z3 error codes (the values of Z3_error_code).
const (
	OK              ErrorCode = iota // no error
	SortError                        // ill-sorted term
	IndexOutOfBound                  // index out of bounds
	InvalidArg                       // invalid argument
	ParserError                      // SMT-LIB parser error
	NoParser                         // no parser output
	InvalidPattern                   // invalid quantifier pattern
	MemoutFail                       // memory allocation failure
	FileAccessError                  // file not accessible
	InternalFatal                    // internal Z3 error
	InvalidUsage                     // call invalid in the current state
	DecRefError                      // dec_ref of a dead object
	Exception                        // Z3 exception; see Error.Msg
)

// The constants above must match z3_api.h (compile-time check).
var (
	_ = [1]struct{}{}[SortError-ErrorCode(C.Z3_SORT_ERROR)]
	_ = [1]struct{}{}[Exception-ErrorCode(C.Z3_EXCEPTION)]
)

var errorCodeNames = [...]string{
	OK:              "ok",
	SortError:       "sort error",
	IndexOutOfBound: "index out of bounds",
	InvalidArg:      "invalid argument",
	ParserError:     "parser error",
	NoParser:        "no parser",
	InvalidPattern:  "invalid pattern",
	MemoutFail:      "out of memory",
	FileAccessError: "file access error",
	InternalFatal:   "internal fatal error",
	InvalidUsage:    "invalid usage",
	DecRefError:     "dec_ref error",
	Exception:       "exception",
}

func (e ErrorCode) String() string {
	if e >= 0 && int(e) < len(errorCodeNames) {
		return errorCodeNames[e]
	}
	return fmt.Sprintf("ErrorCode(%d)", int(e))
}

// Error is the panic value for programming errors detected by this package
// or reported by Z3 (see the package documentation), and the error type
// returned by the few methods that return errors.
type Error struct {
	Op   string    // the method that failed, e.g. "And"
	Code ErrorCode // Z3's error code, or InvalidArg/InvalidUsage for checks done in Go
	Msg  string    // Z3's message, if any
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return "smt: " + e.Op + ": " + e.Code.String()
	}
	return "smt: " + e.Op + ": " + e.Code.String() + ": " + e.Msg
}

// sigintHandler returns the address of the process's current SIGINT
// handler (for the test that Z3 never replaces Go's).
func sigintHandler() uintptr { return uintptr(C.musket_sigint_handler()) }
