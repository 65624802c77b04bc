package litmus

import (
	"fmt"

	"github.com/musket-verify/musket/internal/prog"
)

// lowerCode rewrites every sized access of every thread into one access
// per chunk it covers.
func (m *mixedLowering) lowerCode() {
	byPC := map[[2]int]a64Access{}
	for _, a := range m.accs {
		byPC[[2]int{a.thread, a.pc}] = a
	}
	for ti, th := range m.t.Threads {
		var code []prog.Instr
		var pos []prog.Pos
		for pc, in := range th.Code {
			p := prog.Pos{}
			if pc < len(th.Pos) {
				p = th.Pos[pc]
			}
			emit := func(ins ...prog.Instr) {
				for _, x := range ins {
					code = append(code, x)
					pos = append(pos, p)
				}
			}
			a, ok := byPC[[2]int{ti, pc}]
			if !ok {
				emit(in)
				continue
			}
			m.lowerAccess(in, a, p, emit)
		}
		th.Code, th.Pos, th.Sizes = code, pos, nil
	}
}

// lowerAccess emits the per-chunk instructions of the access a made by
// instruction in, at position p.
func (m *mixedLowering) lowerAccess(in prog.Instr, a a64Access, p prog.Pos, emit func(...prog.Instr)) {
	parts := m.covered(a)
	v := chunkValues{exact: m.exact}
	// signExtend turns the size-byte value of dst (0 <= v < 2^8size)
	// into a signed one: v - 2^8size when its top bit is set.
	signExtend := func(dst string) {
		if a.signed && a.size < 8 && dst != "" {
			emit(v.signExtend(dst, a.size))
		}
	}
	switch in := in.(type) {
	case prog.Load:
		if len(parts) == 1 {
			emit(in)
			signExtend(in.Dst)
			return
		}
		var val prog.Expr
		for k, c := range parts {
			tmp := fmt.Sprintf("%%chunk%d", k)
			emit(prog.Load{Dst: tmp, Addr: offsetAddr(in.Addr, c.off-a.off), Tags: in.Tags, Part: k > 0})
			x := v.chunkPart(tmp, c, c.off-a.off, a.size == 8 && k == len(parts)-1)
			if val == nil {
				val = x
			} else {
				val = prog.Bin{Op: prog.OpAdd, X: val, Y: x}
			}
		}
		if in.Dst != "" {
			emit(prog.Assign{Dst: in.Dst, Val: val})
			signExtend(in.Dst)
		}
	case prog.Store:
		for k, c := range parts {
			emit(prog.Store{Addr: offsetAddr(in.Addr, c.off-a.off), Val: v.mask(in.Val, c.off-a.off, c.size), Tags: in.Tags, Part: k > 0})
		}
	case prog.RMW:
		if len(parts) > 1 && in.Cond == nil && !usesOld(in.New) {
			// A swap: one swap per chunk, each of its part of the new
			// value, the parts one access (as herd7's bytes of one
			// instruction); the old value assembled from the parts.
			var val prog.Expr
			for k, c := range parts {
				tmp := fmt.Sprintf("%%chunk%d", k)
				part := in
				part.Dst, part.Addr, part.Part = tmp, offsetAddr(in.Addr, c.off-a.off), k > 0
				part.New = v.mask(in.New, c.off-a.off, c.size)
				emit(part)
				x := v.chunkPart(tmp, c, c.off-a.off, a.size == 8 && k == len(parts)-1)
				if val == nil {
					val = x
				} else {
					val = prog.Bin{Op: prog.OpAdd, X: val, Y: x}
				}
			}
			if in.Dst != "" {
				emit(prog.Assign{Dst: in.Dst, Val: val})
				signExtend(in.Dst)
			}
			return
		}
		if len(parts) != 1 {
			// The new value of each chunk would depend on the others'
			// old values (a carry, a comparison).
			m.errs.Add(p, fmt.Sprintf(m.unsupported()+"atomic read-modify-write of %d bytes over %d chunks of %s (only a swap is lowered into chunks)", a.size, len(parts), a.loc))
			return
		}
		in.New = v.mask(in.New, 0, a.size)
		emit(in)
		signExtend(in.Dst)
	case prog.StoreCond:
		// A store exclusive over several chunks: one per chunk, the
		// further ones succeeding with the first (each paired with the
		// exclusive load of its chunk), the status set by the first.
		for k, c := range parts {
			part := in
			part.Addr, part.Val, part.Part = offsetAddr(in.Addr, c.off-a.off), v.mask(in.Val, c.off-a.off, c.size), k > 0
			if k > 0 {
				part.Status, part.StatusDeps = "", false
			}
			emit(part)
		}
	default:
		emit(in)
	}
}

