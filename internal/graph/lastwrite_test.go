package graph

import (
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
)

// lastWriteTests are load buffering through a read that takes another
// thread's write after a write of its own to the location (fri; rfi
// before it), by model: with the reads the prefix holds bounded by
// lastWriteBefore, the graph engine builds the execution in which both
// threads' first reads take the other's last write (without, it had one
// state fewer than the explicit engine).
var lastWriteTests = []struct{ model, name, src string }{
	{"aarch64", "LB+fri-rfi-datas", `AArch64 LB+fri-rfi-datas
{ 0:X1=x; 0:X5=y; 1:X1=y; 1:X5=x; }
 P0           | P1           ;
 LDR W0,[X1]  | LDR W0,[X1]  ;
 MOV W2,#2    | MOV W2,#2    ;
 STR W2,[X1]  | STR W2,[X1]  ;
 LDR W3,[X1]  | LDR W3,[X1]  ;
 EOR W4,W3,W3 | EOR W4,W3,W3 ;
 ADD W4,W4,#1 | ADD W4,W4,#1 ;
 STR W4,[X5]  | STR W4,[X5]  ;
locations [0:X3; 1:X3;]
exists (x=2 /\ y=2 /\ 0:X0=1 /\ 1:X0=1)
`},
}

// TestLastWriteAgainstEnum compares lastWriteTests with the explicit
// engine (counts and final states).
func TestLastWriteAgainstEnum(t *testing.T) {
	for _, c := range lastWriteTests {
		lt, err := litmus.Parse(c.name+".litmus", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fe, err := litmus.Lookup(lt.Arch)
		if err != nil {
			t.Fatal(err)
		}
		cases := []corpusTest{{path: c.model + "/" + c.name, t: lt, tags: fe.Tags()}}
		if n := hwCompare(t, c.model, cases, map[string]bool{cases[0].path: false}); n != 1 {
			t.Errorf("%s under %s: %d compared, want 1", c.name, c.model, n)
		}
	}
}
