package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
)

// sizeOf is the size in bytes of t on x86-64 (the data layout clang-14
// uses by default): integers round up to whole bytes, pointers are 8,
// arrays and structs are laid out with their natural alignment.
func sizeOf(t types.Type) (int64, error) {
	switch t := t.(type) {
	case *types.IntType:
		return (int64(t.BitSize) + 7) / 8, nil
	case *types.PointerType:
		return 8, nil
	case *types.ArrayType:
		s, err := sizeOf(t.ElemType)
		return s * int64(t.Len), err
	case *types.StructType:
		fs, size, err := structLayout(t)
		_ = fs
		return size, err
	case *types.FloatType:
		return 0, fmt.Errorf("floating-point type %s", t)
	}
	return 0, fmt.Errorf("type %s", t)
}

// alignOf is the alignment of t.
func alignOf(t types.Type) int64 {
	switch t := t.(type) {
	case *types.IntType:
		s := (int64(t.BitSize) + 7) / 8
		switch {
		case s >= 8:
			return 8
		case s >= 4:
			return 4
		case s >= 2:
			return 2
		}
		return 1
	case *types.ArrayType:
		return alignOf(t.ElemType)
	case *types.StructType:
		if t.Packed {
			return 1
		}
		a := int64(1)
		for _, f := range t.Fields {
			if x := alignOf(f); x > a {
				a = x
			}
		}
		return a
	}
	return 8
}

// structLayout returns the offsets of the fields of t and its size.
func structLayout(t *types.StructType) ([]int64, int64, error) {
	var offs []int64
	off := int64(0)
	for _, f := range t.Fields {
		a := alignOf(f)
		if !t.Packed && off%a != 0 {
			off += a - off%a
		}
		offs = append(offs, off)
		s, err := sizeOf(f)
		if err != nil {
			return nil, 0, err
		}
		off += s
	}
	a := alignOf(t)
	if !t.Packed && off%a != 0 {
		off += a - off%a
	}
	return offs, off, nil
}

// cell is one scalar of a global or local object: its byte offset and its
// initial value.
type cell struct {
	off  int64
	val  cval
	size int64 // bytes
}

// value is a constant value of a cell: an integer or an address (a
// location name plus an offset, as prog.Value).
type cval struct {
	loc string
	n   int64
}

// maxObjectCells bounds the scalar cells of one object: each is a
// location every engine prepares, and cells listed them all before
// anything looked at the time or memory limit (a global array of 2^28
// ints ran 11 minutes past -timeout 10 to 20 GB, past -memory's 8 GiB).
// A program with a larger object is refused with errTooManyCells.
const maxObjectCells = 1 << 18

var errTooManyCells = fmt.Errorf("an object of more than %d memory cells (a limit of Musket, not an error in the program)", maxObjectCells)

// cells flattens an object of type t with initializer c (nil: zero) into
// its scalar cells. addr resolves a constant address.
func (l *lowerer) cells(t types.Type, c constant.Constant, base int64, out *[]cell) error {
	switch t := t.(type) {
	case *types.IntType, *types.PointerType:
		if len(*out) >= maxObjectCells {
			return errTooManyCells
		}
		v := cval{}
		if c != nil {
			var err error
			v, err = l.constValue(c)
			if err != nil {
				return err
			}
		}
		size, _ := sizeOf(t)
		*out = append(*out, cell{off: base, val: v, size: size})
		return nil
	case *types.ArrayType:
		if t.Len > maxObjectCells {
			return errTooManyCells
		}
		es, err := sizeOf(t.ElemType)
		if err != nil {
			return err
		}
		var elems []constant.Constant
		switch c := c.(type) {
		case *constant.Array:
			elems = c.Elems
		case *constant.CharArray:
			for _, b := range c.X {
				elems = append(elems, constant.NewInt(types.I8, int64(b)))
			}
		case nil, *constant.ZeroInitializer, *constant.Undef:
		default:
			return fmt.Errorf("initializer %s", c.Ident())
		}
		for i := uint64(0); i < t.Len; i++ {
			var e constant.Constant
			if int(i) < len(elems) {
				e = elems[i]
			}
			if err := l.cells(t.ElemType, e, base+int64(i)*es, out); err != nil {
				return err
			}
		}
		return nil
	case *types.StructType:
		offs, _, err := structLayout(t)
		if err != nil {
			return err
		}
		var fields []constant.Constant
		switch c := c.(type) {
		case *constant.Struct:
			fields = c.Fields
		case nil, *constant.ZeroInitializer, *constant.Undef:
		default:
			return fmt.Errorf("initializer %s", c.Ident())
		}
		for i, f := range t.Fields {
			var e constant.Constant
			if i < len(fields) {
				e = fields[i]
			}
			if err := l.cells(f, e, base+offs[i], out); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("objects of type %s", t)
}
