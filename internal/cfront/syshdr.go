package cfront

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/metadata"
	"github.com/musket-verify/musket/internal/prog"
)

// This file places an error found inside a system header's inline
// function at the program's own line. clang -O1 inlines the C library's
// inline wrappers (glibc's atoi calls strtol in <stdlib.h>), so the call
// Musket refuses has a header's line, which the user never wrote; its
// debug location's inlinedAt chain names the line that called the
// wrapper.

// systemHeader tells whether file is one of the system's headers.
func systemHeader(file string) bool {
	return strings.HasPrefix(file, "/usr/include/") || strings.HasPrefix(file, "/usr/lib/") || strings.HasPrefix(file, "/usr/local/include/")
}

// userCallPos is, for a call whose position is inside a system header,
// the position in the program's code the header's code was inlined at
// and the name of the header's function with its position; else pos and
// "".
func (l *lowerer) userCallPos(md ir.Metadata, pos prog.Pos) (prog.Pos, string) {
	if !systemHeader(pos.File) {
		return pos, ""
	}
	for _, a := range md {
		loc, ok := a.Node.(*metadata.DILocation)
		if a.Name != "dbg" || !ok {
			continue
		}
		fn := ""
		for loc != nil {
			file := l.fileOf(loc.Scope)
			if !systemHeader(file) {
				return prog.Pos{File: file, Line: int(loc.Line), Col: int(loc.Column)}, fmt.Sprintf(" (in %s, %s:%d)", fn, pos.File, pos.Line)
			}
			if sp := subprogramOf(loc.Scope); sp != nil && fn == "" {
				fn = sp.Name
			}
			loc = loc.InlinedAt
		}
	}
	return pos, ""
}

// subprogramOf is the function a debug scope is in.
func subprogramOf(scope metadata.Field) *metadata.DISubprogram {
	for scope != nil {
		switch s := scope.(type) {
		case *metadata.DISubprogram:
			return s
		case *metadata.DILexicalBlock:
			scope = s.Scope
		case *metadata.DILexicalBlockFile:
			scope = s.Scope
		default:
			return nil
		}
	}
	return nil
}
