package serve

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/lazyre"
)

// allowedHeaders are the headers a C program sent to the server may
// include: the C library's and Musket's own, never a file by path.
var allowedHeaders = map[string]bool{
	"stdatomic.h": true, "pthread.h": true, "assert.h": true, "stdlib.h": true, "stdint.h": true,
	"stdbool.h": true, "stddef.h": true, "stdio.h": true, "string.h": true, "limits.h": true,
	"threads.h": true, "errno.h": true, "sched.h": true, "stdarg.h": true, "ctype.h": true,
	"time.h": true, "semaphore.h": true, "unistd.h": true, "setjmp.h": true, "alloca.h": true,
	"musket/lkmm.h": true,
}

var cDirective = lazyre.New(`^\s*(?:#|%:)\s*(\w+)\s*(.*)$`)

// cForbidden are the identifiers a program sent to the server may not
// use: each asks the preprocessor about a file by its name (whether it
// exists), or makes a pragma out of a string.
var cForbidden = map[string]string{
	"__has_include":      "asks whether a file exists",
	"__has_include_next": "asks whether a file exists",
	"__has_embed":        "asks whether a file exists",
	"_Pragma":            "makes a pragma from a string",
}

// checkCIncludes refuses a C program that could make the compiler read
// or look for a file the server did not choose: an include not among
// allowedHeaders (written <h> or "h"), or computed by a macro; #embed;
// a pragma that names a file (GCC dependency); __has_include and its
// kin; _Pragma; token pasting (which could make __has_include out of
// two harmless names); trigraphs (??= is #, ??/ a line splice). It reads
// the program as the preprocessor does before its directives run (C11
// 5.1.1.2, phases 1-3): lines spliced, each comment one space, so that a
// directive after a comment (/**/ #include) or split by one is seen. An
// error reads "line:col: what".
func checkCIncludes(text string) error {
	if i := trigraph(text); i >= 0 {
		return fmt.Errorf("%d:1: trigraph %q: the playground's server does not take trigraphs", 1+strings.Count(text[:i], "\n"), text[i:i+3])
	}
	for _, l := range cLines(text) {
		if m := cDirective.FindStringSubmatch(l.text); m != nil {
			arg := strings.TrimSpace(m[2])
			switch m[1] {
			case "include", "include_next", "import", "embed":
				if n := len(arg); m[1] == "include" && n >= 2 && ((arg[0] == '<' && arg[n-1] == '>') || (arg[0] == '"' && arg[n-1] == '"')) && allowedHeaders[arg[1:n-1]] {
					continue
				}
				return fmt.Errorf("%d:1: #%s %s: the playground's server compiles only programs that include the C library's usual headers and musket/lkmm.h", l.line, m[1], arg)
			case "pragma":
				for _, w := range []string{"dependency", "include_alias", "module"} {
					if strings.Contains(arg, w) {
						return fmt.Errorf("%d:1: #pragma %s: the playground's server takes no pragma that names a file", l.line, arg)
					}
				}
			}
		}
		if strings.Contains(l.code, "##") || strings.Contains(l.code, "%:%:") {
			return fmt.Errorf("%d:1: token pasting (##): the playground's server does not take it (it could make a name that asks about a file)", l.line)
		}
		for _, w := range cIdents(l.code) {
			if why, bad := cForbidden[w]; bad {
				return fmt.Errorf("%d:1: %s %s: the playground's server does not take it", l.line, w, why)
			}
		}
	}
	return nil
}

// trigraph is the index of the first trigraph of text, or -1.
func trigraph(text string) int {
	for i := 0; i+2 < len(text); i++ {
		if text[i] == '?' && text[i+1] == '?' && strings.IndexByte("=/'()!<>-", text[i+2]) >= 0 {
			return i
		}
	}
	return -1
}

// cLine is a logical line of a C program: text is the line spliced, its
// comments each one space (a block comment over several lines makes them
// one); code is text with the contents of its string and character
// literals blanked too; line is the number of its first physical line.
type cLine struct {
	line       int
	text, code string
}

// cLines splits a C program into logical lines (see cLine).
func cLines(src string) []cLine {
	// Phase 2: splices removed, each byte with its physical line.
	s := make([]byte, 0, len(src))
	lines := make([]int, 0, len(src))
	line := 1
	for i := 0; i < len(src); i++ {
		if src[i] == '\\' {
			j := i + 1
			if j < len(src) && src[j] == '\r' {
				j++
			}
			if j < len(src) && src[j] == '\n' {
				i = j
				line++
				continue
			}
		}
		s = append(s, src[i])
		lines = append(lines, line)
		if src[i] == '\n' {
			line++
		}
	}
	// Phase 3: comments, literals, lines.
	var out []cLine
	var text, code strings.Builder
	first := -1
	emit := func() {
		if first >= 0 {
			out = append(out, cLine{line: first, text: text.String(), code: code.String()})
		}
		text.Reset()
		code.Reset()
		first = -1
	}
	put := func(c, k byte, at int) {
		if first < 0 {
			first = lines[at]
		}
		text.WriteByte(c)
		code.WriteByte(k)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			emit()
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
			put(' ', ' ', i)
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			at := i
			i += 2
			for i < len(s) && !(s[i] == '*' && i+1 < len(s) && s[i+1] == '/') {
				i++
			}
			i++ // on the comment's closing '/' (or past the end)
			put(' ', ' ', at)
		case c == '"' || c == '\'':
			put(c, c, i)
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
				if s[i] == '\\' && i+1 < len(s) && s[i+1] != '\n' {
					put(s[i], ' ', i)
					i++
					put(s[i], ' ', i)
					continue
				}
				if s[i] == c {
					put(c, c, i)
					break
				}
				put(s[i], ' ', i)
			}
		default:
			put(c, c, i)
		}
	}
	emit()
	return out
}

// cIdents are the identifiers of a line's code.
func cIdents(code string) []string {
	var out []string
	for i := 0; i < len(code); {
		c := code[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			j := i + 1
			for j < len(code) && (code[j] == '_' || code[j] >= 'a' && code[j] <= 'z' || code[j] >= 'A' && code[j] <= 'Z' || code[j] >= '0' && code[j] <= '9') {
				j++
			}
			out = append(out, code[i:j])
			i = j
			continue
		}
		if c >= '0' && c <= '9' {
			// A number (with its suffix) is no identifier.
			for i < len(code) && (code[i] == '_' || code[i] == '.' || code[i] >= 'a' && code[i] <= 'z' || code[i] >= 'A' && code[i] <= 'Z' || code[i] >= '0' && code[i] <= '9') {
				i++
			}
			continue
		}
		i++
	}
	return out
}
