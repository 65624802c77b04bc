package bmc_test

import (
	"github.com/musket-verify/musket/internal/driver"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
)

// TestExclusivesDifferential compares the engines on load-reserve /
// store-conditional pairs of every architecture that has them, on
// load-buffering shapes where the outcome is allowed unless something
// orders the store-conditional before the next access. The RISC-V
// front-end branches on a store-conditional's status register inside the
// instruction (to give a successful sc's rd its dependencies): that jump
// is no control dependency (prog.Jump.NoCtrl; once the SMT engine made it
// one, and answered No on RISC-V's LB+ctrl+poxp and its family). A branch
// of the test itself on the sc's rd is one, from the sc's write, as in
// herd7 (RISCV/ISA-DEP-WW-CTRL: Never).
func TestExclusivesDifferential(t *testing.T) {
	tests := []struct {
		name, arch, model, src string
		ok                     bool
	}{
		{"RISC-V sc then an independent store", "RISCV", "riscv", `RISCV t
{ 0:x6=x; 0:x8=y; 1:x5=y; 1:x9=x; }
 P0             | P1               ;
 lw x5,0(x6)    | lr.w x6,0(x5)    ;
 bne x5,x0,L0   | sc.w x7,x6,0(x5) ;
 L0:            | ori x8,x0,1      ;
 ori x7,x0,1    | sw x8,0(x9)      ;
 sw x7,0(x8)    |                  ;
exists (y=1 /\ 0:x5=1 /\ 1:x7=0 /\ 1:x6=1)`, true},
		{"RISC-V sc then a store whose data depends on its rd", "RISCV", "riscv", `RISCV t
{ 0:x6=x; 0:x8=y; 1:x5=y; 1:x9=x; }
 P0             | P1                 ;
 lw x5,0(x6)    | lr.w x6,0(x5)      ;
 bne x5,x0,L0   | sc.w x7,x6,0(x5)   ;
 L0:            | xor x10,x7,x7      ;
 ori x7,x0,1    | ori x8,x10,1       ;
 sw x7,0(x8)    | sw x8,0(x9)        ;
exists (y=1 /\ 0:x5=1 /\ 1:x7=0 /\ 1:x6=1)`, false},
		{"RISC-V sc then a branch on its rd", "RISCV", "riscv", `RISCV t
{ 0:x6=x; 0:x8=y; 1:x5=y; 1:x9=x; }
 P0             | P1               ;
 lw x5,0(x6)    | lr.w x6,0(x5)    ;
 bne x5,x0,L0   | sc.w x7,x6,0(x5) ;
 L0:            | bne x7,x0,L1     ;
 ori x7,x0,1    | L1:              ;
 sw x7,0(x8)    | ori x8,x0,1      ;
                | sw x8,0(x9)      ;
exists (y=1 /\ 0:x5=1 /\ 1:x7=0 /\ 1:x6=1)`, false},
		{"RISC-V two pairs in a row", "RISCV", "riscv", `RISCV t
{ 0:x5=x; 0:x9=y; 1:x5=y; 1:x8=x; }
 P0                 | P1                ;
 ori x6,x0,1        | lr.w x6,0(x5)     ;
 lr.w x7,0(x5)      | sc.w x7,x6,0(x5)  ;
 sc.w x8,x6,0(x5)   | lr.w x9,0(x8)     ;
 ori x10,x0,1       | sc.w x10,x9,0(x8) ;
 lr.w x11,0(x9)     |                   ;
 sc.w x12,x10,0(x9) |                   ;
exists (x=1 /\ y=1 /\ 0:x12=0 /\ 0:x8=0 /\ 0:x7=0 /\ 0:x11=0 /\ 1:x10=0 /\ 1:x7=0 /\ 1:x6=1 /\ 1:x9=0)`, true},
		{"PPC stwcx. then a branch on CR0", "PPC", "power", `PPC t
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1               ;
 lwz r1,0(r2) | lwarx r1,r0,r2   ;
 xor r3,r1,r1 | stwcx. r1,r0,r2  ;
 addi r3,r3,1 | bne Fail         ;
 stw r3,0(r4) | Fail:            ;
              | li r3,1          ;
              | stw r3,0(r4)     ;
exists (0:r1=1 /\ 1:r1=1)`, true},
		{"AArch64 STXR then a branch on its status", "AArch64", "aarch64", `AArch64 t
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0             | P1              ;
 LDR W0,[X1]    | LDXR W0,[X1]    ;
 EOR W2,W0,W0   | STXR W4,W0,[X1] ;
 ADD W2,W2,#1   | CBNZ W4,Fail    ;
 STR W2,[X3]    | Fail:           ;
                | MOV W2,#1       ;
                | STR W2,[X3]     ;
exists (0:X0=1 /\ 1:X0=1 /\ 1:X4=0)`, true},
		{"ARMv7 STREX then a branch on its status", "ARM", "armv7", `ARM t
{ 0:R1=x; 0:R3=y; 1:R1=y; 1:R3=x; }
 P0             | P1               ;
 LDR R0,[R1]    | LDREX R0,[R1]    ;
 EOR R2,R0,R0   | STREX R4,R0,[R1] ;
 ADD R2,R2,#1   | CMP R4,#0        ;
 STR R2,[R3]    | BNE Fail         ;
                | Fail:            ;
                | MOV R2,#1        ;
                | STR R2,[R3]      ;
exists (0:R0=1 /\ 1:R0=1 /\ 1:R4=0)`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fe, err := litmus.Lookup(tc.arch)
			if err != nil {
				t.Fatal(err)
			}
			m, _, err := driver.Load(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			wantBothOk(t, tc.src, m, fe, nil, tc.ok)
		})
	}
}
