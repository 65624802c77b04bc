package litmus

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

func TestPPCTranslate(t *testing.T) {
	checkTranslations(t, ppcFrontend{}, []srcWant{
		{"li r1,1", "r1 = 1"},
		{"LI R1,-2", "r1 = -2"},
		{"li r1,0x10", "r1 = 16"},
		{"lwz r1,0(r2)", "r1 = load [r2]"},
		{"ld r1,0(r2)", "r1 = load [r2]"},
		{"lwz r1,0(r0)", "r1 = load [0]"},
		{"stw r1,0(r2)", "store [r2] r1"},
		{"std r1,0(r2)", "store [r2] r1"},
		{"lwzx r1,r2,r3", "r1 = load [(r2 + r3)]"},
		{"lwa r1,0(r2); lwax r3,r0,r4", "r1 = load [r2]; r3 = load [r4]"},
		{"lwzx r1,r0,r3", "r1 = load [r3]"},
		{"ldx r1,r2,r3", "r1 = load [(r2 + r3)]"},
		{"stwx r1,r2,r3", "store [(r2 + r3)] r1"},
		{"stdx r1,r0,r3", "store [r3] r1"},
		{"lwzu r1,0(r2)", "r1 = load [r2]"},
		{"stwu r1,0(r2)", "store [r2] r1"},
		{"lwarx r1,r0,r3", "r1 = load.EX [r3]"},
		{"ldarx r1,r2,r3", "r1 = load.EX [(r2 + r3)]"},
		{"stwcx. r1,r0,r3", " = storecond.EX [r3] r1"},
		{"stdcx. r1,r2,r3", " = storecond.EX [(r2 + r3)] r1"},
		{"L: lwarx r1,r0,r3; stwcx. r1,r0,r3; bne L",
			"L:; r1 = load.EX [r3]; %cr0 = storecond.EX [r3] r1; if ((%cr0 & 2) == 0) goto L"},
		{"sync; hwsync; lwsync; isync; eieio; nop; dcbf r1,r2",
			"fence.SYNC; fence.SYNC; fence.LWSYNC; fence.ISYNC; fence.EIEIO"},
		{"mr r1,r2", "r1 = r2"},
		{"lis r1,1; lis r2,-1; lis r3,0x8000", "r1 = 65536; r2 = -65536; r3 = -2147483648"},
		{"clrldi r1,r2,32; clrldi r3,r3,0", "r1 = (r2 & 4294967295); r3 = (r3 & -1)"},
		{"rlwinm r3,r4,0,24,31", "r3 = (((((r4 & 4294967295) << 0) | ((r4 & 4294967295) >> 32)) & 4294967295) & 255)"},
		{"rlwimi r3,r4,16,0,15", "r3 = ((((((r4 & 4294967295) << 16) | ((r4 & 4294967295) >> 16)) & 4294967295) & 4294901760) | (r3 & -4294901761))"},
		{"blr; li r1,1", "goto .blr; r1 = 1; .blr:"},
		{"cmplwi r1,2; beq L; L:", "%cr0 = (((r1 & 4294967295) == (2 & 4294967295)) * 2); if ((%cr0 & 2) != 0) goto L; L:"},
		{"extsw r1,r2; extsh r3,r1; extsb r4,r4", "r1 = ((r2 << 32) >> 32); r3 = ((r1 << 48) >> 48); r4 = ((r4 << 56) >> 56)"},
		{"addi r1,r2,3", "r1 = (r2 + 3)"},
		{"addi r1,r0,3", "r1 = 3"},
		{"addis r1,r2,1", "r1 = (r2 + 65536)"},
		{"ori r1,r2,3; xori r1,r2,3; mulli r1,r2,3", "r1 = (r2 | 3); r1 = (r2 ^ 3); r1 = (r2 * 3)"},
		{"add r1,r2,r3; sub r1,r2,r3; subf r1,r2,r3", "r1 = (r2 + r3); r1 = (r2 - r3); r1 = (r3 - r2)"},
		{"or r1,r2,r3; and r1,r2,r3; xor r3,r1,r1", "r1 = (r2 | r3); r1 = (r2 & r3); r3 = (r1 ^ r1)"},
		{"mullw r1,r2,r3; divw r1,r2,r3", "r1 = (r2 * r3); r1 = (r2 / r3)"},
		// Without a conditional branch, comparisons and record forms
		// compute nothing.
		{"cmpw r1,r2; add. r1,r2,r3; andi. r1,r2,1", "r1 = (r2 + r3); r1 = (r2 & 1)"},
		{"cmpw r1,r2; beq L; L:", "%cr0 = ((r1 == r2) * 2); if ((%cr0 & 2) != 0) goto L; L:"},
		{"cmpwi r1,0; bne L; L:", "%cr0 = ((r1 == 0) * 2); if ((%cr0 & 2) == 0) goto L; L:"},
		{"cmpw cr1,r1,r2; beq cr1,L; L:", "%cr1 = ((r1 == r2) * 2); if ((%cr1 & 2) != 0) goto L; L:"},
		{"cmpd r1,r2; cmpdi r1,1; blt L; L:",
			"%cr0 = ((((r1 < r2) * 8) + ((r1 > r2) * 4)) + ((r1 == r2) * 2)); " +
				"%cr0 = ((((r1 < 1) * 8) + ((r1 > 1) * 4)) + ((r1 == 1) * 2)); if ((%cr0 & 8) != 0) goto L; L:"},
		{"bge L; bgt L; ble L; L:",
			"if ((%cr0 & 8) == 0) goto L; if ((%cr0 & 4) != 0) goto L; if ((%cr0 & 4) == 0) goto L; L:"},
		{"add. r1,r2,r3; beq L; L:", "r1 = (r2 + r3); %cr0 = ((r1 == 0) * 2); if ((%cr0 & 2) != 0) goto L; L:"},
		{"andi. r1,r2,1; beq L; L:", "r1 = (r2 & 1); %cr0 = ((r1 == 0) * 2); if ((%cr0 & 2) != 0) goto L; L:"},
		{"stwcx. r1,r0,r3; beq L; L:", "%cr0 = storecond.EX [r3] r1; if ((%cr0 & 2) != 0) goto L; L:"},
		{"L0:; b L1; L1: li r1,1", "L0:; goto L1; L1:; r1 = 1"},
	})
}

