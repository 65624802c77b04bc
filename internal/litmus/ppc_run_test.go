package litmus_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestPPCVerdicts runs small PPC tests of the instructions and idioms the
// corpus has little or none of (indexed accesses, eieio, record forms,
// ordered branches, reservation loops) under our built-in Power model and
// herd's ppc.cat, which must agree with the verdict of the Power model.
func TestPPCVerdicts(t *testing.T) {
	models := map[string]*cat.Model{}
	m, err := cat.LoadBuiltin("power")
	if err != nil {
		t.Fatal(err)
	}
	models["power"] = m
	const herd = "../../../shared/corpus/cat/herd/ppc.cat"
	if _, err := os.Stat(herd); err == nil {
		if models["herd"], err = cat.Load(herd, cat.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, src string
		ok        bool // herd's verdict: some execution satisfies the condition
	}{
		{"MP+lwsync+addr (indexed)", `PPC t
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1            ;
 li r1,1      | lwz r1,0(r2)  ;
 stw r1,0(r2) | xor r3,r1,r1  ;
 lwsync       | lwzx r5,r3,r4 ;
 stw r1,0(r4) |               ;
exists (1:r1=1 /\ 1:r5=0)`, false},
		{"MP+lwsync+po", `PPC t
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1            ;
 li r1,1      | lwz r1,0(r2)  ;
 stw r1,0(r2) | lwzx r5,r0,r4 ;
 lwsync       |               ;
 stw r1,0(r4) |               ;
exists (1:r1=1 /\ 1:r5=0)`, true},
		{"MP+eieio+addr", `PPC t
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0            | P1            ;
 li r1,1       | lwz r1,0(r2)  ;
 stwx r1,r0,r2 | xor r3,r1,r1  ;
 eieio         | lwzx r5,r3,r4 ;
 stwx r1,r0,r4 |               ;
exists (1:r1=1 /\ 1:r5=0)`, false},
		{"MP+lwsync+ctrl (blt)", `PPC t
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1           ;
 li r1,1      | lwz r1,0(r2) ;
 stw r1,0(r2) | cmpwi r1,0   ;
 lwsync       | blt L        ;
 stw r1,0(r4) | L:           ;
              | lwz r5,0(r4) ;
exists (1:r1=1 /\ 1:r5=0)`, true},
		{"MP+lwsync+ctrlisync (record form)", `PPC t
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1            ;
 li r1,1      | lwz r1,0(r2)  ;
 stw r1,0(r2) | and. r3,r1,r1 ;
 lwsync       | bgt L         ;
 stw r1,0(r4) | L:            ;
              | isync         ;
              | lwz r5,0(r4)  ;
exists (1:r1=1 /\ 1:r5=0)`, false},
		{"branch taken on a comparison", `PPC t
{ 0:r2=x; x=3; }
 P0           ;
 lwz r1,0(r2) ;
 li r3,0      ;
 cmpwi r1,2   ;
 ble L        ;
 li r3,1      ;
 L:           ;
forall (0:r3=1)`, true},
		{"atomic increments", `PPC t
{ 0:r2=x; 1:r2=x; }
 P0              | P1              ;
 L0:             | L1:             ;
 lwarx r1,r0,r2  | lwarx r1,r0,r2  ;
 addi r1,r1,1    | addi r1,r1,1    ;
 stwcx. r1,r0,r2 | stwcx. r1,r0,r2 ;
 bne L0          | bne L1          ;
exists (x=1)`, false},
		{"atomic increments succeed", `PPC t
{ 0:r2=x; 1:r2=x; }
 P0              | P1              ;
 L0:             | L1:             ;
 lwarx r1,r0,r2  | lwarx r1,r0,r2  ;
 addi r1,r1,1    | addi r1,r1,1    ;
 stwcx. r1,r0,r2 | stwcx. r1,r0,r2 ;
 bne L0          | bne L1          ;
exists (x=2)`, true},
	} {
		tst, err := litmus.Parse(tc.name+".litmus", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		fe, _ := litmus.Lookup("PPC")
		for name, m := range models {
			r := enum.Run(context.Background(), tst, m, name, enum.Options{TagNames: fe.Tags()})
			if r.Status != result.Done {
				t.Errorf("%s/%s: status %s: %v", tc.name, name, r.Status, r.Err)
				continue
			}
			if r.Ok() != tc.ok {
				t.Errorf("%s/%s: Ok %v, want %v", tc.name, name, r.Ok(), tc.ok)
			}
		}
	}
}

// TestPPCInstructionLitmus runs the litmus tests of testdata/ppc under
// the built-in power model with both engines; each file says why its
// verdict is the right one.
func TestPPCInstructionLitmus(t *testing.T) {
	runEngineCases(t, "power", "PPC", "ppc", 60*time.Second, []engineCase{
		{file: "OPS", ok: true, states: 1},
		{file: "LWA", ok: true, states: 1},
		{file: "SYMREGS", ok: true, states: 3},
	})
}
