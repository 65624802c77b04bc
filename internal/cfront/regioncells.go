package cfront

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// regionCells are the scalar cells, as offsets from the pointer v, of
// the n bytes that a memset or memcpy through v covers, when v points
// into an aggregate through a getelementptr of constant indices (maybe
// under a bitcast to i8*) and the cells of that aggregate tile the
// region: every cell that meets [off, off+n) lies inside it. clang's
// -O1 merges stores to a run of fields (dev->a = dev->b = 0; dev->c = 0)
// into one memset from the first field's address: its pointer type
// names only the first field, and the widest-unit fill (memUnit) would
// cut across fields of other sizes, a mixed-size access the graph
// engine refuses. Filled cell by cell, each field gets one store of its
// own size, the stores the merged ones were. Gaps between the cells are
// padding, which C leaves unspecified, and are not written. nil when v
// is no such pointer or a cell crosses the region's edge.
func (l *lowerer) regionCells(v value.Value, n int64) []cell {
	v = argValue(v)
	switch c := v.(type) {
	case *ir.InstBitCast:
		v = c.From
	case *constant.ExprBitCast:
		v = c.From
	}
	var elem types.Type
	var idx []int64
	switch g := v.(type) {
	case *ir.InstGetElementPtr:
		elem = g.ElemType
		for _, x := range g.Indices {
			c, ok := x.(*constant.Int)
			if !ok {
				return nil
			}
			idx = append(idx, c.X.Int64())
		}
	case *constant.ExprGetElementPtr:
		elem = g.ElemType
		for _, x := range g.Indices {
			c, ok := x.(*constant.Int)
			if !ok {
				return nil
			}
			idx = append(idx, c.X.Int64())
		}
	default:
		return nil
	}
	if len(idx) == 0 || idx[0] != 0 {
		return nil
	}
	off, err := constGEP(elem, idx)
	if err != nil {
		return nil
	}
	var all []cell
	if err := l.cells(elem, nil, 0, &all); err != nil {
		return nil
	}
	var out []cell
	for _, c := range all {
		if c.off+c.size <= off || c.off >= off+n {
			continue
		}
		if c.off < off || c.off+c.size > off+n {
			return nil
		}
		out = append(out, cell{off: c.off - off, size: c.size})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
