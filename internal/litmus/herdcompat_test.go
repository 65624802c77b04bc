package litmus

import (
	"strings"
	"testing"
)

// TestHerdNames: words that are keywords of C but not of herd7's C are
// names there: the kernel's lock-free tests use continue as a variable,
// and true is an unset register (0). break; and continue; stay
// statements.
func TestHerdNames(t *testing.T) {
	for _, tc := range []struct{ name, body, code string }{
		{"continue as a variable", "int continue = 1; int r0 = 0; while (continue) { r0 = READ_ONCE(*x); continue = 0; }", "continue"},
		{"break as a variable", "int break = 2; WRITE_ONCE(*x, break);", "break"},
		{"true is 0", "int r0 = 0; if (true) { r0 = 1; }", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "C t\n{}\nP0(int *x) {\n  " + tc.body + "\n}\nexists (x=1)\n"
			lt, err := Parse("t.litmus", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if code := cCode(lt); !strings.Contains(code, tc.code) {
				t.Errorf("code %s does not use %q", code, tc.code)
			}
		})
	}
}

// TestHeaderComments: a comment that closes is skipped, wherever it is;
// one left open in the header is read as herd7 reads a header, line by
// line up to the '{' of the initial state.
func TestHeaderComments(t *testing.T) {
	for _, tc := range []struct{ name, header string }{
		{"closed", "(* a comment { with a brace } *)\n"},
		{"closed over lines", "(*\n a comment\n*)\n"},
		{"left open", "(* an open comment,\n   over two lines (with parentheses), a;b.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "X86 t\n" + tc.header + "{ x=0; }\n P0 ;\n MOV [x],1 ;\nexists (x=1)\n"
			lt, err := Parse("t.litmus", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if lt.Name != "t" || len(lt.Threads) != 1 {
				t.Errorf("name %q, %d threads", lt.Name, len(lt.Threads))
			}
		})
	}
}

// TestNameWithoutSuffix: herd7 drops ".litmus" from a test's name line.
func TestNameWithoutSuffix(t *testing.T) {
	lt, err := Parse("t.litmus", []byte("X86 t.litmus\n{ x=0; }\n P0 ;\n MOV [x],1 ;\nexists (x=1)\n"))
	if err != nil {
		t.Fatal(err)
	}
	if lt.Name != "t" {
		t.Errorf("name %q, want t", lt.Name)
	}
}
