package gen

import (
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	for _, c := range []struct{ arch, cycle, name string }{
		{"X86", "PodWR Fre PodWR Fre", "SB"},
		{"X86", "Fre PodWR Fre PodWR", "SB"},
		{"X86", "MFencedWR Fre MFencedWR Fre", "SB+mfences"},
		{"X86", "PodRR Fre PodWW Rfe", "MP"},
		{"X86", "PodWW Wse PodWW Wse", "2+2W"},
		{"X86", "PodWW Wse PodWR Fre", "R"},
		{"X86", "PodWW Rfe PodRW Wse", "S"},
		{"X86", "Rfe PodRR Fre Rfe PodRR Fre", "IRIW"},

		{"PPC", "LwSyncdWW Rfe DpAddrdR Fre", "MP+lwsync+addr"},
		{"PPC", "Rfe SyncdRW Rfe LwSyncdRR Fre", "WRC+sync+lwsync"},
		{"PPC", "DpDatadW Rfe DpDatadW Rfe", "LB+datas"},
		{"AArch64", "DMB.SYdWW Rfe DpAddrdR Fre", "MP+dmb.sy+addr"},
		{"AArch64", "PodWWPL RfeLA PodRRAP Fre", "MP+popl+poap"},
		{"RISCV", "Fence.rw.rwdWW Rfe DpAddrdR Fre", "MP+fence.rw.rw+addr"},
		{"RISCV", "Rfe PosRR Fre", "CoRR"},
		{"ARM", "DMBdWW Rfe DpAddrdR Fre", "MP+dmb+addr"},
		{"ARM", "DMB.STdWW Rfe DpCtrlIsbdR Fre", "MP+dmb.st+ctrlisb"},
		{"C", "PodWWRlxRel RfeRelAcq PodRRAcqRlx FreRlxRlx", "MP+porlxrel+poacqrlx"},
	} {
		if got := mustName(t, c.arch, c.cycle); got != c.name {
			t.Errorf("%s %q: named %s, want %s", c.arch, c.cycle, got, c.name)
		}
	}
}

func mustName(t *testing.T, arch, cycle string) string {
	t.Helper()
	a, err := LookupArch(arch)
	if err != nil {
		t.Fatal(err)
	}
	es, err := a.ParseCycle([]string{cycle})
	if err != nil {
		t.Fatal(err)
	}
	tt, err := Build(a, es)
	if err != nil {
		t.Fatal(err)
	}
	return tt.Name()
}

