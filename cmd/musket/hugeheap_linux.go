package main

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
	"unsafe"
)

// hugeHeap asks for transparent huge pages for the heap the lowering
// and the engines will allocate from. A first touch of a 4 KB page is a
// page fault, and in a virtual machine a fault costs tens of
// microseconds: a C check touched about 1 300 pages of Go heap. The Go
// runtime maps its heap with huge pages off unless the system's setting
// is "always"; where it is "madvise" (a common default) this asks for
// them on a stretch of heap: one block is allocated without being
// touched (fresh memory from the system is zero), marked MADV_HUGEPAGE,
// and freed by a collection, so that the allocations after it reuse its
// pages at one fault per 2 MB. Under any other setting it does
// nothing. The collection costs a few milliseconds of CPU, which is why
// it runs only while musket-cc compiles the program (checkC, after
// prestartC), when the Go process would otherwise wait.
// MUSKET_HUGEHEAP=0 turns it off.
func hugeHeap() {
	if os.Getenv("MUSKET_HUGEHEAP") == "0" {
		return
	}
	// Only "madvise" needs asking: under "always" the heap has huge pages
	// already, under "never" it gets none.
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		return
	}
	const size, huge = 32 << 20, 2 << 20
	// The block is far above the first heap goal (4 MB): allocating it
	// would start a collection of its own before the one below. With
	// collections off meanwhile, there is one.
	gc := debug.SetGCPercent(-1)
	b := make([]byte, size)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg, end := (p+huge-1)&^(huge-1), (p+size)&^(huge-1)
	if beg < end {
		syscall.Syscall(syscall.SYS_MADVISE, beg, end-beg, 14 /* MADV_HUGEPAGE */)
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
	debug.SetGCPercent(gc)
}
