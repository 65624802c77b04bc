package cfront

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"
)

// The escape of an address (lifetime.go): whether a pointer to a local or
// to a thread-local variable may be kept where it outlives the object —
// stored to memory, exchanged into memory, handed to another thread
// (pthread_create's argument, pthread_exit's value, thread-specific
// data), turned into an integer, returned, or passed to a function of the
// program whose parameter escapes so. Loads and stores through it, address
// arithmetic that stays a pointer (casts, getelementptr, phi, select:
// followed), comparisons and the LLVM intrinsics (lifetime, debug,
// memcpy/memset, which do not keep their pointers) do not. Anything else
// escapes: the answer errs towards tracking, which only costs.

// capturing are the library functions that keep a pointer argument
// (by index), as far as a local's lifetime goes.
var capturing = map[string]int{
	"pthread_create":      3,
	"thrd_create":         2,
	"pthread_setspecific": 1,
	"tss_set":             1,
	"pthread_exit":        0,
}

// escapes tells whether the address root, a value of f, escapes.
func (l *lowerer) escapes(f *ir.Func, root value.Value) bool {
	return l.escapesIn(f, map[value.Value]bool{root: true}, 0)
}

// globalEscapes tells whether the address of global g escapes in some
// function of the program.
func (l *lowerer) globalEscapes(g *ir.Global) bool {
	if e, ok := l.globalEsc[g]; ok {
		return e
	}
	e := false
	for _, f := range l.mod.Funcs {
		if len(f.Blocks) > 0 && l.escapesIn(f, map[value.Value]bool{g: true}, 0) {
			e = true
			break
		}
	}
	if l.globalEsc == nil {
		l.globalEsc = map[*ir.Global]bool{}
	}
	l.globalEsc[g] = e
	return e
}

// paramKey names a parameter of a function.
type paramKey struct {
	f *ir.Func
	i int
}

// paramEscapes tells whether f's parameter i escapes in f (a cycle of
// calls, or calls nested deeper than maxInline, escapes).
func (l *lowerer) paramEscapes(f *ir.Func, i, depth int) bool {
	k := paramKey{f, i}
	if e, ok := l.paramEsc[k]; ok {
		return e
	}
	if l.paramEsc == nil {
		l.paramEsc = map[paramKey]bool{}
	}
	if depth > maxInline || i >= len(f.Params) {
		return true
	}
	l.paramEsc[k] = true // while it is decided: a recursive call escapes
	e := l.escapesIn(f, map[value.Value]bool{f.Params[i]: true}, depth+1)
	l.paramEsc[k] = e
	return e
}

// refersTo tells whether v is one of the addresses in set, or a constant
// cast or getelementptr of one.
func refersTo(v value.Value, set map[value.Value]bool) bool {
	for k := 0; k < 16; k++ {
		if set[v] {
			return true
		}
		switch x := v.(type) {
		case *ir.Arg:
			v = x.Value
		case *constant.ExprBitCast:
			v = x.From
		case *constant.ExprGetElementPtr:
			v = x.Src
		case *constant.ExprAddrSpaceCast:
			v = x.From
		case *constant.ExprPtrToInt:
			v = x.From // (stored, it escapes as the pointer would)
		default:
			return false
		}
	}
	return false
}

// escapesIn tells whether an address of set (derived values are added as
// they are found) escapes in f.
func (l *lowerer) escapesIn(f *ir.Func, set map[value.Value]bool, depth int) bool {
	for changed := true; changed; {
		changed = false
		for _, blk := range f.Blocks {
			for _, in := range blk.Insts {
				u, ok := in.(value.User)
				if !ok {
					continue
				}
				uses := false
				for _, op := range u.Operands() {
					if op != nil && *op != nil && refersTo(*op, set) {
						uses = true
						break
					}
				}
				if !uses {
					continue
				}
				switch x := in.(type) {
				case *ir.InstBitCast, *ir.InstGetElementPtr, *ir.InstPhi, *ir.InstSelect, *ir.InstAddrSpaceCast:
					if v, ok := in.(value.Value); ok && !set[v] {
						set[v] = true
						changed = true
					}
				case *ir.InstLoad, *ir.InstICmp:
				case *ir.InstStore:
					if refersTo(x.Src, set) {
						return true
					}
				case *ir.InstCmpXchg:
					if refersTo(x.New, set) {
						return true
					}
				case *ir.InstAtomicRMW:
					if refersTo(x.X, set) {
						return true
					}
				case *ir.InstCall:
					if l.callKeeps(x, set, depth) {
						return true
					}
				default:
					return true
				}
			}
			if blk.Term != nil {
				if r, ok := blk.Term.(*ir.TermRet); ok && r.X != nil && refersTo(r.X, set) {
					return true
				}
			}
		}
	}
	return false
}

// callKeeps tells whether call c keeps an address of set.
func (l *lowerer) callKeeps(c *ir.InstCall, set map[value.Value]bool, depth int) bool {
	callee, ok := c.Callee.(*ir.Func)
	if !ok {
		return true // through a pointer: any function
	}
	name := callee.Name()
	if strings.HasPrefix(name, "llvm.") {
		return false
	}
	for i, a := range c.Args {
		if !refersTo(a, set) {
			continue
		}
		if len(callee.Blocks) == 0 {
			if k, ok := capturing[name]; ok && k == i {
				return true
			}
			continue
		}
		if i >= len(callee.Params) || l.paramEscapes(callee, i, depth) {
			return true
		}
	}
	return false
}