func TestConditions(t *testing.T) {
	for _, c := range []struct{ arch, cycle, cond string }{
		{"X86", "PodWR Fre PodWR Fre", `(0:EAX=0 /\ 1:EAX=0)`},
		{"X86", "PodWW Rfe PodRR Fre", `(1:EAX=1 /\ 1:EBX=0)`},
		{"X86", "PodWW Wse PodWW Wse", `(x=2 /\ y=2)`},
		{"X86", "Rfe PosRR Fre", `(1:EAX=1 /\ 1:EBX=0)`},
		{"PPC", "LwSyncdWW Rfe DpAddrdR Fre", `(1:r2=1 /\ 1:r5=0)`},
		// Three writes to x, the first two in program order.
		{"X86", "PosWW Wse PodWR Fre PodWR Fre", `(x=3 /\ 1:EAX=0 /\ 2:EAX=0)`},
		// Four writes to x: the read of 1 before the write of 2 in P1
		// orders the first two (coherence), program order the next two,
		// the final value the last.
		{"X86", "Rfe PosRW Wsi Wse PosWR Fre", `(x=4 /\ 1:EAX=1 /\ 2:EAX=0)`},
		// diy's -optcond: the reads a same-location edge relates are in
		// the condition (both reads of x, both reads of y), the read of
		// a location no thread writes is not (z).
		{"X86", "PodWW Rfe PodRR PosRR Fre", `(1:EAX=1 /\ 1:EBX=0 /\ 1:ECX=0)`},
		{"X86", "PodWW Rfe PosRR PodRR Fre", `(1:EAX=1 /\ 1:EBX=1 /\ 1:ECX=0)`},
		{"X86", "PodWW Rfe PodRR PodRR Fre", `(1:EAX=1 /\ 1:ECX=0)`},
		{"AArch64", "DMB.SYdWW Rfe DpAddrdR PosRR Fre", `(1:X1=1 /\ 1:X4=0 /\ 1:X5=0)`},
		// Read-modify-writes: the read returns the write just before
		// its own in coherence; a Hat's two reads return one write.
		// Three writes to x that no read orders: an observer load after
		// P1's write of 1 must return 2.
		{"X86", "Rfe PosRW Wse Wse", `(x=3 /\ 1:EAX=3 /\ 1:EBX=2)`},
		// Detours (diy's DETOUR0452): P0 writes x, reads P1's later
		// write, reads P2's; P3's write of 1 is pinned by an observer.
		{"PPC", "DetourW DetourR DpCtrldW Rfe DpDatadW Wse", `(x=4 /\ 0:r3=3 /\ 0:r4=4 /\ 3:r2=1 /\ 3:r5=2)`},
		{"X86", "PodWR Rmw Rfe PodRR Fre", `(0:EAX=0 /\ 1:EAX=1 /\ 1:EBX=0)`},
		{"X86", "Rmw PodWW Rfe Rmw PodWW Rfe", `(x=2 /\ y=2 /\ 0:EAX=1 /\ 1:EAX=1)`},
		{"X86", "Rmw PodWR Fre Rfi PodRR Hat", `(0:EAX=0 /\ 0:EBX=0 /\ 1:EAX=1 /\ 1:EBX=0)`},
		{"RISCV", "Rmw PodWR Hat Rmw PodWR Hat", `(0:x6=0 /\ 0:x9=0 /\ 1:x6=0 /\ 1:x9=0)`},
	} {
		a, _ := LookupArch(c.arch)
		es, err := a.ParseCycle([]string{c.cycle})
		if err != nil {
			t.Fatal(err)
		}
		tt, err := Build(a, es)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		tt.Write(&b)
		if !strings.Contains(b.String(), "exists\n"+c.cond+"\n") {
			t.Errorf("%q: want %s in\n%s", c.cycle, c.cond, b.String())
		}
	}
}

