package litmus

import "testing"

func TestX86Translate(t *testing.T) {
	checkTranslations(t, x86Frontend{}, []srcWant{
		{"MOV EAX,[x]", "EAX = load [x]"},
		{"mov eax, [x]", "EAX = load [x]"},
		{"MOV [x],$1", "store [x] 1"},
		{"MOV [x], 1", "store [x] 1"},
		{"MOV [x],$-2", "store [x] -2"},
		{"MOV [x],0x10", "store [x] 16"},
		{"MOV [x],EBX", "store [x] EBX"},
		{"MOV EAX,$1", "EAX = 1"},
		{"MOV EAX,EBX", "EAX = EBX"},
		{"MOV EAX,x", "EAX = x"},
		{"MOV EAX,$y", "EAX = y"},
		{"MOV EAX,[EBX]", "EAX = load [EBX]"},
		{"MOV [ECX],EAX", "store [ECX] EAX"},
		{"MOV RAX,[x]; MOV R8,RAX", "RAX = load [x]; R8 = RAX"},
		{"XCHG [x],EAX", "EAX = rmw.X/.X [x] EAX"},
		{"xchg EAX,[x]", "EAX = rmw.X/.X [x] EAX"},
		{"LOCK XCHG [x],EAX", "EAX = rmw.X/.X [x] EAX"},
		{"XCHG EAX,EBX", "%tmp = EAX; EAX = EBX; EBX = %tmp"},
		{"MFENCE; LFENCE; sfence; NOP", "fence.MFENCE; fence.LFENCE; fence.SFENCE"},
		{"LOCK ADD [x],$2", " = rmw.X/.X [x] (old + 2)"},
		{"LOCK SUB [x],EBX", " = rmw.X/.X [x] (old - EBX)"},
		{"LOCK INC [x]", " = rmw.X/.X [x] (old + 1)"},
		{"lock dec [x]", " = rmw.X/.X [x] (old - 1)"},
		{"LOCK AND [x],1; LOCK OR [x],2; LOCK XOR [x],3",
			" = rmw.X/.X [x] (old & 1);  = rmw.X/.X [x] (old | 2);  = rmw.X/.X [x] (old ^ 3)"},
		{"LOCK XADD [x],EAX", "EAX = rmw.X/.X [x] (old + EAX)"},
		{"LOCK CMPXCHG [x],EBX", "%tmp = rmw.X/.X [x] EBX if (old == EAX); EAX = %tmp"},
		{"ADD [x],1", "%tmp = load [x]; store [x] (%tmp + 1)"},
		{"INC [x]", "%tmp = load [x]; store [x] (%tmp + 1)"},
		{"XADD [x],EBX", "%tmp = load [x]; store [x] (%tmp + EBX); EBX = %tmp"},
		{"CMPXCHG [x],EBX",
			"%tmp = load [x]; if (%tmp != EAX) goto %L1; store [x] EBX; %L1:; EAX = %tmp"},
		{"ADD EAX,1; SUB EAX,EBX; XOR EBX,EBX", "EAX = (EAX + 1); EAX = (EAX - EBX); EBX = (EBX ^ EBX)"},
		{"ADD EAX,[x]", "%tmp = load [x]; EAX = (EAX + %tmp)"},
		{"INC EAX; DEC EBX", "EAX = (EAX + 1); EBX = (EBX - 1)"},
		{"XADD EAX,EBX", "%tmp = (EAX + EBX); EBX = EAX; EAX = %tmp"},
		{"CMP EAX,1", ""},
		{"CMP [x],1", "%tmp = load [x]"},
		{"L0: MOV EAX,[x]; CMP EAX,0; JE L0",
			"L0:; EAX = load [x]; %cmpL = EAX; %cmpR = 0; if (%cmpL == %cmpR) goto L0"},
		{"L0:; JMP L1; L1: NOP", "L0:; goto L1; L1:"},
		{"CMP EAX,EBX; JNE L; JL L; JLE L; JG L; JGE L; JZ L; JNZ L; L:",
			"%cmpL = EAX; %cmpR = EBX; if (%cmpL != %cmpR) goto L; if (%cmpL < %cmpR) goto L; " +
				"if (%cmpL <= %cmpR) goto L; if (%cmpL > %cmpR) goto L; if (%cmpL >= %cmpR) goto L; " +
				"if (%cmpL == %cmpR) goto L; if (%cmpL != %cmpR) goto L; L:"},
		{"LOCK ADD [x],2; JZ L; L:",
			"%tmp = rmw.X/.X [x] (old + 2); %cmpL = (%tmp + 2); %cmpR = 0; if (%cmpL == %cmpR) goto L; L:"},
		{"LOCK XADD [x],EAX; JZ L; L:",
			"%tmp = EAX; EAX = rmw.X/.X [x] (old + EAX); %cmpL = (EAX + %tmp); %cmpR = 0; if (%cmpL == %cmpR) goto L; L:"},
		{"LOCK CMPXCHG [x],EBX; JE L; L:",
			"%tmp = rmw.X/.X [x] EBX if (old == EAX); %cmpL = EAX; %cmpR = %tmp; EAX = %tmp; if (%cmpL == %cmpR) goto L; L:"},
		{"TEST EAX,EAX; JNZ L; L:", "%cmpL = (EAX & EAX); %cmpR = 0; if (%cmpL != %cmpR) goto L; L:"},
		{"CMPXCHG EBX,ECX",
			"%tmp = EBX; if (%tmp != EAX) goto %L1; EBX = ECX; goto %L2; %L1:; EAX = %tmp; %L2:"},
	})
}

