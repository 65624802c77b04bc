package cfront

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// Lifetimes a loop repeats (lifetime.go has the rest).
//
// A local whose lifetime a loop repeats (its markers on a cycle of its
// function's control flow, more than one start, or a function instance
// Musket inlines inside a loop, whose unrolled copies would share one
// object) is a new object at each entry into its block (C11 6.2.4p6:
// "If the block is entered recursively, a new instance of the object is
// created each time", and each entry starts a new lifetime; a pointer
// to the old one is indeterminate, 6.2.4p2, even where the machine puts
// the new one at the same address). Such a local is lowered as a heap
// object (repeatedLocal): each llvm.lifetime.start (or, with no start,
// the alloca itself) makes a fresh one, as malloc in a loop does once
// the loops are unrolled (threads.go's expand), its end is the plain
// store of 1 to that object's freed mark (free.go's freedOff), and a
// pointer kept from an earlier iteration names the earlier, ended
// object: a use of it fails "use of the local variable v of f after its
// lifetime ended" (lifetime.go). Its freed mark starts at localMark, so
// that free of it fails too (free.go). The alloca's register holds the
// current object; the address arithmetic on it (getelementptr of
// constant indices, bit casts, ptrtoint) is evaluated where it is used
// (lateAddr), not where clang computed it, since clang's -O1 hoists such
// arithmetic out of the loop, before the start. Other arithmetic on it
// (a variable index, a select, a phi) is computed where clang put it,
// and if clang put it where the lifetime has not started on some path
// (hoisted), the program is refused by name: its value could name an
// earlier iteration's object. Before the first start the register is
// null (a use faults, never silently).

// repeats tells whether a loop repeats the lifetime of local in of frame
// fr (see above): the instance is inlined inside a loop, or the local's
// lifetime starts more than once or on a cycle of its function.
func (l *lowerer) repeats(fr *frame, in *ir.InstAlloca) bool {
	if fr.inLoop {
		return true
	}
	starts, _, inCycle := l.lifetimeMarks(fr.f, in)
	return starts > 1 || inCycle
}

// repeatedLocal lowers alloca in of frame fr, of type t, when a loop
// repeats its lifetime and its address escapes (see above): its register
// holds a fresh heap object at each start of its lifetime (at the alloca
// itself when clang marked no start), null before the first; it reports
// false, and lowers nothing, for any other alloca.
func (l *lowerer) repeatedLocal(fr *frame, in *ir.InstAlloca, t types.Type) (bool, error) {
	if in.NElems != nil {
		if _, ok := in.NElems.(*constant.Int); !ok {
			return false, nil // a variable-length array (memory.go)
		}
	}
	n, err := sizeOf(t)
	if err != nil || n > maxHeapObject || !l.repeats(fr, in) || !l.escapes(fr.f, in) {
		return false, nil
	}
	starts, ends, _ := l.lifetimeMarks(fr.f, in)
	if starts > 0 {
		if h := hoisted(fr.f, in); h != nil {
			pos := l.posOf(instMD(h))
			if pos.Line == 0 {
				pos = l.posOf(instMD(in)) // (clang's hoisting drops the line)
			}
			for _, blk := range fr.f.Blocks {
				for _, x := range blk.Insts {
					if c, ok := x.(*ir.InstCall); ok && pos.Line == 0 && len(c.Args) == 2 && allocaBehind(c.Args[1]) == in {
						pos = l.posOf(instMD(c)) // its lifetime's start
					}
				}
			}
			return true, l.errAt(pos, "unsupported: clang-14 computes an address in the local variable %s of %s, whose lifetime a loop repeats and whose address escapes, before its lifetime starts (Musket makes a new object at each start, C11 6.2.4p6, and cannot tell which one that address names)", localName(fr, in), localFunc(fr, in))
		}
	}
	tr := tracked{name: fr.reg(in), reg: fr.reg(in)}
	if fr.lifetimes == nil {
		fr.lifetimes = map[*ir.InstAlloca]tracked{}
	}
	fr.lifetimes[in] = tr
	if l.lifeSites == nil {
		l.lifeSites = map[*ir.InstAlloca]lifeSite{}
	}
	at, ok := t.(*types.ArrayType)
	bytes := ok && at.ElemType.Equal(types.I8) || t.Equal(types.I8)
	l.lifeSites[in] = lifeSite{size: n, bytes: bytes, text: localText(fr, in)}
	if starts == 0 {
		l.startRepeated(fr.b, in, tr)
	} else {
		// Before its first start the local is no object: a use is an
		// invalid memory access, and pthread_exit ends nothing.
		fr.b.emit(prog.Assign{Dst: tr.reg, Val: prog.Int(0)})
		fr.b.emit(prog.Assign{Dst: tr.ended(), Val: prog.Int(1)})
	}
	if ends == 0 {
		fr.endAtRet = append(fr.endAtRet, tr)
	}
	return true, nil
}

// lifeSite is a local whose lifetime a loop repeats: the size of its
// objects, whether they are character memory, its failure text.
type lifeSite struct {
	size  int64
	bytes bool
	text  string
}

