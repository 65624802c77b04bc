package bmc_test

import (
	"context"
	"github.com/musket-verify/musket/internal/driver"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestAArch64MoreInstructions runs both engines on AArch64 instructions
// herd7 reads that Musket once refused: conditional selects (CSEL CSINC
// CSNEG CSET), MOVZ/MOVK, NEG, LSL, TBZ/TBNZ, the flag setters TST, CMN,
// ADDS, SUBS, and LDAPUR/STLUR; the one final state is the one the
// instructions compute.
func TestAArch64MoreInstructions(t *testing.T) {
	m, name, err := driver.Load("aarch64")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("AArch64")
	lt, err := litmus.Parse("alu.litmus", []byte(`AArch64 alu
{ 0:X1=x; }
 P0                  ;
 MOV W2,#5           ;
 MOV W3,#7           ;
 CMP W2,W3           ;
 CSEL W4,W2,W3,LT    ;
 CSINC W5,W2,W3,EQ   ;
 CSET W6,NE          ;
 MOVZ W7,#1,LSL #16  ;
 MOVK W7,#2          ;
 NEG W8,W2           ;
 LSL W9,W2,#2        ;
 TST W2,#4           ;
 B.EQ L1             ;
 MOV W10,#1          ;
L1:                  ;
 TBZ W2,#1,L2        ;
 MOV W11,#1          ;
L2:                  ;
 ADDS W12,W2,W3      ;
 SUBS W13,W2,#5      ;
 B.NE L3             ;
 MOV W14,#1          ;
L3:                  ;
 LDAPUR W15,[X1]     ;
 STLUR W2,[X1]       ;
 CMN W8,#5           ;
 CSNEG W16,W2,W3,NE  ;
exists (0:X4=5 /\ 0:X5=8 /\ 0:X6=1 /\ 0:X7=65538 /\ 0:X8=-5 /\ 0:X9=20 /\ 0:X10=1 /\ 0:X11=0 /\ 0:X12=12 /\ 0:X13=0 /\ 0:X14=1 /\ 0:X15=0 /\ x=5 /\ 0:X16=-7)
`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a := enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags()})
	b := bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()})
	if a.Status != result.Done || b.Status != result.Done {
		t.Fatalf("enum %s %v, smt %s %v", a.Status, a.Err, b.Status, b.Err)
	}
	if stateSet(a) != stateSet(b) || !a.Ok() || !b.Ok() || len(a.States) != 1 {
		t.Errorf("enum %v {%s}, smt %v {%s}", a.Ok(), stateSet(a), b.Ok(), stateSet(b))
	}
}
