package cfront

import (
	"strconv"
	"strings"
)

// Reads of uninitialised heap memory.
//
// The contents of an object malloc (or aligned_alloc) makes are
// indeterminate until written (C11 7.22.3.4; calloc's are zero). Its
// cells still start at 0 in the test, but the graph engine reports a
// read that reads a cell's initial write in a complete execution as a
// failure "read of uninitialised heap memory" at the read
// (graph.Options.Raw), as GenMC reports "attempt to read from
// uninitialized memory". The SMT engine makes the same check in the
// query for a failure (bmc.Options.RawRead: the failure register of a
// thread whose read of such a cell reads the initial write is that
// read's numbered fault, check.go), so its PASS on such a program says
// no read of uninitialised memory either. The explicit engine does not
// check it: on a program with such objects it answers only a failure or
// a race (memRefusal).

// rawCell is graph.Options.Raw for p: whether loc is a cell (not the
// freed mark) of an object malloc made.
func (p *Program) rawCell(loc string) bool {
	base, off := loc, ""
	if i := strings.IndexByte(loc, '+'); i >= 0 {
		base, off = loc[:i], loc[i+1:]
	}
	return p.raw[base] && off != strconv.Itoa(freedOff) && off != strconv.Itoa(sizeOff)
}
