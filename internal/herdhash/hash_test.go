package herdhash

import "testing"

// The expected digests are herd7 7.58's Hash= lines for these tests
// (reference logs of the shared corpus); each case exercises one rule of
// herd7's canonical printing.
func TestOf(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"PPC, labels and beq's two spaces", `PPC LB+lwsync+ctrl
"PodRWLwSync Rfe DpCtrldW Rfe"
{
0:r2=x; 0:r4=y;
1:r2=y; 1:r4=x;
}
 P0           | P1           ;
 lwz r1,0(r2) | lwz r1,0(r2) ;
 lwsync       | cmpw r1,r1   ;
 li r3,1      | beq  LC00    ;
 stw r3,0(r4) | LC00:        ;
              | li r3,1      ;
              | stw r3,0(r4) ;
exists
(0:r1=1 /\ 1:r1=1)
`, "6457d191dccbe8b25bf23b6e5fbc0fc0"},
		// herd7's X86_64 digests (its test-suite's expected outputs for
		// programs of the same canonical form: the name and the layout
		// are not digested).
		{"X86_64: AT&T operands as written, mnemonic in lower case", "X86_64 st1\n{ }\n P0 ;\n MOVL $1, (x) ;\nforall [x]=1\n", "3b021e40517dcff1f1cb8894d645b677"},
		{"X86_64: NOP and its variants printed NOP", "X86_64 nop\n{}\n P0 ;\n nopl 0(%rax,%eax,0) ;\nforall 0:rax=0\n", "e7aa09c554ad7af2223102c50db5f77a"},
		{"X86_64: registers in lower case", "X86_64 st\n{ uint64_t x; 0:RBX=0x202020202020202; }\n P0 ;\n movq %RBX,(x) ;\nlocations [x;]\nforall [x] = 0x202020202020202\n", "a4f2c7b46c9fe04acb695c7d4ca4630b"},
		{"X86, Intel syntax without dollars, ~ exists", `X86 MP
{x = 0; y = 0};

        P0    |       P1      ;
  mov [x], 1  |  mov EAX, [y] ;
  mov [y], 1  |  mov EBX, [x];


~exists (P1:EAX = 1 /\ P1:EBX = 0);
`, "23fb141c63a63e29a5083c670a4d124d"},
		{"RISC-V: an AMO's address without its offset, .aq.rl printed .aqrl", `RISCV S+po+poarp+NEW
{
0:x6=x; 0:x8=y;
1:x6=y; 1:x8=x;
}
 P0          | P1                       ;
 ori x5,x0,2 | amoor.w.aq.rl x5,x0,(x6) ;
 sw x5,0(x6) | ori x7,x0,1              ;
 ori x7,x0,1 | sw x7,0(x8)              ;
 sw x7,0(x8) |                          ;
exists
(x=2 /\ 1:x5=1)
`, "5b4010a7416be42fa56199e4c6ce941c"},
		{"C: each thread's text verbatim in a column of its own", `C b+sc+sc
{ [x] = 0; [y] = 0; }

P0 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(x, memory_order_seq_cst);
  atomic_store_explicit(y, 1, memory_order_seq_cst);
}

P1 (atomic_int* x, atomic_int* y) {
  int r1 = atomic_load_explicit(y, memory_order_relaxed);
  atomic_store_explicit(x, 1, memory_order_relaxed);
}

exists (0:r0=1 /\ 1:r1=1)
`, "f02fec1cecc316208300c17548621e5c"},
		{"Linux kernel C: ATOMIC_INIT(v) is v", `C C-atomic-cmpxchg-success-06

{
  atomic_t x = ATOMIC_INIT(0);
}

P0(atomic_t *x) {
  int r0 = 0;
  r0 = atomic_cmpxchg(x,r0,1);
}

forall (0:r0 = 0 /\ x = 1)`, "0b337a6debf582820f2692f34ed3678c"},
		{"RISC-V: ABI register names, li, a filter without parentheses (not observed)", `RISCV ISA11+BIS

(* ISA11 without amo's *)
{
  uint64_t x;
  uint64_t y;
  0:s0=x; 0:s1=y;
  1:s0=x; 1:s1=y;
}


 P0                     |  P1                     ;
 li t1,2                | li t3,2                 ;
 li t2,1                | li t4,1                 ;
 sd t1,0(s0)            | sd t3,0(s1)             ;
 lr.d.aq a0,0(s0)       | amoswap.d.rl x0,t4,(s0) ;
 or t3,t2,a0            |                         ;
 sc.d t4,t3,0(s0)       |                         ;
 sd t2,0(s1)            |                         ;

filter 0:t4=0
exists 0:a0=2 /\ x=3 /\ y=2
`, "96f7b762dab5821e81eae5c0758785fe"},
		{"a Hash= in the header is herd7's answer", "X86 T\nHash=0123\n{}\n P0 ;\n MFENCE ;\nexists (x=1)\n", "0123"},
	}
	for _, c := range cases {
		if _, ok := Of([]byte(c.src)); !ok {
			_, err := compute(c.src)
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got, ok := Of([]byte(c.src))
		if !ok {
			t.Errorf("%s: no hash", c.name)
			continue
		}
		if c.want != "" && got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

// Text that is not a test the printers know gives no hash, never a
// panic.
func TestOfBadInput(t *testing.T) {
	for _, src := range []string{"", "X86", "X86 T\n", "X86 T\n{\n", "X86 T\n{}\n P0 | P1 ;\n a | b | c ;\nexists (x=1)\n",
		"BPF T\n{}\n P0 ;\n r1 = 1 ;\nexists (x=1)\n", "C T\n{}\nP0(int *x) {\nexists (x=1)\n", "C T\n{ x = 1 }\nexists (x=1)\n",
		"PPC T\n{ 0:r1=instr:\"nop\"; 0:r2=x; }\n P0 ;\n stw r1,0(r2) ;\nexists (x=1)\n",
		"PPC T\n{ 0:r1=P0:L; }\n P0 ;\n L: nop ;\nexists (x=1)\n"} {
		if h, ok := Of([]byte(src)); ok {
			t.Errorf("%q: hash %s, want none", src, h)
		}
	}
}

// A filter's proposition ends where the final condition starts; its
// locations are left out of the observed ones.
func TestCutFilter(t *testing.T) {
	cases := []struct{ in, want string }{
		{"exists (x=1)", "exists (x=1)"},
		{"filter 0:t4=0\nexists 0:a0=2 /\\ x=3", "exists 0:a0=2 /\\ x=3"},
		{"filter (0:r1=1 /\\ 0:r2=0) exists (x=1)", "exists (x=1)"},
		{"filter 0:r1=1 ~exists (x=1)", "~exists (x=1)"},
		{"filter 0:r1=1 ~ exists (x=1)", "~ exists (x=1)"},
		{"filter 0:r1=1 not exists (x=1)", "not exists (x=1)"},
		{"filter 0:r1=1 forall (x=1)", "forall (x=1)"},
		{"filter (0:r1=1) (x=1)", "(x=1)"},
		{"filter (0:r1=1)", ""},
		{"locations [y;] filter 0:r1=1 final x=1", "locations [y;] final x=1"},
	}
	for _, c := range cases {
		if got := cutFilter(c.in); got != c.want {
			t.Errorf("cutFilter(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
