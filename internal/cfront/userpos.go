package cfront

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// Positions of loads the optimiser moved.
//
// With races checked the program goes through clang's -O1 as it is
// (racepipe.go), and LICM hoists a load out of a loop into the loop's
// preheader, dropping its !dbg location (LLVM gives a hoisted
// instruction none, as the line it came from is not on the new path).
// The lowering would then give the load the position of the instruction
// before it, a line where the program reads nothing: a race report named
// the line of `flag1 = 1` for the read of flag2 in the wait loop below
// it. A load without a location is given the position of its first user
// that has one (through users that have none): the hoisted load's value
// is used where the load was written, in the loop it came from.

// userPosOf is the position of the first user of in (in the order of
// f's blocks) that has a !dbg location, looking through users that have
// none; ok is false when no user has one.
func (l *lowerer) userPosOf(f *ir.Func, in value.Value) (prog.Pos, bool) {
	us := l.usersIn(f)
	seen := map[value.Value]bool{in: true}
	queue := []value.Value{in}
	for len(queue) > 0 && len(seen) < 64 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range us[v] {
			var p prog.Pos
			switch u := u.(type) {
			case ir.Instruction:
				p = l.posOf(instMD(u))
			case ir.Terminator:
				p = l.posOf(termMD(u))
			}
			if p.Line != 0 {
				return p, true
			}
			if uv, ok := u.(value.Value); ok && !seen[uv] {
				seen[uv] = true
				queue = append(queue, uv)
			}
		}
	}
	return prog.Pos{}, false
}

// callResultUsed tells whether the result of the call a callSite lowers
// is used (a call the lowering makes up: whenever it has a register).
func (l *lowerer) callResultUsed(cs *callSite) bool {
	if cs.dst == "" {
		return false
	}
	return cs.in == nil || l.resultUsed(cs.fr.f, cs.in)
}

// resultUsed tells whether the value of the call c, an instruction of f,
// is an operand of another instruction (a call whose result nobody uses
// is still given a register by the IR).
func (l *lowerer) resultUsed(f *ir.Func, c *ir.InstCall) bool {
	return len(l.usersIn(f)[c]) > 0
}

// usersIn maps each instruction of f to the instructions and terminators
// that take it as an operand (made once per function).
func (l *lowerer) usersIn(f *ir.Func) map[value.Value][]any {
	if l.users == nil {
		l.users = map[*ir.Func]map[value.Value][]any{}
	}
	us, ok := l.users[f]
	if !ok {
		us = map[value.Value][]any{}
		add := func(u any, ops []*value.Value) {
			for _, op := range ops {
				if op != nil && *op != nil {
					if _, isInst := (*op).(ir.Instruction); isInst {
						us[*op] = append(us[*op], u)
					}
				}
			}
		}
		for _, b := range f.Blocks {
			for _, i := range b.Insts {
				if o, ok := i.(interface{ Operands() []*value.Value }); ok {
					add(i, o.Operands())
				}
			}
			if o, ok := b.Term.(interface{ Operands() []*value.Value }); ok {
				add(b.Term, o.Operands())
			}
		}
		l.users[f] = us
	}
	return us
}
