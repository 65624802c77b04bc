package cfront

import (
	"math"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the memory intrinsics (llvm.memcpy, llvm.memmove,
// llvm.memset and the library functions of the same names) and the bit
// intrinsics (llvm.ctpop, llvm.ctlz, llvm.cttz, llvm.bswap).
//
// A copy or a fill of a length known when the program is lowered is a
// sequence of plain accesses of the widest unit (8, 4, 2 or 1 bytes) that
// divides the length and the alignment of the pointers: a copy reads
// every unit before it writes any (memmove's overlapping regions), a fill
// writes the byte replicated. Units that overlap cells of other sizes are
// cut into parts by the mixed-size pass (mixed.go), so the bytes mean
// what they mean whatever the unit.

// copyUnits are the accesses (offset and size) of a copy of n bytes
// between the pointer arguments dst and src. When both were pointers to
// the same type before their cast to i8* (a struct copy, a local array
// or struct initialised from its constant), n a multiple of its size,
// they are the type's scalar cells, element after element: each access
// has the size of the field it copies, so the copy makes no access of a
// size the object's other accesses do not have, and an object copied
// this way stays free of mixed sizes (the graph engine refuses those).
// The padding between fields is not copied; C leaves its value
// unspecified. Before both, a region that a getelementptr places inside
// an aggregate is read or written by the aggregate's cells there
// (regionCells), when both sides agree on them (a fill: its one side).
// Otherwise they are the widest units memUnit allows.
func (l *lowerer) copyUnits(n int64, dst, src value.Value) []cell {
	if d := l.regionCells(dst, n); d != nil {
		if s := l.regionCells(src, n); dst == src || sameCells(d, s) {
			return d
		}
	}
	td, ts := pointeeBeforeCast(dst), pointeeBeforeCast(src)
	if td != nil && ts != nil && td.Equal(ts) {
		if size, err := sizeOf(td); err == nil && size > 0 && n%size == 0 {
			var one []cell
			if err := l.cells(td, nil, 0, &one); err == nil {
				var out []cell
				for base := int64(0); base < n; base += size {
					for _, c := range one {
						out = append(out, cell{off: base + c.off, size: c.size})
					}
				}
				return out
			}
		}
	}
	u := memUnit(n, dst, src)
	if l.byteCopies(dst, src) {
		u = 1 // strfuncs.go
	}
	var out []cell
	for off := int64(0); off < n; off += u {
		out = append(out, cell{off: off, size: u})
	}
	return out
}

// memUnit is the unit of a copy or fill of n bytes between the pointer
// arguments args.
func memUnit(n int64, args ...value.Value) int64 {
	u := int64(8)
	for u > 1 && n%u != 0 {
		u /= 2
	}
	for _, a := range args {
		align := int64(0)
		if x, ok := a.(*ir.Arg); ok {
			for _, at := range x.Attrs {
				if al, ok := at.(ir.Align); ok {
					align = int64(al)
				}
			}
			a = x.Value
		}
		// The pointee of a bitcast to i8*: its natural alignment.
		if pt := pointeeBeforeCast(a); pt != nil {
			if al := alignOf(pt); align == 0 || al < align {
				align = al
			}
		}
		for align > 0 && u > align {
			u /= 2
		}
	}
	return u
}

// pointeeBeforeCast is the element type a pointer had before a bitcast
// to i8*, when it was one (of an array: the array's element).
func pointeeBeforeCast(v value.Value) types.Type {
	var from types.Type
	switch c := v.(type) {
	case *ir.InstBitCast:
		from = c.From.Type()
	case *constant.ExprBitCast:
		from = c.From.Type()
	}
	pt, ok := from.(*types.PointerType)
	if !ok {
		return nil
	}
	t := pt.ElemType
	for {
		at, ok := t.(*types.ArrayType)
		if !ok {
			return t
		}
		t = at.ElemType
	}
}

// intrinsicName names a memory intrinsic as the user knows it: clang-14
// also makes llvm.memcpy, llvm.memmove and llvm.memset of loops that
// copy or fill memory, where the program calls no such function.
func intrinsicName(name string) string {
	for _, f := range []string{"memcpy", "memmove", "memset"} {
		if strings.HasPrefix(name, "llvm."+f+".") {
			return f + " (called, or made by clang-14 of a loop that copies or fills memory)"
		}
	}
	return name
}

// memLen is the constant length argument i of a memory intrinsic.
func (l *lowerer) memLen(cs *callSite, i int) (int64, error) {
	n, err := l.arg(cs, i)
	if err != nil {
		return 0, err
	}
	c, ok := n.(prog.Const)
	if !ok || c.V.IsAddr() || c.V.Int < 0 {
		return 0, l.errAt(cs.pos, "%s of a length not known when the program is lowered (unsupported: a copy, fill or comparison of memory must have a constant length)", intrinsicName(cs.name))
	}
	if c.V.Int > maxHeapObject {
		return 0, l.errAt(cs.pos, "%s of %d bytes (at most %d)", cs.name, c.V.Int, maxHeapObject)
	}
	return c.V.Int, nil
}

// twoRegions reads the arguments of a call on two memory regions and a
// length (memcpy, memmove, memcmp, bcmp): the two addresses and the
// length, which must be known when the program is lowered.
func (l *lowerer) twoRegions(cs *callSite) (a, b prog.Expr, n int64, err error) {
	if a, err = l.arg(cs, 0); err != nil {
		return nil, nil, 0, err
	}
	if b, err = l.arg(cs, 1); err != nil {
		return nil, nil, 0, err
	}
	if n, err = l.memLen(cs, 2); err != nil {
		return nil, nil, 0, err
	}
	return a, b, n, nil
}

// memCopy lowers memcpy and memmove: every unit read, then written.
func (l *lowerer) memCopy(cs *callSite) error {
	dst, src, n, err := l.twoRegions(cs)
	if err != nil {
		return err
	}
	units := l.copyUnits(n, cs.args[0], cs.args[1])
	b := cs.fr.b
	var regs []string
	for _, c := range units {
		r := l.fresh("copy")
		regs = append(regs, r)
		b.emit(prog.Load{Dst: r, Addr: addrPlus(src, c.off), Tags: withSize([]string{tagNA}, types.NewInt(uint64(8*c.size)))})
	}
	for k, c := range units {
		b.emit(prog.Store{Addr: addrPlus(dst, c.off), Val: prog.Reg{Name: regs[k]}, Tags: withSize([]string{tagNA}, types.NewInt(uint64(8*c.size)))})
	}
	if cs.dst != "" {
		b.emit(prog.Assign{Dst: cs.dst, Val: dst})
	}
	return nil
}

// memSet lowers memset: the byte written over every unit. The units are
// those of a copy of the region onto itself (copyUnits): the cells of
// the pointer's type before its cast to i8* when it had one (a char
// array is filled byte by byte, an int array int by int), so the fill
// makes no access of a size the object's other accesses do not have;
// else the widest unit the length and alignment allow.
func (l *lowerer) memSet(cs *callSite) error {
	dst, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	v, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	n, err := l.memLen(cs, 2)
	if err != nil {
		return err
	}
	b := cs.fr.b
	for _, c := range l.copyUnits(n, cs.args[0], cs.args[0]) {
		b.emit(prog.Store{Addr: addrPlus(dst, c.off), Val: fillValue(v, c.size), Tags: withSize([]string{tagNA}, types.NewInt(uint64(8*c.size)))})
	}
	if cs.dst != "" {
		b.emit(prog.Assign{Dst: cs.dst, Val: dst})
	}
	return nil
}

// fillValue is the byte v replicated over a unit of u bytes, read as a
// signed number.
func fillValue(v prog.Expr, u int64) prog.Expr {
	if c, ok := v.(prog.Const); ok && !c.V.IsAddr() {
		x := uint64(c.V.Int) & 0xff
		var w uint64
		for k := int64(0); k < u; k++ {
			w |= x << (8 * k)
		}
		return prog.Int(signExtend(int64(w), u))
	}
	byteV := umod(v, 256)
	var rep prog.Expr = prog.Int(0)
	for k := int64(0); k < u; k++ {
		rep = prog.Bin{Op: prog.OpAdd, X: rep, Y: prog.Bin{Op: prog.OpMul, X: byteV, Y: prog.Int(int64(1) << (8 * k))}}
	}
	if u < 8 {
		rep = chunkValue(rep, 0, u)
	}
	return rep
}

// signExtend reads the low n bytes of v as a signed number.
func signExtend(v, n int64) int64 {
	if n >= 8 {
		return v
	}
	s := 64 - 8*n
	return v << s >> s
}

// bitIntrinsic lowers llvm.ctpop, llvm.ctlz, llvm.cttz and llvm.bswap
// with arithmetic on the value, kept sign-extended at its width w (an
// unsigned value below 2^w gives the same bits).
func (l *lowerer) bitIntrinsic(cs *callSite) error {
	x, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	w := int64(intBits(cs.args[0].Type()))
	if w <= 0 || w > 64 {
		return l.errAt(cs.pos, "%s on %d bits", cs.name, w)
	}
	bit := func(i int64) prog.Expr {
		if i >= 63 {
			return prog.Bin{Op: prog.OpLt, X: x, Y: prog.Int(0)} // the sign bit
		}
		return umod(floorDiv(x, int64(1)<<i), 2)
	}
	var sum prog.Expr = prog.Int(0)
	add := func(e prog.Expr) { sum = prog.Bin{Op: prog.OpAdd, X: sum, Y: e} }
	switch {
	case hasPrefix(cs.name, "llvm.ctpop."):
		for i := int64(0); i < w; i++ {
			add(bit(i))
		}
	case hasPrefix(cs.name, "llvm.cttz."):
		// The number of k in 1..w whose low k bits are all 0.
		for k := int64(1); k < w; k++ {
			if k == 63 {
				add(prog.Bin{Op: prog.OpLOr, X: prog.Bin{Op: prog.OpEq, X: x, Y: prog.Int(0)}, Y: prog.Bin{Op: prog.OpEq, X: x, Y: prog.Int(math.MinInt64)}})
				continue
			}
			add(prog.Bin{Op: prog.OpEq, X: umod(x, int64(1)<<k), Y: prog.Int(0)})
		}
		add(prog.Bin{Op: prog.OpEq, X: umod2w(x, w), Y: prog.Int(0)})
	case hasPrefix(cs.name, "llvm.ctlz."):
		// The number of k in 1..w with x < 2^(w-k), for x read unsigned.
		neg := prog.Bin{Op: prog.OpLt, X: x, Y: prog.Int(0)}
		for k := int64(1); k <= w; k++ {
			var c prog.Expr
			if w-k >= 63 {
				c = prog.Bin{Op: prog.OpGe, X: x, Y: prog.Int(0)}
			} else {
				c = prog.Bin{Op: prog.OpLAnd, X: prog.Un{Op: prog.OpNot, X: neg}, Y: prog.Bin{Op: prog.OpLt, X: x, Y: prog.Int(int64(1) << (w - k))}}
			}
			add(c)
		}
	case hasPrefix(cs.name, "llvm.bswap."):
		n := w / 8
		if w%8 != 0 || n < 2 {
			return l.errAt(cs.pos, "%s on %d bits", cs.name, w)
		}
		for i := int64(0); i < n; i++ {
			b := umod(floorDiv(x, int64(1)<<(8*i)), 256)
			if i == 0 { // the top byte of the result: signed
				b = prog.Bin{Op: prog.OpSub, X: b, Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpDiv, X: b, Y: prog.Int(128)}, Y: prog.Int(256)}}
			}
			add(prog.Bin{Op: prog.OpMul, X: b, Y: prog.Int(int64(1) << (8 * (n - 1 - i)))})
		}
	default:
		return l.errAt(cs.pos, "unsupported intrinsic %s", cs.name)
	}
	if cs.dst != "" {
		cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: sum})
	}
	return nil
}

// umod2w is x modulo 2^w, 0 exactly when the low w bits of x are 0 (x
// itself when w is 64: then 0 exactly when x is).
func umod2w(x prog.Expr, w int64) prog.Expr {
	if w >= 63 {
		return x
	}
	return umod(x, int64(1)<<w)
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// sameCells tells whether two lists of cells are the same.
func sameCells(a, b []cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].off != b[i].off || a[i].size != b[i].size {
			return false
		}
	}
	return true
}