func TestBadCycles(t *testing.T) {
	for _, c := range []struct{ arch, cycle, err string }{
		{"X86", "PodWR PodWR", "ends on a read but PodWR starts from a write"},
		{"X86", "PodWR Fri", "two external communications"},
		{"X86", "PodWR Fre PosWR Fre", "change it twice"},
		{"X86", "Rfe Fre", "both 1 and 0"},
		{"X86", "Wse Wse", "coherence cannot order"},
		{"X86", "DpAddrdR Fre", "X86 has no dependencies"},
		{"X86", "PodWRLA Fre", "no annotated accesses"},
		{"AArch64", "PodWRAL Fre", "acquire"},
		{"AArch64", "PodWRPA FreQP PodWRPA FreQP", "annotated both A and Q"},
		{"PPC", "Foo", "not an edge of PPC"},
		{"C", "PodWRRlxRlx FreRlxRlx PodWWRlxP RfiPRlx PodRRRlxRlx FreRlxRlx", "accessed both atomically and not"},
		{"C", "PodWWAcqRlx Rfe PodRR Fre", "memory_order_acquire) is for reads"},
		{"C", "PodRRRelRlx Fre PodWW Rfe", "memory_order_release) is for writes"},
		{"ARM", "DMB.SYdWW Rfe PodRR Fre", "not an edge of ARM"},
		{"ARM", "PodWWLA Rfe PodRR Fre", "no annotated accesses"},
		{"C", "Rmw PodWR Fre PodWR Fre", "one atomic exchange: give its memory order twice"},
		{"C", "PodWW Rfe RmwRlxAcq Rfe PodRR Fre", "one atomic exchange"},
		{"PPC", "RfLeave PodRR Fre PodWW Wse", "needs its Back"},
		{"PPC", "WsLeave RfBack PosRW", "outside them"},
		{"X86", "Hat Hat", "no thread writes x"},
		{"X86", "Hat PodRR Hat PodRR", "no thread writes"},
		{"PPC", "PodWR DpAddrdR Rmw Rfe PodRR Fre", "unsupported: DpAddrdR then Rmw"},
		{"AArch64", "Amo.SwpQP PodWR Hat Amo.SwpQP PodWR Hat", "no acquire-PC"},
		{"AArch64", "PodWRPQ Rmw Rfe PodRR Fre", "no acquire-PC"},
		{"AArch64", "PodWR Amo.StAddAL Rfe PodRR Fre", "no acquire form"},
		{"RISCV", "PodWR RmwXP Rfe PodRR Fre", "exclusive already"},
		{"AArch64", "PodWWw0w0 RfeXP PodRR Fre", "exclusive (X) access in a mixed-size cycle"},
		// Mixed-size accesses.
		{"AArch64", "PosWWw1q0 Rfe PodRR Fre", "w1 is not aligned"},
		{"AArch64", "PodWWw0q8 Rfe PodRR Fre", "q8 is not aligned"},
		{"X86", "PodWRw0w0 Fre PodWR Fre", "AArch64 only"},
		{"AArch64", "PodWWw0q0 Rfew0q0 PodRR Fre", "both q0 and w0"},
		{"AArch64", "PodWWz0q0 Rfe PodRR Fre", "is not two accesses"},
		{"AArch64", "PodWWPXQ Rfe PodRR Fre", "is not two annotations"},
		{"RISCV", "PodWWPXAqQ RfeXX PodRR Fre", "is not two annotations"},
		{"RISCV", "PodWWPXRlRl RfeXX PodRR Fre", "annotated both XRlRl and X"},
		{"AArch64", "PodWWXAw0q0 Rfe PodRR Fre", "is not two accesses"},
		{"AArch64", "Rmw PodWRw0w0 Hat Rmw PodWR Hat", "unsupported: Rmw in a mixed-size cycle"},
		{"AArch64", "PodWW Rfe DpAddrdRq0w4 Fre", "into an access at an offset"},
		{"AArch64", "Rfew0w4 PosRRw4q0 PodRWq0q0 PosWWq0w4 Wsew4w0 PosWWw0q0 PodWWq0q0 PosWWq0w0", "unsupported: the coherence order of the mixed-size location y needs an observer, which is not written: a load of y returns bytes of several writes"},
		// The Linux kernel's kinds.
		{"LKMM", "PodWWAcquireOnce Rfe PodRR Fre", "Acquire (smp_load_acquire) is for reads"},
		{"LKMM", "PodRROnceRelease Fre PodWW Rfe", "Release (smp_store_release) is for writes"},
		{"LKMM", "PodWWMbOnce Rfe PodRR Fre", "Mb is the kind of a read-modify-write"},
		{"LKMM", "PodWW Rfe RmwAcquireOnce PodWR Fre", "give its kind twice"},
		{"LKMM", "PodWWOnceRlx Rfe PodRR Fre", "not two annotations among Once, Acquire, Release, Mb"},
		{"LKMM", "FenceScdWW Rfe PodRR Fre", "not an edge of LKMM"},
		{"LKMM", "PodWWOnceRelease RfeReleaseOnce RmwAcquireAcquire PodWR Fre", "annotated both Once and Acquire"},
	} {
		a, _ := LookupArch(c.arch)
		es, err := a.ParseCycle([]string{c.cycle})
		if err == nil {
			_, err = Build(a, es)
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s %q: error %v, want %q", c.arch, c.cycle, err, c.err)
		}
	}
}

