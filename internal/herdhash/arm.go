package herdhash

import (
	"fmt"
	"strconv"
	"strings"
)

// --- ARM (ARMv7 and AArch32) ---
//
// herd7 prints an ARM instruction as its mnemonic (condition included)
// and its operands: registers by name (R0-R12, SP, LR, PC; IP is R12),
// immediates "#n" in decimal, memory "[Rn]", "[Rn,Rm]" or
// "[Rn,Rm,lsl #k]". Its older instructions join their operands with a
// bare comma ("LDR R0,[R1]"), its newer ones (MOVT, LDRD, LDM) with a
// comma and a blank ("MOVT R0, #1"); LDRD with one register names the
// pair ("LDRD R4, R5, [R1]"). A barrier's full-system option SY is not
// printed ("DMB"). Each form here was checked against the Hash lines of
// herd7's own expected outputs (herdtools7's tests/instructions/ARM and
// AArch32); a test with any other mnemonic gets no digest, rather than a
// guessed one.

// armPlain are the mnemonics whose printing was checked, operands
// joined by a bare comma.
var armPlain = map[string]bool{
	"MOV": true, "LDR": true, "STR": true, "CMP": true, "ADD": true, "EOR": true,
	"LDA": true, "STL": true, "LDREX": true, "LDAEX": true, "STLEX": true,
	"B": true, "BNE": true, "BEQ": true, "SUB": true, "SUBS": true, "ORR": true, "BX": true,
}

// armSpaced are the checked mnemonics whose operands herd7 joins with a
// comma and a blank.
var armSpaced = map[string]bool{"MOVT": true, "LDRD": true, "LDM": true, "LDMIB": true}

// armRegName is herd7's name of an ARM register, ok false for anything
// else.
func armRegName(s string) (string, bool) {
	u := strings.ToUpper(s)
	switch u {
	case "SP", "LR", "PC":
		return u, true
	case "IP":
		return "R12", true
	}
	if len(u) >= 2 && u[0] == 'R' {
		if n, err := strconv.Atoi(u[1:]); err == nil && n >= 0 && n <= 12 && strconv.Itoa(n) == u[1:] {
			return u, true
		}
	}
	return "", false
}

// armOperand prints one operand: a register, an immediate, a memory
// operand or register list (its parts printed in turn), a shift
// ("lsl #2"), or a label renamed.
func armOperand(a string, labels map[string]string) string {
	f := strings.Fields(a)
	if len(f) == 2 && strings.EqualFold(f[0], "LSL") {
		return "lsl " + armOperand(f[1], labels)
	}
	a = noSpace(a)
	switch {
	case strings.HasPrefix(a, "#"):
		if v, ok := intText(a[1:]); ok {
			return "#" + v
		}
	case len(a) >= 2 && (a[0] == '[' && a[len(a)-1] == ']' || a[0] == '{' && a[len(a)-1] == '}'):
		in := operands(a[1 : len(a)-1])
		for i, x := range in {
			in[i] = armOperand(x, labels)
		}
		return a[:1] + strings.Join(in, ",") + a[len(a)-1:]
	case strings.HasPrefix(strings.ToLower(a), "lsl#"):
		return "lsl " + armOperand(a[3:], labels)
	}
	if r, ok := armRegName(a); ok {
		return r
	}
	return relabel(a, labels)
}

func armIns(ins string, labels map[string]string) (string, error) {
	op, rest, _ := strings.Cut(strings.TrimSpace(ins), " ")
	op = strings.ToUpper(op)
	args := operands(rest)
	if op == "DMB" || op == "DSB" {
		switch {
		case len(args) == 0:
			return op, nil
		case len(args) == 1:
			o := strings.ToUpper(noSpace(args[0]))
			if o == "SY" {
				return op, nil
			}
			return op + " " + o, nil
		}
	}
	if op == "ISB" && (len(args) == 0 || len(args) == 1 && strings.EqualFold(noSpace(args[0]), "SY")) {
		return op, nil
	}
	sep := ","
	switch {
	case armSpaced[op]:
		sep = ", "
	case !armPlain[op]:
		return "", fmt.Errorf("ARM %s: herd7's printing not known", op)
	}
	for i, a := range args {
		args[i] = armOperand(a, labels)
	}
	if op == "LDRD" && len(args) == 2 {
		// The pair's second register is the next one.
		n, err := strconv.Atoi(strings.TrimPrefix(args[0], "R"))
		if err != nil || !strings.HasPrefix(args[0], "R") || n >= 12 {
			return "", fmt.Errorf("LDRD %s: no pair", args[0])
		}
		args = []string{args[0], "R" + strconv.Itoa(n+1), args[1]}
	}
	if len(args) == 0 {
		return op, nil
	}
	return op + " " + strings.Join(args, sep), nil
}
