package litmus

import (
	"github.com/musket-verify/musket/internal/spec"
	"testing"
)

func TestRISCVTranslate(t *testing.T) {
	checkTranslations(t, rvFrontend{}, []srcWant{
		// Loads and stores, with annotations; ABI register names.
		{"lw x5,0(x6)", "x5 = load [x6]"},
		{"ld a0,0(s0)", "x10 = load [x8]"},
		{"lwu t0,(a1)", "x5 = load [x11]"},
		{"sw x5,0(x6)", "store [x6] x5"},
		{"sd zero,0(x6)", "store [x6] 0"},
		{"lw x0,0(x6)", " = load [x6]"},
		{"lw.aq x5,0(x6); ld.aq x5,0(x6)", "x5 = load.Acq [x6]; x5 = load.Acq [x6]"},
		{"lw.aqrl x5,0(x6)", "x5 = load.AcqRel [x6]"},
		{"sw.rl x5,0(x6); sw.aq.rl x5,0(x6)", "store.Rel [x6] x5; store.AcqRel [x6] x5"},
		{"LW X5,0(X6)", "x5 = load [x6]"},
		// Load-reserve and store-conditional: the sc's rd depends on its
		// address and on the reservation's, only on success.
		{"lr.w x7,0(x5)", "%res = (x5 ^ x5); x7 = load.X.EX [x5]"},
		{"lr.d.aq x7,(x5)", "%res = (x5 ^ x5); x7 = load.X.EX.Acq [x5]"},
		{"sc.w x8,x6,0(x5)",
			"%dep = (%res + (x5 ^ x5)); x8 = storecond.X.EX [x5] x6; %res = 0; " +
				"if (x8 != 0) goto %sc1; x8 = (x8 + %dep); %sc1:"},
		{"sc.w.rl x0,x6,0(x5)", " = storecond.X.EX.Rel [x5] x6; %res = 0"},
		{"sc.d.aqrl x0,x6,0(x5)", " = storecond.X.EX.AcqRel [x5] x6; %res = 0"},
		// AMOs: both accesses carry the annotation; rd depends on rs2 and rs1.
		{"amoswap.w x10,x5,(x6)", "%dep = ((x5 ^ x5) + (x6 ^ x6)); x10 = rmw.X.AMO/.X.AMO [x6] x5; x10 = (x10 + %dep)"},
		{"amoswap.w.aq x0,x5,(x6)", " = rmw.X.AMO.Acq/.X.AMO.Acq [x6] x5"},
		{"amoadd.d.rl x0,x5,0(x6)", " = rmw.X.AMO.Rel/.X.AMO.Rel [x6] (old + x5)"},
		{"amoor.w.aq.rl x0,x5,(x6)", " = rmw.X.AMO.AcqRel/.X.AMO.AcqRel [x6] (old | x5)"},
		{"amoand.w.aqrl x0,x5,(x6)", " = rmw.X.AMO.AcqRel/.X.AMO.AcqRel [x6] (old & x5)"},
		{"amoxor.w x0,x5,(x6)", " = rmw.X.AMO/.X.AMO [x6] (old ^ x5)"},
		{"amomax.w x0,x5,(x6)", " = rmw.X.AMO/.X.AMO [x6] (old + ((x5 - old) * (old < x5)))"},
		{"amomin.d x0,x5,(x6)", " = rmw.X.AMO/.X.AMO [x6] (old + ((x5 - old) * (x5 < old)))"},
		{"amoor.w x5,x0,(x6)", "%dep = (x6 ^ x6); x5 = rmw.X.AMO/.X.AMO [x6] (old | 0); x5 = (x5 + %dep)"},
		// Fences.
		{"fence rw,rw; fence r,r; fence w,w; fence r,rw; fence rw,w",
			"fence.Fence.rw.rw; fence.Fence.r.r; fence.Fence.w.w; fence.Fence.r.rw; fence.Fence.rw.w"},
		{"fence r,w; fence w,r; fence w,rw; fence rw,r", "fence.Fence.r.w; fence.Fence.w.r; fence.Fence.w.rw; fence.Fence.rw.r"},
		{"fence; fence.tso; fence.i", "fence.Fence.rw.rw; fence.Fence.tso; fence.Fence.i"},
		{"fence iorw,iorw; fence ir,ow; fence i,rw; fence o,i", "fence.Fence.rw.rw; fence.Fence.r.w"},
		// Local computation; x0 reads as zero and ignores writes.
		{"ori x5,x0,1", "x5 = (0 | 1)"},
		{"ori x0,x5,1", ""},
		{"li t0,1; li a0,-2; li a1,0x10", "x5 = 1; x10 = -2; x11 = 16"},
		{"mv a0,a1", "x10 = x11"},
		{"addi x4,x3,1; andi x7,x5,2; xori x1,x2,3; slli x1,x1,2; slti x1,x2,4",
			"x4 = (x3 + 1); x7 = (x5 & 2); x1 = (x2 ^ 3); x1 = (x1 << 2); x1 = (x2 < 4)"},
		{"add x10,x9,x7; sub x1,x2,x3; xor x7,x5,x5; and x1,x2,x3; or x1,x2,x3; sll x1,x2,x3; slt x1,x2,x3",
			"x10 = (x9 + x7); x1 = (x2 - x3); x7 = (x5 ^ x5); x1 = (x2 & x3); x1 = (x2 | x3); x1 = (x2 << x3); x1 = (x2 < x3)"},
		// Branches and labels.
		{"bne x5,x0,LC00; nop; LC00:", "if (x5 != 0) goto LC00; LC00:"},
		{"beq x5,x6,L; blt x5,x6,L; bge x5,x6,L; L: lw x1,0(x2)",
			"if (x5 == x6) goto L; if (x5 < x6) goto L; if (x5 >= x6) goto L; L:; x1 = load [x2]"},
		{"bnez a0,L; beqz a0,L; j L; L:", "if (x10 != 0) goto L; if (x10 == 0) goto L; goto L; L:"},
	})
}

