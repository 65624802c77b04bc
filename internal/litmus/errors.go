package litmus

import (
	"fmt"
	"strings"
)

// Errors are source.ErrorList (positioned, "file:line:col: msg").

// notAReg ends a message about an operand that should be a register: a
// word in its place is named, as a register the architecture lacks.
func notAReg(arch, word string) string {
	if word == "" {
		return ""
	}
	return fmt.Sprintf(": %q is not a%s %s register", word, article(arch), arch)
}

func article(arch string) string {
	if arch != "" && strings.ContainsRune("AEIOU", rune(arch[0])) {
		return "n"
	}
	return ""
}

// symName is name when the operand is a word (isSym), else "".
func symName(isSym bool, name string) string {
	if isSym {
		return name
	}
	return ""
}
