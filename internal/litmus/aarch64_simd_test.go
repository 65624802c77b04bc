package litmus

import "testing"

func TestA64SIMDCell(t *testing.T) {
	for _, tc := range []struct {
		cell string
		mn   string
		simd bool
	}{
		{"LDR W0,[X1]", "", false},
		{"LDR X0,[X1,W2,SXTW]", "", false},
		{"B S1", "", false},
		{"CBZ W0,D1", "", false},
		{"S1: MOV W0,#1", "", false},
		{"LD1 {V0.B}[2],[X0]", "LD1", true},
		{"LDR D2,[X0,#16]", "LDR", true},
		{"L0: STR Q1,[X0]", "STR", true},
		{"FMOV D0,X1", "FMOV", true},
		{"ADD V1.4S,V2.4S,V3.4S", "ADD", true},
	} {
		mn, ok := a64SIMDCell(tc.cell)
		if ok != tc.simd || mn != tc.mn {
			t.Errorf("a64SIMDCell(%q) = %q, %v; want %q, %v", tc.cell, mn, ok, tc.mn, tc.simd)
		}
	}
}
