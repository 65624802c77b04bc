package smt

/*
#include <stdlib.h>
#include <z3.h>
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

func setZ3MemoryLimit(n int64) {
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
