package cfront

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"
)

// This file finds a function's write-only locals: an alloca whose
// address (through bitcasts and getelementptrs) is only stored to, filled
// by memcpy or memset, marked by the lifetime and debug intrinsics, or
// passed to nanosleep and thrd_sleep, which Musket lowers as no event
// (so they read nothing). No event of the program reads such an object:
// its stores are writes no read can see, to a location of one thread, so
// a spin-loop iteration that makes them can be left out of an execution
// as one that makes none (loops.go's sideEffectFree: the timespec of a
// nanosleep polling loop).

// writeOnlyLocals answers, for one function, whether a pointer is into a
// write-only local.
type writeOnlyLocals struct {
	f    *ir.Func
	memo map[*ir.InstAlloca]bool
}

func newWriteOnlyLocals(f *ir.Func) *writeOnlyLocals {
	return &writeOnlyLocals{f: f, memo: map[*ir.InstAlloca]bool{}}
}

// rootAlloca is the alloca p points into through bitcasts and
// getelementptrs (nil: none).
func rootAlloca(p value.Value) *ir.InstAlloca {
	for {
		switch x := p.(type) {
		case *ir.InstAlloca:
			return x
		case *ir.Arg:
			p = x.Value
		case *ir.InstBitCast:
			p = x.From
		case *ir.InstGetElementPtr:
			p = x.Src
		case *constant.ExprBitCast:
			p = x.From
		case *constant.ExprGetElementPtr:
			p = x.Src
		default:
			return nil
		}
	}
}

// is tells whether p points into a write-only local of the function.
func (w *writeOnlyLocals) is(p value.Value) bool {
	a := rootAlloca(p)
	if a == nil {
		return false
	}
	if v, ok := w.memo[a]; ok {
		return v
	}
	v := w.onlyWritten(a)
	w.memo[a] = v
	return v
}

// onlyWritten checks every use of a (and of pointers derived from it)
// in the function.
func (w *writeOnlyLocals) onlyWritten(a *ir.InstAlloca) bool {
	derived := map[value.Value]bool{a: true}
	// Pointers derived from a, to a fixed point (bitcasts and GEPs may
	// come in any order).
	for changed := true; changed; {
		changed = false
		for _, b := range w.f.Blocks {
			for _, in := range b.Insts {
				var src value.Value
				switch x := in.(type) {
				case *ir.InstBitCast:
					src = x.From
				case *ir.InstGetElementPtr:
					src = x.Src
				default:
					continue
				}
				if v := in.(value.Value); derived[src] && !derived[v] {
					derived[v] = true
					changed = true
				}
			}
		}
	}
	for _, b := range w.f.Blocks {
		for _, in := range b.Insts {
			switch x := in.(type) {
			case *ir.InstBitCast, *ir.InstGetElementPtr:
				continue // derived or unrelated: their uses are checked
			case *ir.InstStore:
				if derived[x.Src] {
					return false // the address escapes into memory
				}
				continue
			case *ir.InstCall:
				name := calleeName(x)
				for i, arg := range x.Args {
					if !usesDerived(arg, derived) {
						continue
					}
					switch {
					case strings.HasPrefix(name, "llvm.lifetime.") || strings.HasPrefix(name, "llvm.dbg."):
					case (strings.HasPrefix(name, "llvm.memcpy.") || strings.HasPrefix(name, "llvm.memset.")) && i == 0:
					case (name == "nanosleep" || name == "thrd_sleep") && i == 0:
					default:
						return false
					}
				}
				continue
			}
			for _, op := range in.(interface{ Operands() []*value.Value }).Operands() {
				if op != nil && usesDerived(*op, derived) {
					return false // a load, a comparison, a return...
				}
			}
		}
		if t := b.Term; t != nil {
			for _, op := range t.Operands() {
				if op != nil && usesDerived(*op, derived) {
					return false
				}
			}
		}
	}
	return true
}

// usesDerived tells whether v is one of the derived pointers, or a
// constant expression over one.
func usesDerived(v value.Value, derived map[value.Value]bool) bool {
	if derived[v] {
		return true
	}
	switch x := v.(type) {
	case *ir.Arg:
		return usesDerived(x.Value, derived)
	case *constant.ExprBitCast:
		return usesDerived(x.From, derived)
	case *constant.ExprGetElementPtr:
		return usesDerived(x.Src, derived)
	}
	return false
}
