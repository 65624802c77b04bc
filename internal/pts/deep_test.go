package pts

import (
	"strings"
	"testing"
)

// TestDeepInput: hostile nesting gives a positioned error, never a stack
// overflow.
func TestDeepInput(t *testing.T) {
	for name, src := range map[string]string{
		"parentheses": "{x}\nthread t0 {\n r0 <- " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + ";\n}\nexists x=0\n",
		"blocks":      "{x}\nthread t0 {\n" + strings.Repeat("while True {\n", 100000) + strings.Repeat("}\n", 100000) + "}\nexists x=0\n",
		"condition":   "{x}\nthread t0 {\n x.store(_rx,1);\n}\nexists " + strings.Repeat("(", 100000) + "x=1" + strings.Repeat(")", 100000) + "\n",
		"truncated":   "{x}\nthread t0 {\n x.store(_rx,1);\n",
	} {
		if _, err := Parse("d.pts", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), "d.pts:") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