func TestRISCVErrors(t *testing.T) {
	checkThreadErrors(t, rvFrontend{}, true, []srcWant{
		{"foo x1,x2", `t:1:1: unknown RISCV instruction "foo"`},
		{"lw.foo x1,0(x2)", `t:1:1: unknown RISCV instruction "lw.foo": bad annotation ".foo"`},
		{"amoswap.q x1,x2,(x3)", `t:1:1: unknown RISCV instruction "amoswap.q"`},
		{"lui x1,0x100000", `t:1:1: lui's immediate 1048576 is outside 0..0xfffff`},
		{"sext.w x1", `t:1:1: sext.w takes 2 operands, found 1`},
		{"lr.b x1,(x2)", `t:1:1: unsupported RISCV instruction "lr.b": byte and half-word atomics are not supported`},
		{"amoadd.h x1,x2,(x3)", `t:1:1: unsupported RISCV instruction "amoadd.h": byte and half-word atomics are not supported`},
		{"amoadd.w x1,x2,4(x3)", `t:1:16: bad offset 4: lr, sc and AMOs address (rs1) or 0(rs1)`},
		{"addiw x1,x2,x3", `t:1:13: addiw: operand 3 must be an immediate`},
		{"fence iorw,iox", `t:1:12: bad fence set: want r, w or rw`},
		{"fence rw", `t:1:1: fence takes 0 or 2 operands, found 1`},
		{"fence x,rw", `t:1:7: bad fence set: want r, w or rw`},
		{"lw x1,x2", `t:1:7: lw: operand 2 must be a memory operand off(reg)`},
		{"lw x1,0(y)", `t:1:9: expected a register in "0(y)", found "y"`},
		{"add x1,x2", `t:1:1: add takes 3 operands, found 2`},
		{"addi x1,x2,x3", `t:1:12: addi: operand 3 must be an immediate`},
		{"li x1,x", `t:1:7: li: operand 2 must be an immediate`},
		{"sc.w x1,0(x2)", `t:1:1: sc.w takes 3 operands, found 2`},
		{"bne x1,x0,1", `t:1:11: bne: operand 3 must be a label`},
		{"bne x1,x0,L", `t:1:1: jump to undefined label L`},
		{"L: nop; L: nop", `t:2:1: label L defined twice (first at 1:1)`},
		{"ori x1,x0,", `t:1:10: missing operand of ori after ','`},
		{"lw x1,0(x2", `t:1:7: bad RISCV operand "0(x2"`},
		{"lw x1,#0(x2)", `t:1:7: unexpected '#' in RISCV instruction`},
		{"li x1,99999999999999999999", `t:1:7: malformed integer "99999999999999999999"`},
		{"1: nop", `t:1:1: expected a RISCV instruction, found "1"`},
	})
}

