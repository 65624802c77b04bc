package bmc_test

import (
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/driver"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestRISCVMixedSize runs both engines, under the built-in RISC-V model,
// on mixed-size RISC-V tests: byte and half-word accesses, offsets, word
// accesses to a 64-bit location, the loads that sign-extend (lb, lh, lw)
// and those that do not (lbu, lhu, lwu). A register is observed at its
// type, int (32 bits) unless declared, as herd7 observes it: the torn read
// declares its 64-bit x9 so that x9=0 means the whole of it.
func TestRISCVMixedSize(t *testing.T) {
	m, name, err := driver.Load("riscv")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("RISCV")
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"sign and zero extension", `RISCV t
{ uint64_t x = 0x1ff; 0:x5=x; 1:x5=x; }
 P0            | P1             ;
 li x6,-2      | lb x7,0(x5)    ;
 sb x6,1(x5)   | lbu x8,0(x5)   ;
 li x9,0x8001  | lh x10,2(x5)   ;
 sh x9,2(x5)   | lhu x11,2(x5)  ;
               | lw x12,0(x5)   ;
               | lwu x14,0(x5)  ;
               | ld x13,0(x5)   ;
exists (1:x7=-1 /\ 1:x8=255 /\ 1:x10=-32767 /\ 1:x11=32769 /\ 1:x12=-2147352833 /\ 1:x14=2147614463 /\ 1:x13=2147614463 /\ x=0x8001feff)`, true},
		{"a torn read of two halves is forbidden by coherence", `RISCV t
{ uint64_t x = 0; 0:x5=x; 1:x5=x; int64_t 1:x9; }
 P0           | P1           ;
 li x6,-1     | lw x7,4(x5)  ;
 sd x6,0(x5)  | fence r,r    ;
              | lw x8,0(x5)  ;
              | ld x9,0(x5)  ;
exists (1:x7=-1 /\ 1:x8=0 /\ 1:x9=0)`, false},
		{"message passing through a byte", `RISCV t
{ uint32_t x = 0; uint8_t y = 0; 0:x5=x; 0:x6=y; 1:x5=x; 1:x6=y; }
 P0           | P1           ;
 li x7,1      | lbu x8,0(x6) ;
 sw x7,0(x5)  | fence r,r    ;
 fence w,w    | lhu x9,2(x5) ;
 sb x7,0(x6)  | lhu x10,0(x5) ;
exists (1:x8=1 /\ 1:x10=0)`, false},
		{"a word AMO on half of a 64-bit location", `RISCV t
{ uint64_t x = 0x1fffffffe; 0:x5=x; 1:x5=x; }
 P0                   | P1           ;
 li x6,1              | ld x8,0(x5)  ;
 amoadd.w x7,x6,(x5)  |              ;
exists (0:x7=-2 /\ 1:x8=0x1ffffffff /\ x=0x1ffffffff)`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lt, err := litmus.Parse("t.litmus", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if !lt.Mixed {
				t.Fatal("not lowered as a mixed-size test")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			a := enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags(), Uniproc: lt.Mixed})
			b := bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()})
			if a.Status != result.Done || b.Status != result.Done {
				t.Fatalf("enum %s %v, smt %s %v", a.Status, a.Err, b.Status, b.Err)
			}
			if a.Ok() != b.Ok() || stateSet(a) != stateSet(b) {
				t.Fatal(fmt.Sprintf("enum %v {%s}, smt %v {%s}", a.Ok(), stateSet(a), b.Ok(), stateSet(b)))
			}
			if a.Ok() != tc.ok {
				t.Errorf("Ok %v, want %v; states {%s}", a.Ok(), tc.ok, stateSet(a))
			}
		})
	}
}
