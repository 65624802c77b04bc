package enum

import (
	"context"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
)

// TestUniproc checks that the uniproc pre-filter keeps the verdicts and
// states of a model that requires coherence, and drops candidates.
func TestUniproc(t *testing.T) {
	m, err := cat.LoadBuiltin("aarch64")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"AArch64 CoWW\n{\n0:X1=x;\n}\n P0 ;\n MOV W0,#1 ;\n STR W0,[X1] ;\n MOV W0,#2 ;\n STR W0,[X1] ;\nexists (x=1)\n",
		"AArch64 CoRR\n{\n0:X1=x; 1:X1=x;\n}\n P0 | P1 ;\n MOV W0,#1 | LDR W2,[X1] ;\n STR W0,[X1] | LDR W3,[X1] ;\nexists (1:X2=1 /\\ 1:X3=0)\n",
		"AArch64 M\n{\nuint64_t x; 0:X1=x; 1:X1=x; 0:X0=0x100000001;\n}\n P0 | P1 ;\n STR X0,[X1] | LDR W2,[X1,#4] ;\n | LDR X3,[X1] ;\nexists (1:X2=1 /\\ 1:X3=0)\n",
	} {
		lt, err := litmus.Parse("t.litmus", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		fe, _ := litmus.Lookup("AArch64")
		a := Run(context.Background(), lt, m, "aarch64", Options{TagNames: fe.Tags()})
		b := Run(context.Background(), lt, m, "aarch64", Options{TagNames: fe.Tags(), Uniproc: true})
		if a.Ok() != b.Ok() || len(a.States) != len(b.States) || a.Positive != b.Positive || a.Negative != b.Negative {
			t.Errorf("%s: without the filter %v %d states %d/%d, with it %v %d states %d/%d",
				lt.Name, a.Ok(), len(a.States), a.Positive, a.Negative, b.Ok(), len(b.States), b.Positive, b.Negative)
		}
	}
}
