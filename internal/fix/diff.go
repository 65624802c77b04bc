package fix

import (
	"fmt"
	"strings"
)

// Diff writes a unified diff (three lines of context) from the input's
// lines to the patched ones; lineOf maps each patched line (1-based) to
// the input line it comes from (0 for an inserted line). A patched line
// mapped to an input line but different from it is a replacement.
func Diff(name string, old []string, p *patch) string {
	// Build the edit script: walk the patched lines.
	type op struct {
		kind byte // ' ', '-', '+'
		text string
		o, n int // 1-based line numbers in old and new (0 when none)
	}
	var ops []op
	oi := 0 // old lines consumed
	for ni, line := range p.lines {
		src := p.lineOf[ni+1]
		if src == 0 {
			ops = append(ops, op{'+', line, 0, ni + 1})
			continue
		}
		for oi < src-1 { // (never: every input line is kept)
			ops = append(ops, op{'-', old[oi], oi + 1, 0})
			oi++
		}
		oi = src
		if line == old[src-1] {
			ops = append(ops, op{' ', line, src, ni + 1})
		} else {
			ops = append(ops, op{'-', old[src-1], src, 0}, op{'+', line, 0, ni + 1})
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", name, name)
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from ctx lines before the change to ctx lines after
		// the last change within 2*ctx of the previous one.
		start := i - ctx
		if start < 0 {
			start = 0
		}
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
				continue
			}
			if j-end > 2*ctx {
				break
			}
		}
		stop := end + ctx + 1
		if stop > len(ops) {
			stop = len(ops)
		}
		oStart, nStart, oCount, nCount := 0, 0, 0, 0
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				if oStart == 0 {
					oStart = o.o
				}
				oCount++
			}
			if o.kind != '-' {
				if nStart == 0 {
					nStart = o.n
				}
				nCount++
			}
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", oStart, oCount, nStart, nCount)
		for _, o := range ops[start:stop] {
			fmt.Fprintf(&b, "%c%s\n", o.kind, o.text)
		}
		i = stop
	}
	return b.String()
}

// PatchDiff is the unified diff of the input of s patched with fix.
func PatchDiff(s Subject, fix []int) string {
	switch s := s.(type) {
	case *litmusSubject:
		return Diff(s.text.File, s.text.Lines, s.apply(fix))
	case *ptsSubject:
		return Diff(s.text.File, s.text.Lines, s.apply(fix))
	case *cSubject:
		return Diff(s.text.File, s.text.Lines, s.apply(fix))
	}
	return ""
}
