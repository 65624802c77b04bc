package litmus

// This file refuses by name herd7's AArch64 tests of the SIMD&FP
// ("Neon") registers (its tests/instructions/AArch64.neon): the vector
// registers V0-V31 with their lanes ("{V0.B}[2]", "V1.4S"), and the
// scalar views B, H, S, D and Q of them in loads and stores ("LDR D2,
// [X0]"), which Musket does not model. Without this such a test stops on
// a syntax error (exit 2) rather than on "unsupported" (exit 3).

import (
	"strconv"
	"strings"
)

// a64SIMDOps are the instructions that only work on SIMD&FP registers.
var a64SIMDOps = map[string]bool{
	"MOVI": true, "FMOV": true, "DUP": true, "INS": true, "UMOV": true, "SMOV": true, "EXT": true,
	"LD1": true, "LD2": true, "LD3": true, "LD4": true, "ST1": true, "ST2": true, "ST3": true, "ST4": true,
	"LD1R": true, "LD2R": true, "LD3R": true, "LD4R": true, "ADDV": true,
}

// a64ScalarAccess are the loads and stores whose register may be a
// scalar view of a SIMD&FP register (D0, Q1, ...).
var a64ScalarAccess = map[string]bool{
	"LDR": true, "STR": true, "LDP": true, "STP": true, "LDUR": true, "STUR": true, "LDNP": true, "STNP": true,
}

// a64SIMDCell tells, from a cell's text, whether it is an instruction on
// SIMD&FP registers, and which: its mnemonic (upper case) and true.
func a64SIMDCell(text string) (string, bool) {
	s := text
	if i := strings.IndexByte(s, ':'); i >= 0 && !strings.ContainsAny(s[:i], " \t[{,") {
		s = s[i+1:] // a label
	}
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
	if len(f) == 0 {
		return "", false
	}
	mn := strings.ToUpper(f[0])
	if a64SIMDOps[mn] || strings.Contains(s, "{") {
		return mn, true
	}
	for _, op := range f[1:] {
		op = strings.ToUpper(strings.TrimLeft(op, "{["))
		if i := strings.IndexByte(op, '.'); i >= 0 {
			op = op[:i]
		}
		if len(op) < 2 {
			continue
		}
		n, err := strconv.Atoi(op[1:])
		if err != nil || n < 0 || n > 31 || op[1] == '+' || op[1] == '-' {
			continue
		}
		switch {
		case op[0] == 'V':
			return mn, true
		case strings.IndexByte("BHSDQ", op[0]) >= 0 && a64ScalarAccess[mn]:
			return mn, true
		}
	}
	return "", false
}