// offsetAddr is the address delta bytes after addr.
func offsetAddr(addr prog.Expr, delta int64) prog.Expr {
	if delta == 0 {
		return addr
	}
	return prog.Bin{Op: prog.OpAdd, X: addr, Y: prog.Int(delta)}
}

// chunkValues cuts values into chunks and assembles them. Values are cut
// and assembled with arithmetic rather than bitwise operators (the same
// on the non-negative values below 2^63 that the tests use): the SMT
// engine encodes + * / % on integers directly, but & | >> << through
// bit-vectors, which is far slower. exact makes the arithmetic right on
// negative values too (a floor division and a non-negative remainder).
type chunkValues struct{ exact bool }

// mod is v modulo m.
func (cv chunkValues) mod(v prog.Expr, m int64) prog.Expr {
	r := prog.Expr(prog.Bin{Op: prog.OpMod, X: v, Y: prog.Int(m)})
	if cv.exact {
		r = prog.Bin{Op: prog.OpMod, X: prog.Bin{Op: prog.OpAdd, X: r, Y: prog.Int(m)}, Y: prog.Int(m)}
	}
	return r
}

// mask is the size bytes of v from byte shift on: v / 2^8shift % 2^8size.
func (cv chunkValues) mask(v prog.Expr, shift, size int64) prog.Expr {
	if shift > 0 {
		d := int64(1) << (8 * shift)
		if cv.exact {
			v = prog.Bin{Op: prog.OpSub, X: v, Y: cv.mod(v, d)}
		}
		v = prog.Bin{Op: prog.OpDiv, X: v, Y: prog.Int(d)}
	}
	if size < 8 {
		v = cv.mod(v, int64(1)<<(8*size))
	}
	return v
}

// chunkPart is the contribution of chunk c, read into register tmp, to
// a value assembled from chunks: tmp · 2^8delta. top says c is the top
// chunk of a whole register, which exact arithmetic reads as signed, so
// that the sum stays within 64 bits in both engines.
func (cv chunkValues) chunkPart(tmp string, c a64Chunk, delta int64, top bool) prog.Expr {
	var v prog.Expr = prog.Reg{Name: tmp}
	if cv.exact && top {
		n := int64(1) << (8*c.size - 1)
		v = prog.Bin{Op: prog.OpSub, X: v, Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpDiv, X: v, Y: prog.Int(n)}, Y: prog.Int(2 * n)}}
	}
	if delta > 0 {
		v = prog.Bin{Op: prog.OpMul, X: v, Y: prog.Int(int64(1) << (8 * delta))}
	}
	return v
}

// signExtend sets register dst, holding a size-byte value, to its signed
// reading: v - 2^8size · (v / 2^(8size-1)).
func (chunkValues) signExtend(dst string, size int64) prog.Instr {
	v := prog.Reg{Name: dst}
	top := prog.Bin{Op: prog.OpDiv, X: v, Y: prog.Int(int64(1) << (8*size - 1))}
	return prog.Assign{Dst: dst, Val: prog.Bin{Op: prog.OpSub, X: v, Y: prog.Bin{Op: prog.OpMul, X: top, Y: prog.Int(int64(1) << (8 * size))}}}
}

// usesOld tells whether e reads the old value of an RMW.
func usesOld(e prog.Expr) bool {
	found := false
	prog.WalkExpr(e, func(x prog.Expr) {
		if _, ok := x.(prog.Old); ok {
			found = true
		}
	})
	return found
}
