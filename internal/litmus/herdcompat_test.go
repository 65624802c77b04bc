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

// TestUniformSizes: sized types whose accesses all have one size (RISC-V's
// ISA16: uint64_t and a pointer, ld and sd) are not mixed-size; addresses
// computed at run time are then fine.
func TestUniformSizes(t *testing.T) {
	src := `RISCV ISA16
{
uint64_t z;
uint64_t *p = &z;
uint64_t x; uint64_t y;
0:s0=x ; 0:s1=y; 0:s2=p;
1:s0=x ; 1:s2=p;
}
 P0           | P1          ;
 ld t1,0(s0)  | ori t2,x0,1 ;
 andi t2,t1,8 | ld s1,0(s2) ;
 add s1,s1,t2 | ld t1,0(s1) ;
 sd s1,0(s2)  | sd t2,0(s0) ;
~exists 0:t1=1 /\ 1:s1=y
`
	lt, err := Parse("ISA16.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if lt.Mixed {
		t.Errorf("ISA16 lowered as mixed-size")
	}
	// One 32-bit store into a 64-bit location is still mixed-size.
	if _, err := Parse("m.litmus", []byte(strings.Replace(src, "sd t2,0(s0)", "sw t2,0(s0)", 1))); err == nil || !strings.Contains(err.Error(), "mixed-size") {
		t.Errorf("a 4-byte store into uint64_t x: %v", err)
	}
}