func TestRISCVRegName(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		ok      bool
	}{
		{"x0", "x0", true}, {"zero", "x0", true}, {"X31", "x31", true}, {"ra", "x1", true},
		{"sp", "x2", true}, {"gp", "x3", true}, {"tp", "x4", true}, {"t0", "x5", true},
		{"t2", "x7", true}, {"s0", "x8", true}, {"fp", "x8", true}, {"s1", "x9", true},
		{"a0", "x10", true}, {"a7", "x17", true}, {"s2", "x18", true}, {"s11", "x27", true},
		{"t3", "x28", true}, {"t6", "x31", true},
		{"x32", "", false}, {"a8", "", false}, {"t7", "", false}, {"s12", "", false}, {"x", "", false},
	} {
		out, ok := rvFrontend{}.RegName(tc.in)
		if out != tc.out || ok != tc.ok {
			t.Errorf("RegName(%q) = %q, %v; want %q, %v", tc.in, out, ok, tc.out, tc.ok)
		}
	}
}

func TestRISCVParse(t *testing.T) {
	src := `RISCV MP+fence.w.w+addr
{
0:x6=x; 0:x8=y;
1:a0=y; 1:a1=x;
}
 P0          | P1              ;
 ori x5,x0,1 | lw x5,0(a0)     ;
 sw x5,0(x6) | xor t1,x5,x5    ;
 fence w,w   | add t2,a1,t1    ;
 sw x5,0(x8) | lw x7,0(t2)     ;
exists (1:a5=1 /\ 1:x7=0)
`
	test, err := Parse("mp.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if test.Arch != "RISCV" || len(test.Threads) != 2 {
		t.Fatalf("arch %s, %d threads", test.Arch, len(test.Threads))
	}
	if got := test.Init[2].Ref.String(); got != "1:x10" {
		t.Errorf("init register %s, want 1:x10", got)
	}
	if got := spec.FormatCond(test.Cond); got != "1:x15=1 /\\ 1:x7=0" {
		t.Errorf("condition %s", got)
	}
	want := "x5 = load [x10]; x6 = (x5 ^ x5); x7 = (x11 + x6); x7 = load [x7]"
	if got := codeString(test.Threads[1]); got != want {
		t.Errorf("P1:\n got %s\nwant %s", got, want)
	}
}

func TestRISCVTags(t *testing.T) {
	tags := rvFrontend{}.Tags()
	want := []string{"X", "AMO", "EX", "Acq", "Rel", "AcqRel", "Sc", "Fence.tso", "Fence.i", "Fence.r.r", "Fence.rw.rw", "Fence.w.rw"}
	have := map[string]bool{}
	for _, t := range tags {
		have[t] = true
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("Tags() lacks %s", w)
		}
	}
	if len(tags) != 9+9 {
		t.Errorf("Tags() has %d tags, want 18", len(tags))
	}
}
