package herdhash

import "testing"

// TestARMIns checks herd7's printing of ARM instructions, from which the
// digest is computed (each form was checked on the Hash lines of herd7's
// own expected outputs: herdtools7's tests/instructions/ARM and AArch32,
// 21 of 23 equal, the two others holding conditional MOVW/MOVT/AND forms
// whose printing is not known, left without a digest).
func TestARMIns(t *testing.T) {
	labels := map[string]string{"L0": "L00"}
	for _, tc := range []struct{ in, want string }{
		{"MOV R0, #1", "MOV R0,#1"},
		{"mov r0,#0x10", "MOV R0,#16"},
		{"LDR R2, [IP]", "LDR R2,[R12]"},
		{"STL  R2, [R3]", "STL R2,[R3]"},
		{"STLEX R4,R0,[R1]", "STLEX R4,R0,[R1]"},
		{"LDR R1, [R0,#4]", "LDR R1,[R0,#4]"},
		{"LDR R2, [R1, R3, lsl #2]", "LDR R2,[R1,R3,lsl #2]"},
		{"STR R0,[%P0_x]", "STR R0,[%P0_x]"},
		{"BNE L0", "BNE L00"},
		{"BX LR", "BX LR"},
		{"DMB", "DMB"},
		{"DMB SY", "DMB"},
		{"DMB ISH", "DMB ISH"},
		{"MOVT R0, #48879", "MOVT R0, #48879"},
		{"LDM R0, { R1, R2 }", "LDM R0, {R1,R2}"},
		{"LDRD R2,R3,[R1]", "LDRD R2, R3, [R1]"},
		{"LDRD R4,[R1]", "LDRD R4, R5, [R1]"},
	} {
		got, err := armIns(tc.in, labels)
		if err != nil || got != tc.want {
			t.Errorf("armIns(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	// Unchecked forms get no digest.
	for _, in := range []string{"MOVWEQ R1, #2", "ANDEQ R0, R0, R0", "STM R0, {R1,R2}", "LDRD R12,[R1]"} {
		if got, err := armIns(in, labels); err == nil {
			t.Errorf("armIns(%q) = %q, want an error", in, got)
		}
	}
}

// TestARMOf: whole digests of ARM programs in the canonical form of
// herd7's tests (the expected values are the Hash lines of herd7's
// expected outputs for programs of that form; the name, the layout and
// the comments are not digested).
func TestARMOf(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"MOVT, operands with a blank", "ARM movt\n{ 0:R0 = 0 }\n P0 ;\n MOVT R0,#1 ;\nforall 0:R0=65536\n", "6c83921ab28398e13c6a9d52e8461687"},
		{"LDM and a header key that is not digested", "ARM ldm\nStable=R1\n{ int x[2] = {1,2}; 0:R0 = x }\n P0 ;\n LDM R0,{R1,R2} ;\nforall (0:R1=1 /\\ 0:R2=2)\n", "399610b45809d8bab38135a3b19eb9df"},
		{"LDRD naming one register", "ARM ldrd\n{ int x[2] = {1,1}; 0:R1 = x }\n P0 ;\n LDRD R2, R3, [R1] ;\n LDRD R4, [R1] ;\nforall (0:R2=1 /\\ 0:R3=1 /\\ 0:R4=1 /\\ 0:R5=1)\n", "7634bf6ce48a5ec0f06cfdcbe83bd2a2"},
		{"a shifted index", "ARM shift\n{ int v[2] = {1,2}; 0:R1 = v; 0:R3 = 1; int y[2] = {0,0}; 0:R4 = y }\n P0 ;\n LDR R2,[R1,R3,LSL #2] ;\n STR R2,[R4,R3,LSL #2] ;\nforall (0:R2=2 /\\ v[1]=2)\n", "53b68e1cf3bc79ce492882ea4fe72ade"},
		{"two threads, a loop, acquire and release", `ARM loop
{ 0:R1=x; 1:R1=x; 0:R3=y; 1:R3=y; }
 P0                | P1           ;
 MOV R0,#1         | MOV R2,#1    ;
 Again:            | STL R2,[R3]  ;
 LDAEX R6,[R1]     | LDA R0,[R1]  ;
 STLEX R4,R0,[R1]  |              ;
 CMP R4,#0         |              ;
 BNE Again         |              ;
 LDA R2,[R3]       |              ;
exists (0:R2=0 /\ 1:R0=0)
`, "f9537c416b340c5c1d7afc4295df5253"},
	} {
		got, ok := Of([]byte(tc.src))
		if !ok || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}