func TestPPCStoreCondStatus(t *testing.T) {
	th, err := ppcFrontend{}.Thread(0, []Cell{
		{Text: "stwcx. r1,r0,r3", Pos: prog.Pos{Line: 1, Col: 1}},
		{Text: "bne L", Pos: prog.Pos{Line: 2, Col: 1}},
		{Text: "L:", Pos: prog.Pos{Line: 3, Col: 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := th.Code[0].(prog.StoreCond)
	if !ok {
		t.Fatalf("got %T, want a StoreCond", th.Code[0])
	}
	if sc.OkVal != prog.IntValue(ppcEQ) || sc.FailVal != prog.IntValue(0) || sc.Status != "%cr0" {
		t.Errorf("status %s ok %s fail %s; want %%cr0 ok 2 fail 0", sc.Status, sc.OkVal, sc.FailVal)
	}
}

// TestPPCSizes: lwa sign-extends the word it reads and lwz zero-extends
// it (the extension follows the load once CheckTest has lowered the test);
// a location accessed with two sizes is refused by name, for herd7's
// Power is big-endian and the chunks are laid out little-endian.
func TestPPCSizes(t *testing.T) {
	head := "PPC t\n{ x = -1; 0:r1 = x; int64_t 0:r2; int64_t 0:r3; }\n P0 ;\n"
	lt, err := Parse("t.litmus", []byte(head+" lwa r2,0(r1) ;\n lwz r3,0(r1) ;\nforall (0:r2=-1)\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cCode(lt), "r2 = load [r1]; r2 = (r2 - ((r2 / 2147483648) * 4294967296)); r3 = load [r1]"; got != want {
		t.Errorf("code %s, want %s", got, want)
	}
	_, err = Parse("t.litmus", []byte(head+" lwz r2,0(r1) ;\n ld r3,0(r1) ;\nforall (0:r2=-1)\n"))
	if want := "unsupported PPC test: location x is accessed with several sizes"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestPPCErrors(t *testing.T) {
	checkThreadErrors(t, ppcFrontend{}, true, []srcWant{
		{"foo r1", `t:1:1: unknown PPC instruction "foo"`},
		{"L: frob r1,r2", `t:1:4: unknown PPC instruction "frob"`},
		{"lbz r1,0(r2)", `t:1:1: unsupported PPC instruction "lbz": mixed-size accesses are not supported`},
		{"sth r1,0(r2)", `t:1:1: unsupported PPC instruction "sth": mixed-size accesses are not supported`},
		{"li r1", `t:1:1: li takes 2 operands, found 1`},
		{"clrldi r1,r2,64", `t:1:14: clrldi's count 64 is outside 0..63`},
		{"rlwinm r1,r2,0,31,0", `t:1:16: unsupported PPC instruction rlwinm with a wrapping mask (MB 31 > ME 0)`},
		{"sync r1", `t:1:1: sync takes 0 operands, found 1`},
		{"li 1,r1", `t:1:4: operand 1 of li must be a register`},
		{"lwz r1,r2", `t:1:8: operand 2 of lwz must be a memory operand d(rA)`},
		{"lwz r1,0(x)", `t:1:10: expected a PPC register, found "x"`},
		{"lwz r1,0(r2", `t:1:8: bad PPC operand "0(r2"`},
		{"li r1,", `t:1:6: missing operand of li after ','`},
		{"li ,r1", `t:1:4: missing operand of li`},
		{"li r1,#1", `t:1:7: unexpected '#' in PPC instruction`},
		{"li r1,99999999999999999999", `t:1:7: malformed integer "99999999999999999999"`},
		{"add r1,r2,4", `t:1:11: operand 3 of add must be a register`},
		{"cmpw r1", `t:1:1: cmpw takes 2 operands, found 1`},
		{"cmpwi r1,r2", `t:1:10: operand 2 of cmpwi must be an integer`},
		{"beq r1", `t:1:5: operand 1 of beq must be a label`},
		{"beq L", `t:1:1: branch to undefined label L`},
		{"b L", `t:1:1: branch to undefined label L`},
		{"L: nop; L: nop", `t:2:1: label L defined twice (first at 1:1)`},
		{"ld r1,8(r2)", `t:1:7: unsupported PPC access ld with displacement 8: parts of locations (mixed-size accesses) are not supported`},
		{"stw r1,-4(r2)", `t:1:8: unsupported PPC access stw with displacement -4: parts of locations (mixed-size accesses) are not supported`},
		{"lwzu r1,0(r1)", `t:1:9: invalid lwzu: the base register cannot be r0 or the destination`},
		{"stwu r1,0(r0)", `t:1:9: invalid stwu: the base register cannot be r0 or the destination`},
		{"1: nop", `t:1:1: expected a PPC instruction, found "1"`},
		{"li r32,1", `t:1:4: operand 1 of li must be a register: "r32" is not a PPC register`},
	})
}

func TestPPCRegName(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		ok      bool
	}{
		{"r0", "r0", true}, {"r1", "r1", true}, {"R31", "r31", true}, {"r9", "r9", true},
		{"r32", "r32", false}, {"r01", "r01", false}, {"r", "r", false}, {"x", "x", false},
		{"cr0", "cr0", false}, {"%cr0", "%cr0", false}, {"%tmp", "%tmp", false},
	} {
		out, ok := ppcFrontend{}.RegName(tc.in)
		if out != tc.out || ok != tc.ok {
			t.Errorf("RegName(%q) = %q, %v; want %q, %v", tc.in, out, ok, tc.out, tc.ok)
		}
	}
}

func TestPPCTagAliases(t *testing.T) {
	for alias, tag := range map[string]string{"sync": "SYNC", "lwsync": "LWSYNC", "isync": "ISYNC", "eieio": "EIEIO"} {
		if got := event.TagAliases[alias]; got != tag {
			t.Errorf("TagAliases[%q] = %q, want %q", alias, got, tag)
		}
	}
}

// TestPPCParse reads a whole test: the register names of the initial
// state and the condition are canonical, and the instructions translate.
func TestPPCParse(t *testing.T) {
	src := `PPC MP+lwsync+addr
"Herd-style test"
{
0:r2=x; 0:r4=y;
1:R2=y; 1:r5=x;
}
 P0           | P1            ;
 li r1,1      | lwz r1,0(r2)  ;
 stw r1,0(r2) | xor r3,r1,r1  ;
 lwsync       | lwzx r4,r3,r5 ;
 stw r1,0(r4) |               ;
exists (1:R1=1 /\ 1:r4=0)
`
	tst, err := Parse("mp.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if tst.Arch != "PPC" || len(tst.Threads) != 2 {
		t.Fatalf("arch %s, %d threads", tst.Arch, len(tst.Threads))
	}
	if got := tst.Init[2].Ref.String(); got != "1:r2" {
		t.Errorf("init ref %s, want 1:r2", got)
	}
	if got, want := codeString(tst.Threads[0]), "r1 = 1; store [r2] r1; fence.LWSYNC; store [r4] r1"; got != want {
		t.Errorf("P0 = %s, want %s", got, want)
	}
	if got, want := codeString(tst.Threads[1]), "r1 = load [r2]; r3 = (r1 ^ r1); r4 = load [(r3 + r5)]"; got != want {
		t.Errorf("P1 = %s, want %s", got, want)
	}
	if refs := spec.Refs(tst.Cond); len(refs) != 2 || refs[0].String() != "1:r1" {
		t.Errorf("condition refs %v", refs)
	}
	_, err = Parse("bad.litmus", []byte(strings.Replace(src, "lwsync  ", "lwsyncx ", 1)))
	if err == nil || !strings.Contains(err.Error(), `bad.litmus:10:2: unknown PPC instruction "lwsyncx"`) {
		t.Errorf("error %v, want an unknown instruction at bad.litmus:10:2", err)
	}
}
