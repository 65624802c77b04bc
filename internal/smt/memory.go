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
	applyZ3MemoryLimit(n)
}

// applyZ3MemoryLimit sets Z3's memory_max_size to n bytes (0: none).
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
