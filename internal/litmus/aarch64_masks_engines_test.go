package litmus_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
)

// TestA64DropMasksSame: the W-register extensions the range analysis
// leaves out (aarch64_masks.go) change no answer. Each test is run with
// them left out and kept, under both engines: the same verdict and the
// same final states. The tests are chosen where an unsound analysis would
// show: W results past 32 bits, a loop, narrow loads of negative words,
// bytes of two stores read together by a wider load, and the small
// values of ordinary litmus tests (where the extensions do go).
func TestA64DropMasksSame(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"loop", `AArch64 loop
{ int x=0; 0:X1=x; }
 P0          ;
 MOV W0,#0   ;
 L0:         ;
 ADD W0,W0,#1 ;
 CMP W0,#3   ;
 B.NE L0     ;
 STR W0,[X1] ;
exists (x=3)
`},
		{"negative words", `AArch64 neg
{ int x=-1; 0:X1=x; int64_t 0:X2; int64_t 0:X3; }
 P0           ;
 LDR W0,[X1]  ;
 ADD W2,W0,#1 ;
 LSL W3,W0,#4 ;
 CMP W0,#0    ;
 CSET W4,LT   ;
exists (0:X2=0 /\ 0:X4=1)
`},
		{"bytes of two stores", `AArch64 bytes
{ uint16_t x; 0:X1=x; 1:X1=x; int64_t 1:X3; int64_t 1:X4; }
 P0              | P1            ;
 MOV W2,#255     | LDRH W0,[X1]  ;
 STRB W2,[X1]    | LSL W3,W0,#20 ;
 STRB W2,[X1,#1] | ADD W4,W0,#1  ;
                 | CMP W0,#0     ;
                 | CSET W5,EQ    ;
exists (1:X3=0)
`},
		{"small values", `AArch64 small
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0          | P1                  ;
 MOV W0,#1   | LDR W0,[X1]         ;
 STR W0,[X1] | EOR W2,W0,W0        ;
 DMB SY      | LDR W4,[X3,W2,SXTW] ;
 MOV W2,#1   | ADD W5,W0,#7        ;
 STR W2,[X3] | CMP W5,#8           ;
             | CSET W6,GE          ;
exists (1:X0=1 /\ 1:X4=0)
`},
		{"LB+rs", `AArch64 LB+rs
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0           | P1           ;
 LDR W0,[X1]  | LDR W0,[X1]  ;
 ADD W2,W0,#0 | ADD W2,W0,#1 ;
 MOV W0,#1    | STR W2,[X3]  ;
 STR W0,[X3]  |              ;
exists (0:X0=1 /\ 0:X2=2 /\ 1:X2=2 /\ y=1 /\ x=2)
`},
	} {
		var answers [2]string
		var codes [2]string
		for i, keep := range []bool{false, true} {
			litmus.KeepA64Masks(keep)
			lt, err := litmus.Parse(tc.name+".litmus", []byte(tc.src))
			litmus.KeepA64Masks(false)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			var code []string
			for _, th := range lt.Threads {
				for _, in := range th.Code {
					code = append(code, prog.InstrString(in))
				}
			}
			codes[i] = strings.Join(code, " | ")
			for j, r := range runBoth(t, lt, "aarch64", "AArch64") {
				if r.Status != result.Done {
					t.Errorf("%s (keep %v) engine %d: %s %v", tc.name, keep, j, r.Status, r.Err)
					continue
				}
				var states []string
				for _, s := range r.States {
					states = append(states, report.StateLine(r, s))
				}
				sort.Strings(states)
				a := strings.Join(states, "\n")
				if r.Ok() {
					a += "\nOk"
				}
				if j == 0 {
					answers[i] = a
				} else if a != answers[i] {
					t.Errorf("%s (keep %v): smt\n%s\nenum\n%s", tc.name, keep, a, answers[i])
				}
			}
		}
		if answers[0] != answers[1] {
			t.Errorf("%s: extensions left out\n%s\nkept\n%s", tc.name, answers[0], answers[1])
		}
		if (tc.name == "small values" || tc.name == "LB+rs") && codes[0] == codes[1] {
			t.Errorf("%s: no extension left out: %s", tc.name, codes[0])
		}
	}
}
