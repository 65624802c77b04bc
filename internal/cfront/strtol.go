package cfront

import (
	"math"
	"slices"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the conversions of a string to an integer (C11
// 7.22.1.4): strtol, strtoll, strtoul, strtoull (long and long long
// have 64 bits), and atoi, atol, atoll (7.22.1.2: glibc's are
// strtol(s, NULL, 10) converted, which is also what clang inlines from
// <stdlib.h>). Byte by byte, as their definition reads:
//
//   - white space (' ', '\t', '\n', '\v', '\f', '\r') is skipped, then
//     one optional sign;
//   - base 0 reads a 0x/0X prefix as base 16, a leading 0 as base 8,
//     else base 10; base 16 skips an optional 0x/0X; a prefix is taken
//     only when a hexadecimal digit follows it (glibc: "0x" alone is
//     the number 0 followed by "x");
//   - then the longest run of digits of the base (letters a-z, A-Z for
//     10 to 35) gives the value; none: the result is 0 and *endptr is
//     the string itself, else *endptr is the first byte after the run;
//   - a value out of range gives LONG_MAX or LONG_MIN (strtol) and
//     ULONG_MAX (strtoul), and errno ERANGE (34); strtoul negates its
//     value in unsigned arithmetic for a '-' (strtoul("-1") is
//     ULONG_MAX, no error).
//
// The base is a constant (0 or 2 to 36), a choice between such
// constants (clang makes b ? strtol(s, 0, 16) : strtol(s, 0, 0) one call
// of a select), or a value computed when the program runs: then every
// base is a case (the cut-off and the multiplication by the base are
// chosen by jumps on its value); a base outside 0, 2..36 gives glibc's
// 0 and errno EINVAL, *endptr unchanged (checked natively). The loops take the bound of the string functions (strfuncs.go):
// a longer string stops the path at the bound (BOUND).

func init() {
	for _, name := range []string{"strtol", "strtoll", "strtoul", "strtoull", "atoi", "atol", "atoll"} {
		knownCalls[name] = ownFirst((*lowerer).strtolCall)
	}
}

// glibc's ERANGE and EINVAL on Linux.
const (
	errERANGE = 34
	errEINVAL = 22
)

// strtolCall lowers the functions of the file.
func (l *lowerer) strtolCall(cs *callSite) error {
	b := cs.fr.b
	s, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	unsigned := cs.name == "strtoul" || cs.name == "strtoull"
	fin := "" // the end of the call, when a bad base jumps there
	var baseExpr prog.Expr = prog.Int(10)
	cands := []int64{10} // the values the base may have
	var endp prog.Expr   // nil: no end pointer to store
	if cs.name[:3] == "str" {
		x, err := l.arg(cs, 2)
		if err != nil {
			return err
		}
		baseExpr = x
		var ok bool
		if cands, ok = constChoices(cs.args[2]); !ok {
			// A base computed when the program runs (the optimiser makes
			// i % 2 ? 16 : 0 a shift and a mask): every base C allows,
			// by cases; another value is refused when the path has it.
			cands = []int64{0}
			for k := int64(2); k <= 36; k++ {
				cands = append(cands, k)
			}
			bad := l.label("stbadbase")
			okb := l.label("stokbase")
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: x, Y: prog.Int(0)}, Target: okb})
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: x, Y: prog.Int(2)}, Target: bad})
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLe, X: x, Y: prog.Int(36)}, Target: okb})
			b.emit(prog.Label{Name: bad})
			// glibc: 0, errno EINVAL, *endptr unchanged.
			if err := l.setErrnoIf(b, prog.Int(1), errEINVAL, cs.pos); err != nil {
				return err
			}
			cs.result(prog.Int(0))
			fin = l.label("stfin")
			b.emit(prog.Jump{Target: fin})
			b.emit(prog.Label{Name: okb})
		}
		if _, null := cs.args[1].(*constant.Null); !null {
			if endp, err = l.arg(cs, 1); err != nil {
				return err
			}
		}
	}
	pos := l.fresh("stpos")
	pv := prog.Reg{Name: pos}
	b.emit(prog.Assign{Dst: pos, Val: prog.Int(0)})
	at := func(off int64) prog.Expr {
		return l.byteAt(b, s, prog.Bin{Op: prog.OpAdd, X: pv, Y: prog.Int(off)})
	}
	step := func() {
		b.emit(prog.Assign{Dst: pos, Val: prog.Bin{Op: prog.OpAdd, X: pv, Y: prog.Int(1)}})
	}
	loop := func() string {
		b.emit(prog.Assign{Dst: loopBoundReg, Val: prog.Int(l.strLoopBound())})
		head := l.label("stloop")
		b.emit(prog.Label{Name: head})
		return head
	}
	jumpIf := func(c prog.Expr, target string) { b.emit(prog.Jump{Cond: c, Target: target}) }
	bin := func(op prog.Op, x, y prog.Expr) prog.Expr { return prog.Bin{Op: op, X: x, Y: y} }

	// White space.
	head := loop()
	c := l.fresh("stc")
	cv := prog.Reg{Name: c}
	b.emit(prog.Assign{Dst: c, Val: at(0)})
	notSpace := l.label("stnosp")
	space := l.label("stsp")
	jumpIf(bin(prog.OpEq, cv, prog.Int(' ')), space)
	jumpIf(bin(prog.OpLt, cv, prog.Int('\t')), notSpace)
	jumpIf(bin(prog.OpGt, cv, prog.Int('\r')), notSpace)
	b.emit(prog.Label{Name: space})
	step()
	b.emit(prog.Jump{Target: head})
	b.emit(prog.Label{Name: notSpace})

	// The sign.
	neg := l.fresh("stneg")
	nv := prog.Reg{Name: neg}
	b.emit(prog.Assign{Dst: neg, Val: prog.Int(0)})
	signDone, minus := l.label("stsign"), l.label("stminus")
	jumpIf(bin(prog.OpEq, cv, prog.Int('-')), minus)
	jumpIf(bin(prog.OpNe, cv, prog.Int('+')), signDone)
	step()
	b.emit(prog.Jump{Target: signDone})
	b.emit(prog.Label{Name: minus})
	b.emit(prog.Assign{Dst: neg, Val: prog.Int(1)})
	step()
	b.emit(prog.Label{Name: signDone})

	// The base and its prefix.
	bs := l.fresh("stbase")
	bv := prog.Reg{Name: bs}
	b.emit(prog.Assign{Dst: bs, Val: baseExpr})
	if slices.Contains(cands, 0) || slices.Contains(cands, 16) {
		prefixDone := l.label("stpfx")
		noHex := l.label("stnohex")
		hexBase := l.label("sthexb")
		b.emit(prog.Jump{Cond: bin(prog.OpEq, bv, prog.Int(0)), Target: hexBase})
		jumpIf(bin(prog.OpNe, bv, prog.Int(16)), prefixDone)
		b.emit(prog.Label{Name: hexBase})
		c0 := at(0)
		jumpIf(bin(prog.OpNe, c0, prog.Int('0')), prefixDone)
		c1 := l.fresh("stc")
		b.emit(prog.Assign{Dst: c1, Val: at(1)})
		c1v := prog.Reg{Name: c1}
		isX := l.label("stx")
		jumpIf(bin(prog.OpEq, c1v, prog.Int('x')), isX)
		jumpIf(bin(prog.OpNe, c1v, prog.Int('X')), noHex)
		b.emit(prog.Label{Name: isX})
		d2 := l.digitValue(b, at(2))
		jumpIf(bin(prog.OpGe, d2, prog.Int(16)), noHex)
		b.emit(prog.Assign{Dst: pos, Val: bin(prog.OpAdd, pv, prog.Int(2))})
		b.emit(prog.Assign{Dst: bs, Val: prog.Int(16)})
		b.emit(prog.Jump{Target: prefixDone})
		b.emit(prog.Label{Name: noHex})
		// Base 0 with a leading 0 and no x: base 8, the 0 a digit.
		jumpIf(bin(prog.OpNe, bv, prog.Int(0)), prefixDone)
		b.emit(prog.Assign{Dst: bs, Val: prog.Int(8)})
		b.emit(prog.Label{Name: prefixDone})
		// Base 0 with neither 0x nor 0: base 10.
		dec := l.label("stdec")
		jumpIf(bin(prog.OpNe, bv, prog.Int(0)), dec)
		b.emit(prog.Assign{Dst: bs, Val: prog.Int(10)})
		b.emit(prog.Label{Name: dec})
	}

	// The cut-off: the value may take one more digit d when acc < cutoff
	// or acc == cutoff and d <= cutlim (C's range of the result type;
	// for strtol a '-' allows one more, LONG_MIN).
	cutoff, cutlim := l.fresh("stcut"), l.fresh("stlim")
	cutDone := l.label("stcutdone")
	var bases []int64 // the bases the digits may be read in
	for _, c := range cands {
		add := []int64{c}
		if c == 0 {
			add = []int64{8, 10, 16}
		}
		for _, a := range add {
			if !slices.Contains(bases, a) {
				bases = append(bases, a)
			}
		}
	}
	for _, bb := range bases {
		nextBase := l.label("stcutb")
		if len(bases) > 1 {
			jumpIf(bin(prog.OpNe, bv, prog.Int(bb)), nextBase)
		}
		if unsigned {
			b.emit(prog.Assign{Dst: cutoff, Val: prog.Int(int64(math.MaxUint64 / uint64(bb)))})
			b.emit(prog.Assign{Dst: cutlim, Val: prog.Int(int64(math.MaxUint64 % uint64(bb)))})
		} else {
			pos, negLim := uint64(math.MaxInt64), uint64(math.MaxInt64)+1
			b.emit(prog.Assign{Dst: cutoff, Val: prog.Int(int64(pos / uint64(bb)))})
			b.emit(prog.Assign{Dst: cutlim, Val: prog.Int(int64(pos % uint64(bb)))})
			jumpIf(bin(prog.OpEq, nv, prog.Int(0)), cutDone)
			b.emit(prog.Assign{Dst: cutoff, Val: prog.Int(int64(negLim / uint64(bb)))})
			b.emit(prog.Assign{Dst: cutlim, Val: prog.Int(int64(negLim % uint64(bb)))})
		}
		b.emit(prog.Jump{Target: cutDone})
		b.emit(prog.Label{Name: nextBase})
	}
	b.emit(prog.Label{Name: cutDone})

	// The digits.
	start := l.fresh("ststart")
	b.emit(prog.Assign{Dst: start, Val: pv})
	acc, ovf := l.fresh("stacc"), l.fresh("stovf")
	av, ov := prog.Reg{Name: acc}, prog.Reg{Name: ovf}
	b.emit(prog.Assign{Dst: acc, Val: prog.Int(0)})
	b.emit(prog.Assign{Dst: ovf, Val: prog.Int(0)})
	head = loop()
	end := l.label("stend")
	dr := l.fresh("std")
	b.emit(prog.Assign{Dst: dr, Val: l.digitValue(b, at(0))})
	dv := prog.Reg{Name: dr}
	jumpIf(bin(prog.OpGe, dv, bv), end)
	over, counted := l.label("stover"), l.label("stcounted")
	jumpIf(bin(prog.OpNe, ov, prog.Int(0)), counted)
	jumpIf(bin(prog.OpLt, av, prog.Int(0)), over) // unsigned: 2^63 or more
	jumpIf(bin(prog.OpGt, av, prog.Reg{Name: cutoff}), over)
	fits := l.label("stfits")
	jumpIf(bin(prog.OpLt, av, prog.Reg{Name: cutoff}), fits)
	jumpIf(bin(prog.OpGt, dv, prog.Reg{Name: cutlim}), over)
	b.emit(prog.Label{Name: fits})
	// acc*base + d, by cases on the base: products by constants only
	// (the SMT engine's arithmetic is linear).
	for k, bb := range bases {
		skip := l.label("stmul")
		if k < len(bases)-1 {
			jumpIf(bin(prog.OpNe, bv, prog.Int(bb)), skip)
		}
		b.emit(prog.Assign{Dst: acc, Val: wrap64(bin(prog.OpAdd, bin(prog.OpMul, av, prog.Int(bb)), dv))})
		b.emit(prog.Jump{Target: counted})
		b.emit(prog.Label{Name: skip})
	}
	b.emit(prog.Label{Name: over})
	b.emit(prog.Assign{Dst: ovf, Val: prog.Int(1)})
	b.emit(prog.Label{Name: counted})
	step()
	b.emit(prog.Jump{Target: head})
	b.emit(prog.Label{Name: end})

	// The end pointer: after the digits, or the string when there is
	// none.
	if endp != nil {
		e := l.fresh("stend")
		b.emit(prog.Assign{Dst: e, Val: bin(prog.OpAdd, s, pv)})
		some := l.label("stsome")
		jumpIf(bin(prog.OpNe, pv, prog.Reg{Name: start}), some)
		b.emit(prog.Assign{Dst: e, Val: s})
		b.emit(prog.Label{Name: some})
		b.emit(prog.Store{Addr: endp, Val: prog.Reg{Name: e}, Tags: withSize([]string{tagNA}, types.I8Ptr)})
	}

	// The result.
	res := l.fresh("stres")
	rv := prog.Reg{Name: res}
	done := l.label("stdone")
	noOver := l.label("stnoover")
	jumpIf(bin(prog.OpEq, ov, prog.Int(0)), noOver)
	if unsigned {
		b.emit(prog.Assign{Dst: res, Val: prog.Int(-1)}) // ULONG_MAX
	} else {
		b.emit(prog.Assign{Dst: res, Val: prog.Int(math.MaxInt64)})
		jumpIf(bin(prog.OpEq, nv, prog.Int(0)), done+"e")
		b.emit(prog.Assign{Dst: res, Val: prog.Int(math.MinInt64)})
		b.emit(prog.Label{Name: done + "e"})
	}
	if err := l.setErrnoIf(b, prog.Int(1), errERANGE, cs.pos); err != nil {
		return err
	}
	b.emit(prog.Jump{Target: done})
	b.emit(prog.Label{Name: noOver})
	b.emit(prog.Assign{Dst: res, Val: av})
	jumpIf(bin(prog.OpEq, nv, prog.Int(0)), done)
	b.emit(prog.Assign{Dst: res, Val: wrap64(prog.Un{Op: prog.OpNeg, X: av})})
	b.emit(prog.Label{Name: done})
	switch cs.name {
	case "atoi":
		cs.result(wrap(rv, 32))
	default:
		cs.result(rv)
	}
	if fin != "" {
		b.emit(prog.Label{Name: fin})
	}
	return nil
}