func TestEnumerate(t *testing.T) {
	a, _ := LookupArch("X86")
	relax, err := a.ExpandList("Pod**,Rfe,Fre,Wse")
	if err != nil {
		t.Fatal(err)
	}
	tests, _, err := a.Enumerate(Options{Relax: relax, Size: 4, Procs: 4})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, g := range tests {
		if names[g.Name] {
			t.Errorf("%s twice", g.Name)
		}
		names[g.Name] = true
	}
	// The six two-thread tests of two accesses each: SB, MP, LB, 2+2W, R, S.
	for _, n := range []string{"SB", "MP", "LB", "2+2W", "R", "S"} {
		if !names[n] {
			t.Errorf("%s not generated (got %v)", n, names)
		}
	}
	// And those where one thread has two program-order edges (W+WR+po-po:
	// PodWR PodRR Fre Rfe), numbered when two cycles have one name, and
	// the two of three writes to one location, pinned by an observer
	// (WW+W+po-po, W+WW+po-po).
	if len(tests) != 16 || !names["W+WR+po-po001"] || !names["W+WW+po-po"] {
		t.Errorf("%d tests, want 16: %v", len(tests), names)
	}
	// Deterministic.
	again, _, _ := a.Enumerate(Options{Relax: relax, Size: 4, Procs: 4})
	for i := range tests {
		if tests[i].Name != again[i].Name {
			t.Fatalf("order differs at %d: %s, %s", i, tests[i].Name, again[i].Name)
		}
	}
}

// TestEnumerateStop: Options.Stop ends an enumeration early, with
// Stats.Stopped set and the tests found so far.
func TestEnumerateStop(t *testing.T) {
	a, _ := LookupArch("X86")
	relax, err := a.ExpandList("Rfe,Fre,Pod**")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		after   int // calls of Stop before it says stop
		stopped bool
	}{
		{0, true}, {50, true}, {1 << 30, false},
	} {
		n := 0
		_, st, err := a.Enumerate(Options{Relax: relax, Size: 4, Procs: 4, Stop: func() bool { n++; return n > c.after }})
		if err != nil || st.Stopped != c.stopped {
			t.Errorf("stop after %d: stopped %v, err %v; want stopped %v", c.after, st.Stopped, err, c.stopped)
		}
	}
}

