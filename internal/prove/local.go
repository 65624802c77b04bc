package prove

import (
	"github.com/musket-verify/musket/internal/source"

	"github.com/musket-verify/musket/internal/prog"
)

// maxPaths bounds the paths repeatsWrite follows through a loop body.
const maxPaths = 1 << 12

// known is what a path knows of the registers: a value, or nothing.
type known map[string]prog.Value

func (k known) copy() known {
	c := make(known, len(k))
	for r, v := range k {
		c[r] = v
	}
	return c
}

// eval evaluates e from what the path knows; ok is false when the value
// depends on something unknown (a read, a register set before the loop).
func eval(e prog.Expr, k known) (prog.Value, bool) {
	switch e := e.(type) {
	case prog.Const:
		return e.V, true
	case prog.Reg:
		v, ok := k[e.Name]
		return v, ok
	case prog.Un:
		x, ok := eval(e.X, k)
		if !ok || x.IsAddr() {
			return prog.Value{}, false
		}
		switch e.Op {
		case prog.OpNot:
			return prog.IntValue(b2i(x.Int == 0)), true
		case prog.OpNeg:
			return prog.IntValue(-x.Int), true
		case prog.OpBNot:
			return prog.IntValue(^x.Int), true
		}
	case prog.Bin:
		x, okx := eval(e.X, k)
		y, oky := eval(e.Y, k)
		if !okx || !oky {
			return prog.Value{}, false
		}
		switch e.Op {
		case prog.OpEq:
			return prog.IntValue(b2i(x == y)), true
		case prog.OpNe:
			return prog.IntValue(b2i(x != y)), true
		}
		if x.IsAddr() || y.IsAddr() {
			return prog.Value{}, false
		}
		a, b := x.Int, y.Int
		switch e.Op {
		case prog.OpAdd:
			return prog.IntValue(a + b), true
		case prog.OpSub:
			return prog.IntValue(a - b), true
		case prog.OpMul:
			return prog.IntValue(a * b), true
		case prog.OpAnd:
			return prog.IntValue(a & b), true
		case prog.OpOr:
			return prog.IntValue(a | b), true
		case prog.OpXor:
			return prog.IntValue(a ^ b), true
		case prog.OpLt:
			return prog.IntValue(b2i(a < b)), true
		case prog.OpLe:
			return prog.IntValue(b2i(a <= b)), true
		case prog.OpGt:
			return prog.IntValue(b2i(a > b)), true
		case prog.OpGe:
			return prog.IntValue(b2i(a >= b)), true
		case prog.OpLAnd:
			return prog.IntValue(b2i(a != 0 && b != 0)), true
		case prog.OpLOr:
			return prog.IntValue(b2i(a != 0 || b != 0)), true
		}
	}
	return prog.Value{}, false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// repeatWrites are the write instructions (stores, read-modify-writes,
// store-conditionals) of the body of l that some path of the body taking
// a backward branch executes, whatever its reads return: every path of
// the body is followed with the registers it knows (none at the head;
// loads give unknown values; a store-conditional may succeed, writing
// and setting its status to OkVal, or fail, setting FailVal — the cases
// of Figure 4-5). The answer depends on the thread alone. In the TOPPERS
// spinlock only a failed STREX repeats the loop: no write.
func repeatWrites(th *prog.Thread, l loop) (map[int]bool, error) {
	labels, err := th.Labels()
	if err != nil {
		return nil, err
	}
	type state struct {
		pc    int
		k     known
		wrote []int
	}
	out := map[int]bool{}
	work := []state{{pc: l.head, k: known{}}}
	steps := 0
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		for s.pc <= l.end {
			steps++
			if steps > maxPaths*(l.end-l.head+1) {
				return nil, source.Errorf(l.inv.Pos, "the loop at %s has too many paths to find the writes of its repeating iterations", l.inv.Label)
			}
			at := s.pc
			ins := th.Code[s.pc]
			s.pc++
			switch in := ins.(type) {
			case prog.Load:
				delete(s.k, in.Dst)
			case prog.Havoc:
				delete(s.k, in.Dst)
			case prog.Assign:
				if v, ok := eval(in.Val, s.k); ok {
					s.k[in.Dst] = v
				} else {
					delete(s.k, in.Dst)
				}
			case prog.Store:
				s.wrote = append(s.wrote[:len(s.wrote):len(s.wrote)], at)
			case prog.RMW:
				s.wrote = append(s.wrote[:len(s.wrote):len(s.wrote)], at)
				delete(s.k, in.Dst)
			case prog.StoreCond:
				fail := state{pc: s.pc, k: s.k.copy(), wrote: s.wrote}
				fail.k[in.Status] = in.FailVal
				work = append(work, fail)
				s.wrote = append(s.wrote[:len(s.wrote):len(s.wrote)], at)
				s.k[in.Status] = in.OkVal
			case prog.Jump:
				take, fall := true, false
				if in.Cond != nil {
					if v, ok := eval(in.Cond, s.k); ok && !v.IsAddr() {
						take, fall = v.Int != 0, v.Int == 0
					} else {
						fall = true
					}
				}
				t := labels[in.Target]
				if fall && take {
					other := state{pc: s.pc, k: s.k.copy(), wrote: s.wrote}
					work = append(work, other)
				}
				if !take {
					continue
				}
				switch {
				case in.Target == l.inv.Label:
					for _, w := range s.wrote {
						out[w] = true
					}
					s.pc = l.end + 1 // this path repeats: done
				case t > l.head && t <= l.end:
					s.pc = t
				default:
					s.pc = l.end + 1 // leaves the loop
				}
			}
		}
	}
	return out, nil
}
