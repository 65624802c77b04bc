package cfront

import (
	"path/filepath"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/musket-verify/musket/internal/prog"
)

// This file gives main's parameters their values. The program is checked
// as the command run without arguments (as a test harness, GenMC's
// interpreter and a native run started by hand run it): argc is 1,
// argv[0] is the program's name (the file's, without .c) and argv[1]
// the null pointer (C11 5.1.2.2.1: argv[argc] is a null pointer), and a
// third parameter (envp, a common extension) is an empty environment.
// Before, the parameters were 0: argc == 0 and argv NULL, which no
// hosted run has (SV-COMP's reorder programs test argc before reading
// their thread counts from argv, so the branch taken was a different
// one: assert(argc == 1) failed, native runs pass it).

// Objects of main's arguments: the pointer array, the name's characters,
// the environment.
const (
	argvLoc  = "%argv"
	argv0Loc = "%argv0"
	envpLoc  = "%envp"
)

// mainArgs declares the objects main's parameters point at and returns
// the values of its parameters.
func (l *lowerer) mainArgs(f *ir.Func) ([]prog.Expr, error) {
	if len(f.Params) == 0 {
		return nil, nil
	}
	if len(f.Params) > 3 {
		return nil, l.errAt(prog.Pos{File: l.file}, "main has %d parameters (int argc, char *argv[] and an environment are supported)", len(f.Params))
	}
	args := []prog.Expr{prog.Int(1)}
	if len(f.Params) > 1 && readNone(f.Params[1]) {
		// argv is never read (clang marks it readnone): its address
		// alone, no objects to initialise.
		args = append(args, prog.Addr(argvLoc))
	} else if len(f.Params) > 1 {
		name := strings.TrimSuffix(filepath.Base(l.file), filepath.Ext(l.file))
		l.declareCell(argvLoc, 0, cval{loc: argv0Loc}, 8)
		l.declareCell(argvLoc, 8, cval{}, 8)
		for i := 0; i <= len(name); i++ {
			var c int64
			if i < len(name) {
				c = int64(name[i])
			}
			l.declareCell(argv0Loc, int64(i), cval{n: c}, 1)
		}
		args = append(args, prog.Addr(argvLoc))
	}
	if len(f.Params) > 2 {
		if !readNone(f.Params[2]) {
			l.declareCell(envpLoc, 0, cval{}, 8)
		}
		args = append(args, prog.Addr(envpLoc))
	}
	return args, nil
}

// readNone tells whether clang marked p readnone: the memory it points
// to is never read nor written through it.
func readNone(p *ir.Param) bool {
	for _, a := range p.Attrs {
		if a == enum.ParamAttrReadNone {
			return true
		}
	}
	return false
}

// declareCell declares the cell at offset off of object base with its
// initial value and size (once).
func (l *lowerer) declareCell(base string, off int64, v cval, size int64) {
	n := locName(base, off)
	if l.locs[n] {
		return
	}
	l.locs[n] = true
	l.init = append(l.init, initCell{name: n, val: v, size: size})
}