// TestWriteDialects checks the code of one test per new dialect, as diy7
// writes it: ARM's [index,base] address dependency and CMP/BNE control
// dependency, C's atomic_int and volatile int arguments (from the last
// name in alphabetical order), (r & 128) dependencies and if (r == v).
func TestWriteDialects(t *testing.T) {
	for _, c := range []struct{ arch, cycle, want string }{
		{"ARM", "DMBdWW Rfe DpAddrdR Fre", `
 P0          | P1             ;
 MOV R1,#1   | LDR R1,[R0]    ;
 STR R1,[R0] | EOR R3,R1,R1   ;
 DMB         | LDR R4,[R3,R2] ;
 MOV R3,#1   |                ;
 STR R3,[R2] |                ;
exists
(1:R1=1 /\ 1:R4=0)
`},
		{"ARM", "DMB.STdWW Rfe DpCtrlIsbdR Fre", `
 P0          | P1          ;
 MOV R1,#1   | LDR R1,[R0] ;
 STR R1,[R0] | CMP R1,R1   ;
 DMB ST      | BNE LC00    ;
 MOV R3,#1   | LC00:       ;
 STR R3,[R2] | ISB         ;
             | LDR R3,[R2] ;
`},
		// RISC-V's AR accesses: amoor with zero for a read, amoswap
		// into x0 for a write; fence.i.
		{"RISCV", "RfePAR PodRWARAR RfeARAR PodRWARP", `
 P0                         | P1                       ;
 amoor.w.aq.rl x6,x0,(x5)   | amoor.w.aq.rl x6,x0,(x5) ;
 ori x8,x0,1                | ori x8,x0,1              ;
 amoswap.w.aq.rl x0,x8,(x7) | sw x8,0(x7)              ;
exists
(0:x6=1 /\ 1:x6=1)
`},
		{"RISCV", "Rfe Fence.idRW Wse Fence.w.wdWW", `
 P0          | P1          ;
 ori x6,x0,2 | lw x6,0(x5) ;
 sw x6,0(x5) | fence.i     ;
 fence w,w   | ori x8,x0,1 ;
 ori x8,x0,1 | sw x8,0(x7) ;
 sw x8,0(x7) |             ;
`},
		// Exclusive accesses: a load-/store-exclusive pair, once, its
		// success flag in the condition; a read writes back what it read.
		{"RISCV", "Rfe DpAddrdW RfePX PodRWXP", `
 P0            | P1               ;
 lw x6,0(x5)   | lr.w x6,0(x5)    ;
 xor x8,x6,x6  | sc.w x7,x6,0(x5) ;
 ori x9,x0,1   | ori x9,x0,1      ;
 add x10,x7,x8 | sw x9,0(x8)      ;
 sw x9,0(x10)  |                  ;
exists
(0:x6=1 /\ 1:x6=1 /\ 1:x7=0)
`},
		{"AArch64", "RfePX PodRR FreXP PodWW", `
 P0          | P1              ;
 MOV W1,#1   | LDXR W1,[X0]    ;
 STR W1,[X0] | STXR W2,W1,[X0] ;
 MOV W3,#1   | LDXR W4,[X3]    ;
 STR W3,[X2] | STXR W5,W4,[X3] ;
exists
(1:X1=1 /\ 1:X4=0 /\ 1:X2=0 /\ 1:X5=0)
`},
		// Exclusive pairs with orders: LDAXR for A, STLXR for L;
		// lr.w and sc.w with .aq, .rl or .aqrl on RISC-V.
		{"AArch64", "RfeXAP PodRR FrePXL PodWW", `
 P0               | P1          ;
 MOV W3,#1        | LDR W1,[X0] ;
 LDXR W1,[X0]     | LDR W3,[X2] ;
 STLXR W2,W3,[X0] |             ;
 MOV W7,#1        |             ;
 LDAXR W5,[X4]    |             ;
 STXR W6,W7,[X4]  |             ;
`},
		{"RISCV", "PodWRPXARAR FreXARARP PodWRPXPAq FreXPAqP", `
 P0                    | P1                  ;
 ori x6,x0,1           | ori x6,x0,1         ;
 sw x6,0(x5)           | sw x6,0(x5)         ;
 lr.w.aqrl x8,0(x7)    | lr.w x8,0(x7)       ;
 sc.w.aqrl x9,x8,0(x7) | sc.w.aq x9,x8,0(x7) ;
`},
		{"AArch64", "RfeXP PodRR FrePX PodWW", `
 P0              | P1          ;
 MOV W3,#1       | LDR W1,[X0] ;
 LDXR W1,[X0]    | LDR W3,[X2] ;
 STXR W2,W3,[X0] |             ;
`},
		// Mixed sizes: a word write of 1 stores 0x01010101; a read
		// returns its bytes of the location after the write it reads
		// (the high word of a quad of 1 under a low word of 2).
		{"AArch64", "PosWWw0q0 PodWWq0q0 PosWWq0w0 Rfew0w4 PosRWw4q0 PodWRq0q0 PosRRq0w4 Frew4w0", `
uint64_t x; uint64_t y; uint64_t 1:X1; uint64_t 1:X4; uint64_t 1:X5;

0:X0=x; 0:X1=0x1010101; 0:X2=0x202020202020202; 0:X3=y; 0:X4=0x101010101010101; 0:X5=0x2020202;
1:X0=y; 1:X2=0x303030303030303; 1:X3=x;
}
 P0          | P1             ;
 STR W1,[X0] | LDR W1,[X0,#4] ;
 STR X2,[X0] | STR X2,[X0]    ;
 STR X4,[X3] | LDR X4,[X3]    ;
 STR W5,[X3] | LDR W5,[X3,#4] ;
exists
(x=0x202020202020202 /\ y=0x303030303030303 /\ 1:X1=0x1010101 /\ 1:X4=0x0 /\ 1:X5=0x0)
`},
		{"AArch64", "Frib0b0 Rfib0h0 PosRRh0b0 Freb0h0 Rfeh0b0", `
uint32_t x; uint32_t 1:X1; uint32_t 1:X3; uint32_t 1:X4;

0:X0=x;
1:X0=x;
}
 P0           | P1           ;
 MOV W1,#257  | LDRB W1,[X0] ;
 STRH W1,[X0] | MOV W2,#2    ;
              | STRB W2,[X0] ;
              | LDRH W3,[X0] ;
              | LDRB W4,[X0] ;
exists
(x=0x102 /\ 1:X1=0x1 /\ 1:X3=0x102 /\ 1:X4=0x0)
`},
		{"AArch64", "PodWWL.w0L Rfe DpDatadWq0h2 Rfih2A.h2 PodRR Fre", `
 P0           | P1              ;
 STLR W1,[X0] | LDR X1,[X0]     ;
 MOV X3,#1    | EOR X3,X1,X1    ;
 STLR X3,[X2] | ADD W3,W3,#257  ;
              | STRH W3,[X2,#2] ;
              | ADD X4,X2,#2    ;
              | LDARH W5,[X4]   ;
              | LDR X7,[X6]     ;
exists
(x=0x1010101 /\ y=0x1 /\ z=0x1010000 /\ 1:X1=0x1 /\ 1:X5=0x101 /\ 1:X7=0x0)
`},
		// Read-modify-writes: a retried lwarx/stwcx. or LDXR/STXR pair,
		// SWP and CAS (diy's Rmw, Amo.Swp, Amo.Cas).
		{"PPC", "PodWR Rmw Rfe PodRR Fre", `
 P0              | P1           ;
 li r2,1         | lwz r2,0(r1) ;
 stw r2,0(r1)    | lwz r4,0(r3) ;
 li r5,1         |              ;
 Loop00:         |              ;
 lwarx r4,r0,r3  |              ;
 stwcx. r5,r0,r3 |              ;
 bne Loop00      |              ;
exists
(0:r4=0 /\ 1:r2=1 /\ 1:r4=0)
`},
		{"AArch64", "PodWR Rmw Rfe PodRR Fre", `
 P0              | P1          ;
 MOV W1,#1       | LDR W1,[X0] ;
 STR W1,[X0]     | LDR W3,[X2] ;
 MOV W4,#1       |             ;
 Loop00:         |             ;
 LDXR W3,[X2]    |             ;
 STXR W5,W4,[X2] |             ;
 CBNZ W5,Loop00  |             ;
exists
(0:X3=0 /\ 1:X1=1 /\ 1:X3=0)
`},
		{"AArch64", "Amo.CasAL PodWR Hat Amo.SwpAP PodWR Hat", `
 P0               | P1              ;
 MOV W1,#0        | MOV W2,#1       ;
 MOV W2,#1        | SWPA W2,W1,[X0] ;
 CASAL W1,W2,[X0] | LDR W4,[X3]     ;
 LDR W4,[X3]      |                 ;
exists
(0:X1=0 /\ 0:X4=0 /\ 1:X1=0 /\ 1:X4=0)
`},
		// LDADD and STADD: the operand makes the written value the
		// write's; STADD's read is not in the condition.
		{"AArch64", "PodWR Amo.StAddPL Rfe PodRR Fre", `
 P0             | P1          ;
 MOV W1,#1      | LDR W1,[X0] ;
 STR W1,[X0]    | LDR W3,[X2] ;
 MOV W3,#1      |             ;
 STADDL W3,[X2] |             ;
exists
(1:X1=1 /\ 1:X3=0)
`},
		{"C", "PodWWRlxRel RfeRelAcq PodRRAcqRlx FreRlxRlx", `
{}

P0 (atomic_int* y,atomic_int* x) {
  atomic_store_explicit(x,1,memory_order_relaxed);
  atomic_store_explicit(y,1,memory_order_release);
}

P1 (atomic_int* y,atomic_int* x) {
  int r0 = atomic_load_explicit(y,memory_order_acquire);
  int r1 = atomic_load_explicit(x,memory_order_relaxed);
}

exists (1:r0=1 /\ 1:r1=0)
`},
		{"C", "PodWW Rfe DpAddrdR Fre", `
P1 (volatile int* y,volatile int* x) {
  int r0 = *y;
  int r1 = *(x + (r0 & 128));
}
`},
		{"C", "PodWWScSc RfeScSc DpCtrldWScSc WseScSc", `
P1 (atomic_int* y,atomic_int* x) {
  int r0 = atomic_load(y);
  if (r0 == 1) {
    atomic_store(x,1);
  }
}

exists (1:r0=1 /\ x=2)
`},
		{"C", "PodRWRlxRlx RfeRlxRlx DpDatadWRlxRlx RfeRlxRlx", `
  atomic_store_explicit(x,1 + (r0 & 128),memory_order_relaxed);
`},
		// The Linux kernel's primitives.
		{"LKMM", "FenceWmbdWWOnceRelease RfeReleaseAcquire FenceRmbdRRAcquireOnce FreOnceOnce", `C C-MP+fencewmboncerelease+fencermbacquireonce
"FenceWmbdWWOnceRelease RfeReleaseAcquire FenceRmbdRRAcquireOnce FreOnceOnce"
Cycle=FenceRmbdRRAcquireOnce FreOnceOnce FenceWmbdWWOnceRelease RfeReleaseAcquire
Generator=musket gen
Prefetch=0:x=F,0:y=W,1:y=F,1:x=T
Com=Rf Fr
Orig=FenceWmbdWWOnceRelease RfeReleaseAcquire FenceRmbdRRAcquireOnce FreOnceOnce

{}

P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	smp_wmb();
	smp_store_release(y, 1);
}

P1(int *x, int *y)
{
	int r0 = smp_load_acquire(y);
	smp_rmb();
	int r1 = READ_ONCE(*x);
}

exists (1:r0=1 /\ 1:r1=0)
`},
		{"LKMM", "PodWW Rfe DpAddrdW Rfe DpDatadW Wse", `
P1(int *y, int *z)
{
	int r0 = READ_ONCE(*y);
	WRITE_ONCE(*(z + (r0 & 128)), 1);
}

P2(int *x, int *z)
{
	int r0 = READ_ONCE(*z);
	WRITE_ONCE(*x, 1 + (r0 & 128));
}
`},
		{"LKMM", "FenceMbdRWOnceOnce RfeOnceOnce DpCtrldWOnceOnce RfeOnceOnce", `
	int r0 = READ_ONCE(*y);
	if (r0 == 1) {
		WRITE_ONCE(*x, 1);
	}
`},
		{"LKMM", "RmwMbMb PodWR Hat RmwOnceOnce PodWR Hat", `
	int r0 = xchg(x, 1);
	int r1 = READ_ONCE(*y);
`},
		{"LKMM", "PodWW Rfe RmwReleaseRelease PodWR Fre", `
	int r0 = xchg_release(y, 2);
`},
	} {
		a, _ := LookupArch(c.arch)
		es, err := a.ParseCycle([]string{c.cycle})
		if err != nil {
			t.Fatal(err)
		}
		tt, err := Build(a, es)
		if err != nil {
			t.Fatalf("%q: %v", c.cycle, err)
		}
		text := testText(t, tt)
		if !strings.Contains(text, c.want) {
			t.Errorf("%s %q: want\n%s\nin\n%s", c.arch, c.cycle, c.want, text)
		}
	}
}