// startRepeated starts a new lifetime of repeated local in: a fresh heap
// object (a call site of its own, numbered in l.heap, named by expand).
func (l *lowerer) startRepeated(b *builder, in *ir.InstAlloca, tr tracked) {
	site := l.lifeSites[in]
	k := len(l.heap)
	l.heap = append(l.heap, site.size)
	if site.bytes {
		l.markHeapBytes(k)
	}
	if l.heapLife == nil {
		l.heapLife = map[int]string{}
	}
	l.heapLife[k] = site.text
	b.emit(prog.Assign{Dst: tr.reg, Val: prog.Const{V: prog.Value{Loc: heapLoc, Int: int64(k)}}})
	b.emit(prog.Assign{Dst: tr.ended(), Val: prog.Int(0)})
}

// lateAddr is v, an address computed from a local of fr whose lifetime
// a loop repeats by bit casts, getelementptr of constant indices and
// ptrtoint (Musket's integers made of pointers are the pointers), as the
// expression of the local's register (see above): the address in the
// current object, wherever clang computed it.
func (l *lowerer) lateAddr(fr *frame, v value.Value) (prog.Expr, bool) {
	if len(fr.lifetimes) == 0 {
		return nil, false
	}
	a, off, ok := lateChain(v)
	if !ok {
		return nil, false
	}
	tr, ok := fr.lifetimes[a]
	if !ok || tr.reg == "" {
		return nil, false
	}
	return addrPlus(prog.Reg{Name: tr.reg}, off), true
}

// lateChain is the alloca v is computed from by bit casts, getelementptr
// of constant indices and ptrtoint, and the offset.
func lateChain(v value.Value) (*ir.InstAlloca, int64, bool) {
	off := int64(0)
	for k := 0; k < 16; k++ {
		switch x := v.(type) {
		case *ir.InstAlloca:
			return x, off, true
		case *ir.InstBitCast:
			v = x.From
		case *ir.InstAddrSpaceCast:
			v = x.From
		case *ir.InstPtrToInt:
			v = x.From
		case *ir.InstGetElementPtr:
			d, ok := constGEPOffset(x)
			if !ok {
				return nil, 0, false
			}
			off += d
			v = x.Src
		default:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// hoisted is an instruction of f that computes a value from the address
// of local a (whose lifetime a loop repeats and starts at the lifetime
// starts of a) other than lateChain's, and that clang placed where a's
// lifetime has not started on some path from f's entry (clang's -O1
// hoists such arithmetic out of loops), or nil. Its value would name the
// object of no iteration or of an earlier one.
func hoisted(f *ir.Func, a *ir.InstAlloca) ir.Instruction {
	derived := map[value.Value]bool{a: true}
	for changed := true; changed; {
		changed = false
		for _, blk := range f.Blocks {
			for _, in := range blk.Insts {
				v, ok := in.(value.Value)
				if !ok || derived[v] {
					continue
				}
				switch in.(type) {
				case *ir.InstLoad, *ir.InstStore, *ir.InstCall, *ir.InstCmpXchg, *ir.InstAtomicRMW, *ir.InstICmp, *ir.InstAlloca:
					continue // its value is no address of a
				}
				u, ok := in.(value.User)
				if !ok {
					continue
				}
				for _, op := range u.Operands() {
					if op != nil && *op != nil && derived[*op] {
						derived[v] = true
						changed = true
						break
					}
				}
			}
		}
	}
	// The blocks reached from the entry before a start, and in a start's
	// block the instructions before it.
	isStart := func(in ir.Instruction) bool {
		c, ok := in.(*ir.InstCall)
		if !ok || len(c.Args) != 2 {
			return false
		}
		callee, ok := c.Callee.(*ir.Func)
		return ok && strings.HasPrefix(callee.Name(), "llvm.lifetime.start") && allocaBehind(c.Args[1]) == a
	}
	seen := map[*ir.Block]bool{}
	stack := []*ir.Block{f.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		started := false
		for _, in := range b.Insts {
			if isStart(in) {
				started = true
				break
			}
			if v, ok := in.(value.Value); ok && derived[v] && v != value.Value(a) {
				if _, _, late := lateChain(v); !late {
					return in
				}
			}
		}
		if !started && b.Term != nil {
			stack = append(stack, b.Term.Succs()...)
		}
	}
	return nil
}

// constGEPOffset is the byte offset of a getelementptr of constant
// indices.
func constGEPOffset(in *ir.InstGetElementPtr) (int64, bool) {
	t := in.ElemType
	off := int64(0)
	for k, iv := range in.Indices {
		c, ok := iv.(*constant.Int)
		if !ok {
			return 0, false
		}
		i := c.X.Int64()
		if k == 0 {
			n, err := sizeOf(t)
			if err != nil {
				return 0, false
			}
			off += i * n
			continue
		}
		switch tt := t.(type) {
		case *types.ArrayType:
			n, err := sizeOf(tt.ElemType)
			if err != nil {
				return 0, false
			}
			off += i * n
			t = tt.ElemType
		case *types.StructType:
			offs, _, err := structLayout(tt)
			if err != nil || i < 0 || int(i) >= len(offs) {
				return 0, false
			}
			off += offs[i]
			t = tt.Fields[i]
		default:
			return 0, false
		}
	}
	return off, true
}

// addLifeHeap notes heap object obj, one lifetime of a local whose
// lifetime a loop repeats, with its failure text: its mark is its freed
// mark (free.go's freedMark).
func (l *lowerer) addLifeHeap(obj, text string) {
	if l.lifetimes == nil {
		l.lifetimes = map[string]string{}
	}
	l.lifetimes[obj] = text
	if l.lifeHeaps == nil {
		l.lifeHeaps = map[string]bool{}
	}
	l.lifeHeaps[obj] = true
}
