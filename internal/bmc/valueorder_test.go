package bmc_test

import (
	"context"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestSelfJustifyingValues runs both engines under models with no
// coherence or no-thin-air axiom, where a read could return any value
// that justifies itself through rf and data flow (r1 = 41 because x = r2,
// r2 = y = r1 ...): the SMT engine listed such states forever. Values
// must be computable, as in the explicit engine and herd7; the test runs
// under a wall-clock limit and fails if the SMT engine reaches it.
func TestSelfJustifyingValues(t *testing.T) {
	models := map[string]string{
		"no axiom":     "flag ~empty R as reads\n",
		"po | rf only": "acyclic po | rf as porf\n",
		"coherence":    "acyclic po-loc | rf | co | fr as coherence\n",
	}
	tests := map[string]string{
		"LB+datas": `AArch64 LB+datas
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0             | P1             ;
 LDR W0,[X1]    | LDR W0,[X1]    ;
 STR W0,[X3]    | STR W0,[X3]    ;
exists (0:X0=42 /\ 1:X0=42)`,
		"LB+data+addr": `AArch64 LB+data+addr
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0             | P1                ;
 LDR W0,[X1]    | LDR W0,[X1]       ;
 ADD W2,W0,#1   | EOR W5,W0,W0      ;
 STR W2,[X3]    | LDR W6,[X3,W5,SXTW] ;
                | STR W0,[X3]       ;
exists (0:X0=41 /\ 1:X0=42)`,
		"read of its own write": `AArch64 own
{ 0:X1=x; }
 P0             ;
 LDR W0,[X1]    ;
 ADD W2,W0,#1   ;
 STR W2,[X1]    ;
exists (0:X0=5)`,
		"exclusive increment": `AArch64 inc
{ 0:X1=x; 1:X1=x; }
 P0              | P1              ;
 LDXR W0,[X1]    | LDXR W0,[X1]    ;
 ADD W2,W0,#1    | ADD W2,W0,#1    ;
 STXR W4,W2,[X1] | STXR W4,W2,[X1] ;
exists (x=7)`,
		"C fetch-add": `C fadd
{}
P0(atomic_int *x, atomic_int *y) { int r0 = atomic_load_explicit(x, memory_order_relaxed); atomic_fetch_add_explicit(y, r0 + 1, memory_order_relaxed); }
P1(atomic_int *x, atomic_int *y) { int r1 = atomic_fetch_add_explicit(y, 0, memory_order_relaxed); atomic_store_explicit(x, r1, memory_order_relaxed); }
exists (0:r0=3)`,
	}
	for mname, msrc := range models {
		m := loadModel(t, msrc)
		for tname, src := range tests {
			t.Run(mname+"/"+tname, func(t *testing.T) {
				lt, err := litmus.Parse(tname+".litmus", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				fe, _ := litmus.Lookup(lt.Arch)
				const limit = 60 * time.Second
				ctx, cancel := context.WithTimeout(context.Background(), limit)
				defer cancel()
				a := enum.Run(ctx, lt, m, mname, enum.Options{TagNames: fe.Tags()})
				b := bmc.Run(ctx, lt, m, mname, bmc.Options{TagNames: fe.Tags()})
				if b.Status == result.Timeout {
					t.Fatalf("the SMT engine did not finish within %s", limit)
				}
				if a.Status != result.Done || b.Status != result.Done {
					t.Fatalf("enum %s %v, smt %s %v", a.Status, a.Err, b.Status, b.Err)
				}
				if a.Ok() != b.Ok() || stateSet(a) != stateSet(b) {
					t.Errorf("enum %v {%s}, smt %v {%s}", a.Ok(), stateSet(a), b.Ok(), stateSet(b))
				}
			})
		}
	}
}