// digitValue is the value of the character c as a digit of base up to
// 36 (0-9, then a-z or A-Z for 10 to 35), 99 for any other character;
// by forward jumps.
func (l *lowerer) digitValue(b *builder, c prog.Expr) prog.Expr {
	cr := l.fresh("stch")
	b.emit(prog.Assign{Dst: cr, Val: c})
	cv := prog.Reg{Name: cr}
	d := l.fresh("stdig")
	done := l.label("stdigit")
	b.emit(prog.Assign{Dst: d, Val: prog.Int(99)})
	for _, r := range []struct{ lo, hi, sub int64 }{{'0', '9', '0'}, {'A', 'Z', 'A' - 10}, {'a', 'z', 'a' - 10}} {
		skip := l.label("stnotd")
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: cv, Y: prog.Int(r.lo)}, Target: skip})
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGt, X: cv, Y: prog.Int(r.hi)}, Target: skip})
		b.emit(prog.Assign{Dst: d, Val: prog.Bin{Op: prog.OpSub, X: cv, Y: prog.Int(r.sub)}})
		b.emit(prog.Jump{Target: done})
		b.emit(prog.Label{Name: skip})
	}
	b.emit(prog.Label{Name: done})
	return prog.Reg{Name: d}
}

// constChoices lists the values a base argument may have: a constant,
// or a select between (selects of) constants, each 0 or 2 to 36.
func constChoices(v value.Value) ([]int64, bool) {
	switch v := v.(type) {
	case *constant.Int:
		k := v.X.Int64()
		if k < 0 || k == 1 || k > 36 {
			return nil, false
		}
		return []int64{k}, true
	case *ir.InstSelect:
		a, ok := constChoices(v.ValueTrue)
		if !ok {
			return nil, false
		}
		b, ok := constChoices(v.ValueFalse)
		if !ok {
			return nil, false
		}
		return append(a, b...), true
	}
	return nil, false
}
