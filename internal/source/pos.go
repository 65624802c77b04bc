package source

import (
	"fmt"
	"sort"
)

// Pos is a position in a source file: a 1-based line and a 1-based byte
// column. The zero Pos is "no position"; a Pos with only File names the
// file as a whole.
type Pos struct {
	File      string
	Line, Col int
}

// IsValid tells whether p has a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String prints "file:line:col", or "line:col" without a file.
func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Before orders positions by file, line, then column.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Lines is the line table of a source text, as go/token.File: it turns
// byte offsets into positions.
type Lines struct {
	file   string
	size   int
	starts []int // byte offset of the start of each line
}

// NewLines builds the line table of src, whose positions name file.
func NewLines(file string, src []byte) *Lines {
	l := &Lines{file: file, size: len(src), starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// Pos turns a byte offset into a position; an offset past the end is the
// end of the text.
func (l *Lines) Pos(off int) Pos {
	if off > l.size {
		off = l.size
	}
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	return Pos{File: l.file, Line: i + 1, Col: off - l.starts[i] + 1}
}

// Offset turns a position of this text back into a byte offset; ok is
// false for a position of another file or before the text's lines. The
// offset may be past the end of its line or of the text.
func (l *Lines) Offset(p Pos) (off int, ok bool) {
	if p.File != l.file || p.Line < 1 || p.Line > len(l.starts) || p.Col < 1 {
		return 0, false
	}
	return l.starts[p.Line-1] + p.Col - 1, true
}