// TestCanonical compares Canonical with the least of the joined
// rotations that begin a thread, on every cycle of an enumeration and on
// names that are prefixes of others (PodWR, PodWRLA).
func TestCanonical(t *testing.T) {
	joined := func(es []Edge) string {
		n := len(es)
		best := ""
		for s := 0; s < n; s++ {
			if !es[(s+n-1)%n].Ext {
				continue
			}
			var names []string
			for j := 0; j < n; j++ {
				names = append(names, es[(s+j)%n].Name)
			}
			if k := strings.Join(names, " "); best == "" || k < best {
				best = k
			}
		}
		return best
	}
	a, _ := LookupArch("AArch64")
	edges, err := a.ExpandList("Pod**,PodWRLA,PodWRLP,Rfe,RfeLA,Fre,FreAL,Wse,DMB.SYdWW,DMB.SYdWWLP")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	var rec func(cur []Edge)
	rec = func(cur []Edge) {
		if len(cur) >= 2 {
			if got, want := Canonical(cur), joined(cur); got != want {
				t.Fatalf("%s: Canonical %q, want %q", joinEdges(cur), got, want)
			}
			checked++
		}
		if len(cur) == 4 {
			return
		}
		for _, e := range edges {
			rec(append(cur, e))
		}
	}
	rec(nil)
	t.Logf("%d sequences of edges", checked)
}
