package smt

/*
#include <stdlib.h>
#include <z3.h>
#include "z3load.h"
*/
import "C"

import (
	"errors"
	"strconv"
	"unsafe"

	"github.com/musket-verify/musket/internal/memlimit"
)

// Z3 allocates outside the Go runtime: the memory limit counts its
// allocations too, and gives Z3 the same limit (its global parameter
// memory_max_size, in megabytes), past which Z3 fails the operation with
// "out of memory" (an *Error with Code MemoutFail, which matches
// memlimit.ErrExceeded) instead of the process running out.
func init() {
	memlimit.AddExternal(AllocatedBytes, setZ3MemoryLimit)
}

// setZ3MemoryLimit gives Z3 the limit n, or keeps it for the time libz3
// is loaded (loadZ3).
func setZ3MemoryLimit(n int64) {
	z3Mu.Lock()
	defer z3Mu.Unlock()
	if C.musket_z3_loaded() == 0 {
		z3PendingLimit, z3HasPending = n, true
		return
	}
	z3Want = n
	if z3Freeing == 0 {
		applyZ3MemoryLimit(n)
	}
}

// z3Want is the memory limit Z3 is to have (0: none), and z3Freeing the
// number of contexts being deleted meanwhile, during which Z3 has none
// (see uncapped); z3Mu guards both.
var (
	z3Want    int64
	z3Freeing int
)

// uncapped runs f, which frees Z3 objects, with Z3's memory limit lifted.
// Freeing allocates too (Z3 walks the terms it deletes with a stack that
// grows), and once Z3 is past its limit every allocation throws; thrown
// from inside a destructor, which C++ does not let throw, that ends the
// process (std::terminate) instead of failing an operation. This is the
// case under -engine auto, where the SMT engine beside the graph engine
// has a budget of its own (CapMemory) and closes its context after
// running out of it. The memory watcher of package memlimit still bounds
// the process meanwhile, and the limit is back once the last f returns.
// z3Mu is not held while f runs: freeing a large encoding takes seconds,
// and the limit of a check starting meanwhile must not wait for it.
func uncapped(f func()) {
	z3Mu.Lock()
	if z3Freeing == 0 && C.musket_z3_loaded() != 0 && z3Want != 0 {
		applyZ3MemoryLimit(0)
	}
	z3Freeing++
	z3Mu.Unlock()
	defer func() {
		z3Mu.Lock()
		z3Freeing--
		if z3Freeing == 0 && C.musket_z3_loaded() != 0 && z3Want != 0 {
			applyZ3MemoryLimit(z3Want)
		}
		z3Mu.Unlock()
	}()
	f()
}

// applyZ3MemoryLimit sets Z3's memory_max_size to n bytes (0: none).
// The caller holds z3Mu.
func applyZ3MemoryLimit(n int64) {
	mb := int64(0)
	if n > 0 {
		mb = max(n>>20, 1)
	}
	k := C.CString("memory_max_size")
	v := C.CString(strconv.FormatInt(mb, 10))
	C.Z3_global_param_set(k, v)
	C.free(unsafe.Pointer(k))
	C.free(unsafe.Pointer(v))
}

// Is makes a Z3 "out of memory" error match memlimit.ErrExceeded.
func (e *Error) Is(target error) bool {
	return e.Code == MemoutFail && errors.Is(memlimit.ErrExceeded, target)
}

// z3GlobalParam is the value of Z3's global parameter name ("" when it
// has none); it loads libz3.
func z3GlobalParam(name string) string {
	if loadZ3() != nil {
		return ""
	}
	k := C.CString(name)
	defer C.free(unsafe.Pointer(k))
	var v C.Z3_string
	if !C.Z3_global_param_get(k, &v) || v == nil {
		return ""
	}
	return C.GoString(v)
}

// CapMemory lowers Z3's memory limit to n bytes (never above the memory
// limit's) until the returned function restores it: Z3 then fails an
// allocation past n at once with "out of memory", where an interrupt
// can wait seconds for Z3 to reach a point that polls it.
func CapMemory(n int64) (restore func()) {
	if l := memlimit.Limit(); l > 0 && l < n {
		n = l
	}
	setZ3MemoryLimit(n)
	return func() { setZ3MemoryLimit(memlimit.Limit()) }
}
