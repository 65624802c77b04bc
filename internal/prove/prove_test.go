package prove

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInvariantTables reproduces Tables 5.3 and 5.4 under SC, TSO and
// PSO: "n" is proved, "y" is not proved because of a possible violation;
// the ARM column is refused.
func TestInvariantTables(t *testing.T) {
	for _, row := range InvariantTable.Rows {
		for _, c := range row.Cells {
			rep, err := Prove(context.Background(), filepath.Join(examples, c.File), Options{Model: c.Model})
			if !Sound(c.Model) {
				if err == nil || !strings.Contains(err.Error(), "sound only for") {
					t.Errorf("%s under %s: want a refusal, got %v", c.File, c.Model, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s under %s: %v", c.File, c.Model, err)
			}
			if rep.Proved == bool(c.Violation) {
				t.Errorf("%s under %s: proved %v (%s), the thesis says violation %v", c.File, c.Model, rep.Proved, rep.Reason, c.Violation)
			}
			if !rep.Proved && !strings.HasPrefix(rep.Reason, "possible violation") {
				t.Errorf("%s under %s: not proved for another reason: %s", c.File, c.Model, rep.Reason)
			}
		}
	}
}

// TestProveAnswers checks the reasons the method gives and its refusals.
func TestProveAnswers(t *testing.T) {
	const mp = `SPARC T
{ x=0; y=0; }
 P0           | P1            ;
 mov 1,%o1    | L: ld [y],%o1 ;
 st %o1,[x]   | cmp %o1,1     ;
 st %o1,[y]   | bne L         ;
              | nop           ;
              | ld [x],%o2    ;
`
	cases := []struct {
		name, src, model string
		proved           bool
		want             string // substring of the reason or the error
		isErr            bool
	}{
		{"proved", mp + "(* invariant P1:L 1:o1=0 *)\nexists (1:o2=0)\n", "tso", true, "", false},
		{"violation", mp + "(* invariant P1:L 1:o1=0 *)\nexists (1:o2=0)\n", "pso", false, "possible violation", false},
		{"not initially", mp + "(* invariant P1:L 1:o1=1 *)\nexists (1:o2=0)\n", "sc", false, "does not hold when the loop is entered", false},
		{"not inductive", `SPARC T
{ x=0; y=0; }
 P0           | P1            ;
 mov 2,%o1    | L: ld [y],%o1 ;
 st %o1,[y]   | cmp %o1,1     ;
 mov 1,%o2    | bne L         ;
 st %o2,[y]   | nop           ;
(* invariant P1:L 1:o1=0 *)
exists (1:o1=2)
`, "sc", false, "is not inductive", false},
		{"writing loop that never writes what is observed", `SPARC T
{ x=0; y=0; }
 P0           | P1            ;
 mov 1,%o1    | L: st %g0,[x] ;
 st %o1,[y]   | ld [y],%o1    ;
              | cmp %o1,1     ;
              | bne L         ;
              | nop           ;
(* invariant P1:L 1:o1=0 *)
exists (x=1)
`, "sc", true, "", false},
		{"store-conditional that only fails when repeating", `ARM T
{ 0:R1=x; }
 P0               ;
 MOV R3,#1        ;
 L: LDREX R0,[R1] ;
 STREX R4,R3,[R1] ;
 CMP R4,#0        ;
 BNE L            ;
(* invariant P0:L 0:R3=1 *)
exists (x=0)
`, "sc", true, "", false},
		{"store-conditional whose success repeats", `ARM T
{ 0:R1=x; }
 P0               ;
 MOV R3,#1        ;
 L: LDREX R0,[R1] ;
 STREX R4,R3,[R1] ;
 CMP R4,#0        ;
 BEQ L            ;
(* invariant P0:L 0:R3=1 *)
exists (x=0)
`, "sc", false, "possible violation", false},
		{"store-conditional whose success repeats, observed", `ARM T
{ 0:R1=x; 1:R1=x; }
 P0               | P1          ;
 MOV R3,#1        | LDR R0,[R1] ;
 L: LDREX R0,[R1] |             ;
 STREX R4,R3,[R1] |             ;
 CMP R4,#0        |             ;
 BEQ L            |             ;
 MOV R3,#2        |             ;
 STR R3,[R1]      |             ;
(* invariant P0:L 0:R3=1 *)
exists (1:R0=1)
`, "tso", false, "possible violation", false},
		{"forall", mp + "(* invariant P1:L 1:o1=0 *)\nforall (1:o2=1)\n", "sc", true, "", false},
		{"refused model", mp + "(* invariant P1:L 1:o1=0 *)\nexists (1:o2=0)\n", "rmo", false, "sound only for", true},
		{"no invariant", mp + "exists (1:o2=0)\n", "sc", false, "has no invariant", true},
		{"unknown label", mp + "(* invariant P1:M 1:o1=0 *)\nexists (1:o2=0)\n", "sc", false, "9:14: P1 has no label M", true},
		{"no thread", mp + "(* invariant P7:L 1:o1=0 *)\nexists (1:o2=0)\n", "sc", false, "9:14: no thread P7", true},
		{"other thread", mp + "(* invariant P1:L 0:o1=0 *)\nexists (1:o2=0)\n", "sc", false, "only mention registers of P1", true},
		{"memory", mp + "(* invariant P1:L x=0 *)\nexists (1:o2=0)\n", "sc", false, "only mention registers of P1", true},
		{"bad condition", mp + "(* invariant P1:L 1:o1= *)\nexists (1:o2=0)\n", "sc", false, "9:25: expected a value", true},
		{"not a loop head", `SPARC T
{ x=0; }
 P0          ;
 M: ld [x],%o1 ;
(* invariant P0:M 0:o1=0 *)
exists (0:o1=1)
`, "sc", false, "not the head of a loop", true},
		{"carried register, loop that never ends", `SPARC T
{ x=0; }
 P0              ;
 L: add %o1,1,%o1 ;
 ld [x],%o2      ;
 cmp %o2,0       ;
 be L            ;
 nop             ;
(* invariant P0:L 0:o2=0 *)
exists (0:o1=5)
`, "sc", true, "", false},
	}
	dir := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".litmus")
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := Prove(context.Background(), path, Options{Model: c.model})
		if c.isErr {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if rep.Proved != c.proved || !strings.Contains(rep.Reason, c.want) {
			t.Errorf("%s: proved %v, reason %q; want proved %v, reason containing %q", c.name, rep.Proved, rep.Reason, c.proved, c.want)
		}
	}
}
