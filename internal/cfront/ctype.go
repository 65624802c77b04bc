package cfront

import (
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// This file defines <ctype.h> (C11 7.4) as glibc does in the "C" locale
// (the locale of a program that never calls setlocale). glibc's macros
// isdigit(c), isalpha(c), ... read (*__ctype_b_loc())[c], a table of 384
// unsigned shorts indexed from -128 to 255 whose bits are the classes,
// and its inline tolower/toupper read (*__ctype_tolower_loc())[c] and
// (*__ctype_toupper_loc())[c], tables of 384 ints. The three functions
// return the address of a constant pointer to the table's entry 0; the
// tables are objects %ctype_b, %ctype_lower, %ctype_upper with glibc's
// values (checked against a native run: every entry of the three
// tables), their pointers %ctype_b.p, %ctype_lower.p, %ctype_upper.p.
// An index outside -128..255 reads outside the object: an invalid memory
// access (C: undefined behaviour).
//
// The function forms (isdigit(c) called, tolower(c)...) read the same
// tables and return what glibc's functions return: the class's bit of
// the entry (not 1), the converted character.
//
// In the "C" locale: the classes of the 128 ASCII characters (upper,
// lower, alpha, digit, xdigit, space, print, graph, blank, cntrl, punct,
// alnum; bits 0x100, 0x200, 0x400, 0x800, 0x1000, 0x2000, 0x4000,
// 0x8000, 0x1, 0x2, 0x4, 0x8, as glibc's _ISbit places them on a
// little-endian machine), none for the others; tolower/toupper change
// only A-Z/a-z, map -128..-2 to 128..254 and keep -1 (EOF).

const (
	ctypeB     = "%ctype_b"
	ctypeLower = "%ctype_lower"
	ctypeUpper = "%ctype_upper"
)

// The class bits of glibc's table.
const (
	ctUpper  = 0x100
	ctLower  = 0x200
	ctAlpha  = 0x400
	ctDigit  = 0x800
	ctXdigit = 0x1000
	ctSpace  = 0x2000
	ctPrint  = 0x4000
	ctGraph  = 0x8000
	ctBlank  = 0x1
	ctCntrl  = 0x2
	ctPunct  = 0x4
	ctAlnum  = 0x8
)

func init() {
	knownCalls["__ctype_b_loc"] = ownFirst(func(l *lowerer, cs *callSite) error { return l.ctypeLoc(cs, ctypeB) })
	knownCalls["__ctype_tolower_loc"] = ownFirst(func(l *lowerer, cs *callSite) error { return l.ctypeLoc(cs, ctypeLower) })
	knownCalls["__ctype_toupper_loc"] = ownFirst(func(l *lowerer, cs *callSite) error { return l.ctypeLoc(cs, ctypeUpper) })
	for name, mask := range map[string]int64{
		"isupper": ctUpper, "islower": ctLower, "isalpha": ctAlpha, "isdigit": ctDigit,
		"isxdigit": ctXdigit, "isspace": ctSpace, "isprint": ctPrint, "isgraph": ctGraph,
		"isblank": ctBlank, "iscntrl": ctCntrl, "ispunct": ctPunct, "isalnum": ctAlnum,
	} {
		m := mask
		knownCalls[name] = ownFirst(func(l *lowerer, cs *callSite) error { return l.ctypeIs(cs, m) })
	}
	knownCalls["tolower"] = ownFirst(func(l *lowerer, cs *callSite) error { return l.ctypeConv(cs, ctypeLower) })
	knownCalls["toupper"] = ownFirst(func(l *lowerer, cs *callSite) error { return l.ctypeConv(cs, ctypeUpper) })
}

// ctypeClass is the entry of glibc's class table for c in -128..255.
func ctypeClass(c int) int64 {
	if c < 0 || c > 127 {
		return 0
	}
	var m int64
	upper, lower, digit := c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9'
	xdigit := digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
	space := c == ' ' || (c >= '\t' && c <= '\r')
	print := c >= ' ' && c < 127
	graph := c > ' ' && c < 127
	set := func(b bool, bit int64) {
		if b {
			m |= bit
		}
	}
	set(upper, ctUpper)
	set(lower, ctLower)
	set(upper || lower, ctAlpha)
	set(digit, ctDigit)
	set(xdigit, ctXdigit)
	set(space, ctSpace)
	set(print, ctPrint)
	set(graph, ctGraph)
	set(c == ' ' || c == '\t', ctBlank)
	set(c < ' ' || c == 127, ctCntrl)
	set(graph && !upper && !lower && !digit, ctPunct)
	set(upper || lower || digit, ctAlnum)
	return m
}

// ctypeMap is the entry of glibc's tolower (lower) or toupper table for
// c in -128..255.
func ctypeMap(c int, lower bool) int64 {
	switch {
	case c < -1:
		return int64(c + 256)
	case lower && c >= 'A' && c <= 'Z':
		return int64(c + 32)
	case !lower && c >= 'a' && c <= 'z':
		return int64(c - 32)
	}
	return int64(c)
}

// ctypeTable declares a table and its pointer (once) and returns the
// pointer's object and the size of an entry.
func (l *lowerer) ctypeTable(table string) (string, int64) {
	size := int64(4)
	if table == ctypeB {
		size = 2
	}
	ptr := table + ".p"
	if !l.locs[locName(ptr, 0)] {
		for c := -128; c < 256; c++ {
			var v int64
			switch table {
			case ctypeB:
				v = ctypeClass(c)
			case ctypeLower:
				v = ctypeMap(c, true)
			default:
				v = ctypeMap(c, false)
			}
			l.declareCell(table, int64(c+128)*size, cval{n: canonInt(v, uint64(8*size))}, size)
		}
		l.declareCell(ptr, 0, cval{loc: table, n: 128 * size}, 8)
	}
	return ptr, size
}

// ctypeLoc lowers __ctype_b_loc, __ctype_tolower_loc and
// __ctype_toupper_loc.
func (l *lowerer) ctypeLoc(cs *callSite, table string) error {
	ptr, _ := l.ctypeTable(table)
	cs.result(prog.Addr(ptr))
	return nil
}

// ctypeEntry reads the entry of table for the call's first argument.
func (l *lowerer) ctypeEntry(cs *callSite, table string) (prog.Expr, error) {
	c, err := l.arg(cs, 0)
	if err != nil {
		return nil, err
	}
	_, size := l.ctypeTable(table)
	t := types.Type(types.I32)
	if size == 2 {
		t = types.I16
	}
	r := l.fresh("ctype")
	addr := prog.Bin{Op: prog.OpAdd, X: prog.Const{V: prog.Value{Loc: table, Int: 128 * size}}, Y: prog.Bin{Op: prog.OpMul, X: c, Y: prog.Int(size)}}
	cs.fr.b.emit(prog.Load{Dst: r, Addr: addr, Tags: withSize([]string{tagNA}, t)})
	return prog.Reg{Name: r}, nil
}

// ctypeIs lowers the class functions (isdigit...): the entry's bit.
func (l *lowerer) ctypeIs(cs *callSite, mask int64) error {
	e, err := l.ctypeEntry(cs, ctypeB)
	if err != nil {
		return err
	}
	// The entry's bit, without a bitwise and: (e / mask) mod 2 * mask.
	cs.result(prog.Bin{Op: prog.OpMul, X: umod(floorDiv(umod(e, 1<<16), mask), 2), Y: prog.Int(mask)})
	return nil
}

// ctypeConv lowers tolower and toupper.
func (l *lowerer) ctypeConv(cs *callSite, table string) error {
	e, err := l.ctypeEntry(cs, table)
	if err != nil {
		return err
	}
	cs.result(e)
	return nil
}