func TestX86Errors(t *testing.T) {
	checkThreadErrors(t, x86Frontend{}, true, []srcWant{
		{"FOO EAX", `t:1:1: unknown x86 instruction "FOO"`},
		{"MOV EAX", `t:1:1: MOV takes 2 operands, found 1`},
		{"MOV [x],[y]", `t:1:9: MOV cannot take two memory operands`},
		{"MOV 1,EAX", `t:1:5: MOV needs a register or memory destination`},
		{"MOV EAX,", `t:1:8: missing operand of MOV after ','`},
		{"MOV ,EAX", `t:1:5: missing operand of MOV`},
		{"MOV EAX,[x", `t:1:9: bad x86 operand "[x"`},
		{"MOV EAX,#1", `t:1:9: unexpected '#' in x86 instruction`},
		{"MOV EAX,$99999999999999999999", `t:1:10: malformed integer "99999999999999999999"`},
		{"LOCK MOV [x],1", `t:1:6: LOCK prefix not allowed on MOV`},
		{"LOCK ADD EAX,1", `t:1:10: LOCK ADD needs a memory destination`},
		{"LOCK", `t:1:1: expected an instruction after LOCK`},
		{"XCHG [x],1", `t:1:1: XCHG needs a register and a register or memory operand`},
		{"XADD [x],1", `t:1:10: XADD needs a register source`},
		{"JMP [x]", `t:1:5: expected a label`},
		{"JE L", `t:1:1: jump to undefined label L`},
		{"L: NOP; L: NOP", `t:2:1: label L defined twice (first at 1:1)`},
		{"1: NOP", `t:1:1: expected an x86 instruction, found "1"`},
	})
}

func TestX86RegName(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		ok      bool
	}{
		{"EAX", "EAX", true}, {"eax", "EAX", true}, {"Esi", "ESI", true}, {"r15", "R15", true},
		{"EZX", "EZX", false}, {"x", "X", false}, {"%tmp", "%TMP", false},
	} {
		out, ok := x86Frontend{}.RegName(tc.in)
		if out != tc.out || ok != tc.ok {
			t.Errorf("RegName(%q) = %q, %v; want %q, %v", tc.in, out, ok, tc.out, tc.ok)
		}
	}
}
