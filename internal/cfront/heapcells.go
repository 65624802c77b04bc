package cfront

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// This file chooses the cells of a heap object. A heap object's cells
// were 4 bytes apart (threads.go), which fits arrays of ints, pointers
// and structs, but a character buffer (char *d = malloc(n); d[3] = 0)
// was then written at offsets that are no cell: an "invalid memory
// access" no run of the program has. A malloc, calloc or aligned_alloc
// whose result the calling function never casts to a pointer to wider
// data is taken as character memory: one cell per byte. (A result
// that is cast only in another function, through a void *, gets byte
// cells too: its wider accesses are then of mixed size, which the SMT
// engine decides.) strdup's and strndup's objects are character memory.

// charHeap tells whether f casts the result of the allocation call in to
// no pointer other than a char pointer.
func (l *lowerer) charHeap(f *ir.Func, in *ir.InstCall) bool {
	if f == nil {
		return false
	}
	for _, blk := range f.Blocks {
		for _, x := range blk.Insts {
			c, ok := x.(*ir.InstBitCast)
			if !ok || c.From != value.Value(in) {
				continue
			}
			pt, ok := c.To.(*types.PointerType)
			if !ok {
				return false
			}
			if n, err := sizeOf(pt.ElemType); err != nil || n != 1 {
				return false
			}
		}
	}
	return true
}

// markHeapBytes marks the allocation site k as character memory.
func (l *lowerer) markHeapBytes(k int) {
	if l.heapBytes == nil {
		l.heapBytes = map[int]bool{}
	}
	l.heapBytes[k] = true
}
