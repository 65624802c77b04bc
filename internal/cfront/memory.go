package cfront

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the memory instructions: alloca, load, store and
// getelementptr.

// alloca lowers a stack allocation: a non-atomic object of its own per
// inlined instance, named after the function and the variable.
func (l *lowerer) alloca(fr *frame, in *ir.InstAlloca, pos prog.Pos) error {
	l.allocs[fr.f.Name()+"."+in.Name()]++
	name := fmt.Sprintf("%s.%s", strings.TrimPrefix(fr.prefix, "."), strings.TrimPrefix(in.Name(), "%"))
	name = strings.ReplaceAll(name, "..", ".")
	t := in.ElemType
	if in.NElems != nil {
		c, ok := in.NElems.(*constant.Int)
		if !ok {
			return l.varAlloca(fr, in, pos)
		}
		if k := c.X.Int64(); k != 1 {
			if k < 1 {
				return l.errAt(pos, "alloca of %d elements", k)
			}
			t = types.NewArray(uint64(k), t)
		}
	}
	if it, ok := t.(*types.IntType); ok && it.BitSize > 8 && it.BitSize <= 64 && it.BitSize%8 == 0 && l.callsStringFuncs() && l.charCast(in) {
		// A short char array the optimiser made an integer (byteStore):
		// its cells are its bytes, as the string functions read them.
		t = types.NewArray(it.BitSize/8, types.I8)
	}
	if ok, err := l.repeatedLocal(fr, in, t); ok || err != nil {
		return err // (lifetime.go)
	}
	if err := l.addObject(name, t, nil, pos); err != nil {
		return err
	}
	l.trackLocal(fr, in, name, t)
	var cs []cell
	_ = l.cells(t, nil, 0, &cs)
	for _, c := range cs {
		l.nonAt[locName(name, c.off)] = true
	}
	fr.assign(in, prog.Addr(name))
	return nil
}

// varAlloca lowers an alloca of a number of elements held in a register
// (a variable-length array, alloca(n)) as malloc of a size known once
// the loops are unrolled (builtins.go): an object per instance of the
// unrolled code, of the size the count has there; a count known only at
// run time (read from memory) is refused by name when the thread is
// expanded.
func (l *lowerer) varAlloca(fr *frame, in *ir.InstAlloca, pos prog.Pos) error {
	n, err := l.operand(fr, in.NElems, pos)
	if err != nil {
		return err
	}
	es, err := sizeOf(in.ElemType)
	if err != nil {
		return l.errAt(pos, "variable-length array of %v", err)
	}
	l.heap = append(l.heap, -1)
	if l.heapSize == nil {
		l.heapSize = map[int]heapSite{}
	}
	l.heapSize[len(l.heap)-1] = heapSite{size: prog.Bin{Op: prog.OpMul, X: n, Y: prog.Int(es)}, pos: pos, name: "a variable-length array (or alloca)"}
	fr.b.emit(prog.Assign{Dst: fr.reg(in), Val: prog.Const{V: prog.Value{Loc: heapLoc, Int: int64(len(l.heap) - 1)}}})
	return nil
}

// load lowers a load of an integer or a pointer, tagged by its ordering.
func (l *lowerer) load(fr *frame, in *ir.InstLoad, pos prog.Pos) error {
	a, err := l.operand(fr, in.Src, pos)
	if err != nil {
		return err
	}
	if err := scalarAccess(in.ElemType); err != nil {
		return l.errAt(pos, "load of %v", err)
	}
	fr.b.emit(prog.Load{Dst: fr.reg(in), Addr: a, Tags: withSizeAlign(accessTags(in.Atomic, in.Ordering), in.ElemType, uint64(in.Align))})
	return nil
}

// store lowers a store of an integer or a pointer, tagged by its ordering.
func (l *lowerer) store(fr *frame, in *ir.InstStore, pos prog.Pos) error {
	a, err := l.operand(fr, in.Dst, pos)
	if err != nil {
		return err
	}
	v, err := l.operand(fr, in.Src, pos)
	if err != nil {
		return err
	}
	if err := scalarAccess(in.Src.Type()); err != nil {
		return l.errAt(pos, "store of %v", err)
	}
	if c, ok := v.(prog.Const); ok && !c.V.IsAddr() && l.byteStore(in) {
		// A constant stored whole into character memory (clang's form
		// of a copy of a short literal, char buf[] = "abc"): its bytes,
		// little-endian, as byteCopies makes the copies it sees.
		n, _ := sizeOf(in.Src.Type())
		for k := int64(0); k < n; k++ {
			byteVal := wrap(unitByte(prog.Int(c.V.Int), k), 8)
			if bc, ok := foldConst(byteVal, nil); ok {
				byteVal = prog.Int(bc)
			}
			fr.b.emit(prog.Store{Addr: addrPlus(a, k), Val: byteVal, Tags: withSize([]string{tagNA}, types.I8)})
		}
		return nil
	}
	fr.b.emit(prog.Store{Addr: a, Val: v, Tags: withSizeAlign(accessTags(in.Atomic, in.Ordering), in.Src.Type(), uint64(in.Align))})
	return nil
}

