package cfront

import (
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// lkmmPrefix starts the names of the functions include/musket/lkmm.h
// declares for the Linux-kernel primitives.
const lkmmPrefix = "__musket_lkmm_"

func (l *lowerer) lkmmCall(fr *frame, name string, args []value.Value, dst string, pos prog.Pos) error {
	return l.errAt(pos, "unsupported LKMM primitive %s", name)
}
