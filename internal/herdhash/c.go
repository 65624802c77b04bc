package herdhash

import (
	"fmt"
	"strings"
)

// cFunc is one thread of a C test as herd7's shallow C reader keeps it:
// its number, its parameters and its body's text, verbatim.
type cFunc struct {
	proc   int
	params []cParam
	body   string
}

type cParam struct{ ty, name string }

// skipCSpace skips blanks and C and OCaml comments.
func skipCSpace(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n':
			i++
		case strings.HasPrefix(s[i:], "//"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return len(s)
			}
			i += j + 1
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return len(s)
			}
			i += j + 4
		case strings.HasPrefix(s[i:], "(*"):
			depth := 0
			for i < len(s) {
				if strings.HasPrefix(s[i:], "(*") {
					depth++
					i += 2
				} else if strings.HasPrefix(s[i:], "*)") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
		default:
			return i
		}
	}
	return i
}

// splitC cuts the code of a C test (its threads) from its final
// condition; the code is returned in the form cCodeText reads.
func splitC(body string) (string, string, error) {
	var funcs []string
	i := 0
	for {
		i = skipCSpace(body, i)
		_, head, ok := matchCProcHead(body[i:])
		if !ok {
			break
		}
		// The parameters, then the body up to its matching brace.
		j := i + head
		close := strings.IndexByte(body[j:], ')')
		if close < 0 {
			return "", "", fmt.Errorf("C: parameters not closed")
		}
		k := skipCSpace(body, j+close+1)
		if k >= len(body) || body[k] != '{' {
			return "", "", fmt.Errorf("C: no body")
		}
		depth := 0
		end := -1
		for p := k; p < len(body); p++ {
			if body[p] == '{' {
				depth++
			} else if body[p] == '}' {
				depth--
				if depth == 0 {
					end = p
					break
				}
			}
		}
		if end < 0 {
			return "", "", fmt.Errorf("C: body not closed")
		}
		funcs = append(funcs, body[i:end+1])
		i = end + 1
	}
	if len(funcs) == 0 {
		return "", "", fmt.Errorf("C: no thread")
	}
	return strings.Join(funcs, "\x00"), body[i:], nil
}

// cType prints a parameter's type as herd7 prints it for the digest:
// its top-level pointer stripped, then a '*' added.
func cType(ty string) string {
	ty = strings.Join(strings.Fields(ty), " ")
	ty = strings.TrimSpace(strings.TrimSuffix(ty, "*"))
	switch ty {
	case "atomic_int":
		ty = "_Atomic int"
	}
	return ty + "*"
}

// cCodeText prints the threads of a C test as herd7 digests them: each
// "static void Pn(type* name, ...) {body}" in a column of its own.
func cCodeText(code string) (string, error) {
	var cols [][]string
	for _, f := range strings.Split(code, "\x00") {
		proc, head, ok := matchCProcHead(f)
		if !ok {
			return "", fmt.Errorf("C: thread")
		}
		rest := f[head:]
		close := strings.IndexByte(rest, ')')
		params := rest[:close]
		open := strings.IndexByte(rest, '{')
		body := rest[open+1 : len(rest)-1]
		var ps []string
		for _, p := range strings.Split(params, ",") {
			p = strings.TrimSpace(p)
			if p == "" || p == "void" {
				continue
			}
			// The name is the last identifier.
			k := len(p)
			for k > 0 && (isIdent(p[k-1])) {
				k--
			}
			name := p[k:]
			ps = append(ps, cType(p[:k])+" "+name)
		}
		cols = append(cols, []string{fmt.Sprintf(cFuncFormat, proc, strings.Join(ps, ", "), body)})
	}
	return progText(cols), nil
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

var cFuncFormat = "P%s(%s) {\n%s\n}\n"
