package cfront

import (
	"iter"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"
)

// moduleInsts yields every instruction of the module's function bodies
// (terminators aside), with the function that holds it, in the order of
// the module's text.
func moduleInsts(m *ir.Module) iter.Seq2[*ir.Func, ir.Instruction] {
	return func(yield func(*ir.Func, ir.Instruction) bool) {
		for _, f := range m.Funcs {
			for _, b := range f.Blocks {
				for _, in := range b.Insts {
					if !yield(f, in) {
						return
					}
				}
			}
		}
	}
}

// moduleCalls yields every call instruction of the module's function
// bodies, with the function that holds it, in the order of the text.
func moduleCalls(m *ir.Module) iter.Seq2[*ir.Func, *ir.InstCall] {
	return func(yield func(*ir.Func, *ir.InstCall) bool) {
		for f, in := range moduleInsts(m) {
			if c, ok := in.(*ir.InstCall); ok && !yield(f, c) {
				return
			}
		}
	}
}

// funcsOfType are the functions with a body, main aside, whose type is
// typ (the candidates of a call or thread start through a function
// pointer of that type), in the module's order.
func funcsOfType(m *ir.Module, typ string) []*ir.Func {
	var cands []*ir.Func
	for _, f := range m.Funcs {
		if len(f.Blocks) > 0 && f.Name() != "main" && f.Type().String() == typ {
			cands = append(cands, f)
		}
	}
	return cands
}

// argValue is the value of a call argument without its attributes
// (noundef, align and the like wrap it in an *ir.Arg).
func argValue(v value.Value) value.Value {
	if a, ok := v.(*ir.Arg); ok {
		return a.Value
	}
	return v
}
