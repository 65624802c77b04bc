package cfront

import (
	"bytes"
	"regexp"
)

// This file finds the string literals a program reads. clang names them
// @.str, @.str.N (and @__func__.f, @__PRETTY_FUNCTION__.f for assert's
// texts). Most only reach assert's failure function or printf, which
// read nothing Musket models, and declaring their characters as
// locations would cost every engine an initial write per character; so
// globals leaves them out. A literal the program itself reads (a table
// of names whose first letter it tests, a literal copied) must be
// declared, or its reads would see no characters at all.

// textGlobal matches a reference to a literal's global.
var textGlobal = regexp.MustCompile(`@(?:\.str[.0-9]*|__func__\.[A-Za-z0-9_.]+|__PRETTY_FUNCTION__\.[A-Za-z0-9_.]+)\b`)

// textOnlyCall matches the calls that take literals without reading
// them (as Musket lowers them: assertions, output).
var textOnlyCall = regexp.MustCompile(`call [^@]*@(?:__assert_fail|printf|puts|vprintf|fprintf|__VERIFIER_[A-Za-z_]+|reach_error)\(`)

// literalsRead lists the literal globals that some line of the IR ll
// uses other than as an argument of a textOnlyCall and other than in
// its own definition: a global's initializer that points at one, a load,
// a call of a function of the program.
func literalsRead(ll []byte) map[string]bool {
	read := map[string]bool{}
	for _, line := range bytes.Split(ll, []byte("\n")) {
		if !bytes.Contains(line, []byte("@")) || textOnlyCall.Match(line) {
			continue
		}
		t := bytes.TrimSpace(line)
		for _, m := range textGlobal.FindAllIndex(t, -1) {
			if m[0] == 0 {
				continue // the literal's own definition
			}
			read[string(t[m[0]+1:m[1]])] = true
		}
	}
	return read
}
