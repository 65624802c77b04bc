package litmus

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestCellLexer checks the one lexer of the assembly, BPF and LISA
// cells on what each dialect adds: LISA's words and numbers with '-'
// and '.', BPF's operators of several bytes, the assembly dialects'
// punctuation of its own kind and dotted words, symbolic registers kept
// or refused, and the error of a byte no dialect reads, at its column.
func TestCellLexer(t *testing.T) {
	asm := cellLexer{arch: "RISCV", punct: "(),:+-", dotWords: true, inWord: "."}
	armSym := cellLexer{arch: "AArch64", punct: "[],#", inWord: ".", symRegs: true}
	tests := []struct {
		name string
		lx   cellLexer
		text string
		want string // kind:text lexemes, or "error: message" and its column
		col  int
	}{
		{"lisa annotation with dash", lisaLexer, "r[once-acq] r0 x", "w:r o:[ w:once-acq o:] w:r0 w:x", 0},
		{"lisa number with dot", lisaLexer, "w x 1.5-2", "w:w w:x n:1.5-2", 0},
		{"lisa label", lisaLexer, "L0: b r0 L0", "w:L0 o:: w:b w:r0 w:L0", 0},
		{"lisa symbolic register", lisaLexer, "r[] %r0 x", "error: unsupported LISA symbolic register '%'", 4},
		{"bpf shifts", bpfLexer, "r0 s>>= 2", "w:r0 o:s>>= n:2", 0},
		{"bpf compound ops", bpfLexer, "r1 <<= r2; r3 != 0", "error: unexpected ';' in BPF instruction", 9},
		{"bpf longest first", bpfLexer, "if r0 >= 1 goto L", "w:if w:r0 o:>= n:1 w:goto w:L", 0},
		{"bpf store", bpfLexer, "*(u32 *)(r1 + 0) = r2", "o:* o:( w:u32 o:* o:) o:( w:r1 o:+ n:0 o:) o:= w:r2", 0},
		{"bpf no dots", bpfLexer, "r0.x", "error: unexpected '.' in BPF instruction", 2},
		{"asm punctuation kinds", asm, "lw.aq x5,0(x6)", "w:lw.aq w:x5 ,:, n:0 (:( w:x6 ):)", 0},
		{"asm dot word", asm, ".L1:", "w:.L1 :::", 0},
		{"asm symbolic register", armSym, "LDR W0,[%p]", "w:LDR w:W0 ,:, [:[ w:%p ]:]", 0},
		{"asm unknown byte", asm, "add x1,x2;x3", "error: unexpected ';' in RISCV instruction", 9},
	}
	for _, tc := range tests {
		toks, err := tc.lx.lex(Cell{Text: tc.text, Pos: prog.Pos{Line: 1, Col: 1}})
		var got string
		if err != nil {
			got = "error: " + err.Msg
			if err.Pos.Col-1 != tc.col {
				t.Errorf("%s: error at column %d, want %d", tc.name, err.Pos.Col-1, tc.col)
			}
		} else {
			var parts []string
			for _, tk := range toks {
				parts = append(parts, string(tk.kind)+":"+tk.text)
			}
			got = strings.Join(parts, " ")
		}
		if got != tc.want {
			t.Errorf("%s: %q lexes as %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