// byteStore tells whether a store is a plain store of a wide integer
// into character memory (its pointer a cast of a char pointer) in a
// program that calls the string functions (strfuncs.go's byteCopies):
// it is then written byte by byte, as the functions read it.
func (l *lowerer) byteStore(in *ir.InstStore) bool {
	if in.Atomic || in.Volatile {
		return false
	}
	it, ok := in.Src.Type().(*types.IntType)
	if !ok || it.BitSize <= 8 || it.BitSize > 64 {
		return false
	}
	if !l.callsStringFuncs() {
		return false
	}
	if pt := pointeeBeforeCast(in.Dst); pt != nil {
		return pt.Equal(types.I8)
	}
	// The optimiser turns a short char array into an integer variable
	// (alloca i32) that is still passed as a char pointer.
	a, ok := in.Dst.(*ir.InstAlloca)
	return ok && l.charCast(a)
}

// charCast tells whether the program uses a as a char pointer: a cast
// of a to i8* that an instruction other than the lifetime and debug
// intrinsics takes (every alloca has such casts for its lifetime marks).
func (l *lowerer) charCast(a *ir.InstAlloca) bool {
	if v, ok := l.charCasts[a]; ok {
		return v
	}
	if l.charCasts == nil {
		l.charCasts = map[*ir.InstAlloca]bool{}
	}
	casts := map[value.Value]bool{}
	for _, f := range l.mod.Funcs {
		for _, blk := range f.Blocks {
			for _, in := range blk.Insts {
				if c, ok := in.(*ir.InstBitCast); ok && c.From == value.Value(a) && c.To.Equal(types.I8Ptr) {
					casts[c] = true
				}
			}
		}
	}
	found := false
	for _, f := range l.mod.Funcs {
		for _, blk := range f.Blocks {
			for _, in := range blk.Insts {
				if c, ok := in.(*ir.InstCall); ok {
					if n := calleeName(c); strings.HasPrefix(n, "llvm.lifetime.") || strings.HasPrefix(n, "llvm.dbg.") {
						continue
					}
				}
				u, ok := in.(interface{ Operands() []*value.Value })
				if !ok {
					continue
				}
				for _, op := range u.Operands() {
					v := *op
					if x, ok := v.(*ir.Arg); ok {
						v = x.Value
					}
					if casts[v] {
						found = true
					}
				}
			}
		}
	}
	l.charCasts[a] = found
	return found
}

// gep lowers a getelementptr: the base plus the scaled indices.
func (l *lowerer) gep(fr *frame, in *ir.InstGetElementPtr, pos prog.Pos) error {
	base, err := l.operand(fr, in.Src, pos)
	if err != nil {
		return err
	}
	e := base
	add := func(x prog.Expr) { e = prog.Bin{Op: prog.OpAdd, X: e, Y: x} }
	t := in.ElemType
	for k, iv := range in.Indices {
		idx, err := l.operand(fr, iv, pos)
		if err != nil {
			return err
		}
		var scale int64
		if k == 0 {
			scale, err = sizeOf(t)
			if err != nil {
				return l.errAt(pos, "getelementptr over %v", err)
			}
		} else {
			switch tt := t.(type) {
			case *types.ArrayType:
				scale, err = sizeOf(tt.ElemType)
				if err != nil {
					return l.errAt(pos, "getelementptr over %v", err)
				}
				t = tt.ElemType
			case *types.StructType:
				c, ok := idx.(prog.Const)
				if !ok || c.V.IsAddr() {
					return l.errAt(pos, "getelementptr: variable struct field index")
				}
				offs, _, err := structLayout(tt)
				if err != nil {
					return l.errAt(pos, "getelementptr over %v", err)
				}
				if c.V.Int < 0 || int(c.V.Int) >= len(offs) {
					return l.errAt(pos, "getelementptr: field %d out of range", c.V.Int)
				}
				if offs[c.V.Int] != 0 {
					add(prog.Int(offs[c.V.Int]))
				}
				t = tt.Fields[c.V.Int]
				continue
			default:
				return l.errAt(pos, "getelementptr into %s", t)
			}
		}
		if c, ok := idx.(prog.Const); ok && !c.V.IsAddr() {
			if c.V.Int*scale != 0 {
				add(prog.Int(c.V.Int * scale))
			}
			continue
		}
		if scale == 1 {
			add(idx)
		} else {
			add(prog.Bin{Op: prog.OpMul, X: idx, Y: prog.Int(scale)})
		}
	}
	fr.b.emit(prog.Assign{Dst: fr.reg(in), Val: e})
	return nil
}

// scalarAccess refuses accesses to aggregates and floats.
func scalarAccess(t types.Type) error {
	switch t.(type) {
	case *types.IntType, *types.PointerType:
		return nil
	}
	return fmt.Errorf("type %s (only integers and pointers are supported)", t)
}
