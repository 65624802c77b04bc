package herdhash

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// asmCodeText prints the code table of an assembly test as herd7
// digests it: each thread's instructions in herd7's printing, empty
// cells dropped, labels renamed in the order of their names.
func asmCodeText(arch, code string) (string, error) {
	norm := printerFor(strings.ToUpper(arch))
	if norm == nil {
		return "", fmt.Errorf("no printer for %s", arch)
	}
	rows := strings.Split(code, ";")
	// The first row names the threads.
	start := -1
	for i, r := range rows {
		if strings.TrimSpace(r) != "" {
			start = i
			break
		}
	}
	if start < 0 {
		return "", fmt.Errorf("no code")
	}
	n := len(strings.Split(rows[start], "|"))
	type cell struct {
		labels []string
		ins    string
	}
	cols := make([][]cell, n)
	labels := map[string]bool{}
	for _, r := range rows[start+1:] {
		if strings.TrimSpace(r) == "" {
			continue
		}
		for i, c := range strings.Split(r, "|") {
			if i >= n {
				return "", fmt.Errorf("more cells than threads")
			}
			c = strings.TrimSpace(c)
			var ce cell
			for strings.IndexByte(c, ':') >= 0 {
				label, end, ok := matchLabelDef(c)
				if !ok || !norm.label(c) {
					break
				}
				ce.labels = append(ce.labels, label)
				labels[label] = true
				c = strings.TrimSpace(c[end:])
			}
			ce.ins = strings.Join(strings.Fields(c), " ")
			if ce.ins != "" || len(ce.labels) > 0 {
				cols[i] = append(cols[i], ce)
			}
		}
	}
	names := make([]string, 0, len(labels))
	for l := range labels {
		names = append(names, l)
	}
	sort.Strings(names)
	rename := map[string]string{}
	for i, l := range names {
		rename[l] = fmt.Sprintf("L%02d", i)
	}
	out := make([][]string, n)
	for i, col := range cols {
		for _, ce := range col {
			for _, l := range ce.labels {
				out[i] = append(out[i], rename[l]+":")
			}
			if ce.ins == "" {
				continue
			}
			s, err := norm.ins(ce.ins, rename)
			if err != nil {
				return "", err
			}
			out[i] = append(out[i], s)
		}
	}
	return progText(out), nil
}

// printer prints one instruction as herd7's printer of an architecture
// does.
type printer struct {
	ins   func(ins string, labels map[string]string) (string, error)
	label func(cell string) bool // whether "NAME:" at the start of a cell is a label
}

// printerFor returns the printer of an architecture word in upper case,
// or nil. A switch rather than a package-level map: a map would be built
// by the package's initialiser, which would keep every printer in a
// program that never hashes (the playground's WebAssembly engine, where
// the linker now leaves this package out) and run at its start-up.
func printerFor(arch string) *printer {
	switch arch {
	case "X86":
		return &printer{ins: x86Ins, label: anyLabel}
	case "PPC":
		return &printer{ins: ppcIns, label: anyLabel}
	case "RISCV":
		return &printer{ins: riscvIns, label: anyLabel}
	case "AARCH64":
		return &printer{ins: aarch64Ins, label: anyLabel}
	case "X86_64":
		return &printer{ins: x8664Ins, label: anyLabel}
	case "MIPS":
		return &printer{ins: mipsIns, label: anyLabel}
	case "ARM":
		return &printer{ins: armIns, label: anyLabel}
	}
	return nil
}

func anyLabel(string) bool { return true }

// operands splits "a, b(c), [d, e]" at the commas outside brackets.
func operands(s string) []string {
	var out []string
	depth := 0
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" || len(out) > 0 {
		out = append(out, t)
	}
	return out
}

// splitIns cuts an instruction into its mnemonic and operands.
func splitIns(ins string) (string, []string) {
	op, rest, _ := strings.Cut(ins, " ")
	return op, operands(rest)
}

// intText prints an integer literal as OCaml's string_of_int does.
func intText(s string) (string, bool) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	t := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	v, err := strconv.ParseInt(t, 0, 64)
	if err != nil {
		return "", false
	}
	if neg {
		v = -v
	}
	return strconv.FormatInt(v, 10), true
}

func relabel(s string, labels map[string]string) string {
	if l, ok := labels[s]; ok {
		return l
	}
	return s
}

func noSpace(s string) string { return strings.Join(strings.Fields(s), "") }

// --- X86 ---

func x86Reg(s string) (string, bool) {
	u := strings.ToUpper(s)
	switch u {
	case "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP", "EIP", "ZF", "SF", "CF":
		return u, true
	}
	return "", false
}

func x86Operand(s string) string {
	s = noSpace(s)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		in := s[1 : len(s)-1]
		if r, ok := x86Reg(in); ok {
			return "[" + r + "]"
		}
		return s
	}
	if r, ok := x86Reg(s); ok {
		return r
	}
	if v, ok := intText(strings.TrimPrefix(s, "$")); ok {
		return "$" + v
	}
	return s
}

func x86Ins(ins string, labels map[string]string) (string, error) {
	fs := strings.Fields(ins)
	if len(fs) > 0 && strings.EqualFold(fs[0], "LOCK") {
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ins[len(fs[0]):]), ";"))
		s, err := x86Ins(rest, labels)
		return "LOCK; " + s, err
	}
	op, args := splitIns(ins)
	op = strings.ToUpper(op)
	switch op {
	case "MOVB", "MOVW", "MOVL", "MOVQ", "MOVT":
		op = "MOV"
	case "DEC", "INC", "CMP":
		op += " " // herd7 prints these with two spaces
	}
	if strings.HasPrefix(op, "J") {
		for i, a := range args {
			args[i] = relabel(a, labels)
		}
		return op + " " + strings.Join(args, ","), nil
	}
	for i, a := range args {
		args[i] = x86Operand(a)
	}
	if len(args) == 0 {
		return op, nil
	}
	return op + " " + strings.Join(args, ","), nil
}

// --- PPC ---

func ppcOperand(s string) string {
	s = noSpace(s)
	if !strings.HasSuffix(s, ")") {
		// not d(rA)
	} else if d, reg, ok := matchMem(s); ok {
		if v, ok := intText(d); ok {
			d = v
		}
		return d + "(" + strings.ToLower(reg) + ")"
	}
	if v, ok := intText(s); ok {
		return v
	}
	return strings.ToLower(s)
}

func ppcIns(ins string, labels map[string]string) (string, error) {
	op, args := splitIns(ins)
	op = strings.ToLower(op)
	switch op {
	case "b", "bl":
		if len(args) != 1 {
			return "", fmt.Errorf("%s: one label", op)
		}
		pad := "   "
		return op + pad + relabel(args[0], labels), nil
	case "beq", "bne", "blt", "bge", "bgt", "ble":
		if len(args) != 1 {
			return "", fmt.Errorf("%s: one label", op)
		}
		return op + "  " + relabel(args[0], labels), nil
	case "ld":
		op = "lwz"
	case "std":
		op = "stw"
	case "ldx":
		op = "lwzx"
	case "stdx":
		op = "stwx"
	}
	for i, a := range args {
		args[i] = ppcOperand(a)
	}
	if len(args) == 0 {
		return op, nil
	}
	return op + " " + strings.Join(args, ","), nil
}

// --- RISC-V ---

var riscvABI = map[string]string{
	"zero": "x0", "ra": "x1", "sp": "x2", "gp": "x3", "tp": "x4", "t0": "x5", "t1": "x6", "t2": "x7",
	"s0": "x8", "fp": "x8", "s1": "x9", "a0": "x10", "a1": "x11", "a2": "x12", "a3": "x13", "a4": "x14",
	"a5": "x15", "a6": "x16", "a7": "x17", "s2": "x18", "s3": "x19", "s4": "x20", "s5": "x21",
	"s6": "x22", "s7": "x23", "s8": "x24", "s9": "x25", "s11": "x27",
	"t3": "x28", "t4": "x29", "t5": "x30", "t6": "x31",
}

func riscvReg(s string) string {
	if r, ok := riscvABI[s]; ok {
		return r
	}
	return s
}

func riscvIns(ins string, labels map[string]string) (string, error) {
	op, args := splitIns(ins)
	op = strings.ToLower(op)
	for i, a := range args {
		args[i] = noSpace(a)
	}
	// herd7 7.58 prints an acquire-release order ".aqrl".
	op = strings.Replace(op, ".aq.rl", ".aqrl", 1)
	mem := func(a string, withOffset bool) (string, error) {
		d, reg, ok := matchMem(a)
		if !ok {
			return "", fmt.Errorf("%s: address %q", op, a)
		}
		if !withOffset {
			return "(" + riscvReg(reg) + ")", nil
		}
		if d == "" {
			d = "0"
		}
		if v, ok := intText(d); ok {
			d = v
		}
		return d + "(" + riscvReg(reg) + ")", nil
	}
	switch {
	case strings.HasPrefix(op, "amo"):
		op = strings.Replace(op, ".aq.rl", ".aqrl", 1)
		if len(args) != 3 {
			return "", fmt.Errorf("%s: three operands", op)
		}
		a, err := mem(args[2], false)
		if err != nil {
			return "", err
		}
		return op + " " + riscvReg(args[0]) + "," + riscvReg(args[1]) + "," + a, nil
	case strings.HasPrefix(op, "lr."):
		if len(args) != 2 {
			return "", fmt.Errorf("%s: two operands", op)
		}
		a, err := mem(args[1], false)
		if err != nil {
			return "", err
		}
		return op + " " + riscvReg(args[0]) + ",0" + a, nil
	case strings.HasPrefix(op, "sc."):
		if len(args) != 3 {
			return "", fmt.Errorf("%s: three operands", op)
		}
		a, err := mem(args[2], false)
		if err != nil {
			return "", err
		}
		return op + " " + riscvReg(args[0]) + "," + riscvReg(args[1]) + ",0" + a, nil
	case op == "li" && len(args) == 2:
		// herd7 reads the pseudo-instruction as an ori from x0.
		op, args = "ori", []string{args[0], "x0", args[1]}
	case op == "mv" && len(args) == 2:
		// and mv as an addi of 0.
		op, args = "addi", []string{args[0], args[1], "0"}
	case op == "fence" && len(args) == 0:
		return "fence rw,rw", nil
	case op == "fence" && len(args) == 2:
		return "fence " + args[0] + "," + args[1], nil
	case op == "j":
		if len(args) == 1 {
			return "j " + relabel(args[0], labels), nil
		}
	case op == "beq" || op == "bne" || op == "blt" || op == "bltu" || op == "bge" || op == "bgeu":
		if len(args) == 3 {
			return op + " " + riscvReg(args[0]) + "," + riscvReg(args[1]) + "," + relabel(args[2], labels), nil
		}
	}
	for i, a := range args {
		if _, _, ok := matchMem(a); ok {
			m, err := mem(a, true)
			if err != nil {
				return "", err
			}
			args[i] = m
		} else if v, ok := intText(a); ok {
			args[i] = v
		} else {
			args[i] = riscvReg(a)
		}
	}
	if op == "xori" {
		op = " xori" // herd7's printer has the space
	}
	if len(args) == 0 {
		return op, nil
	}
	return op + " " + strings.Join(args, ","), nil
}

// --- X86_64 ---

// x8664Operands splits AT&T operands at the commas outside parentheses.
func x8664Operands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// x8664Ins prints an X86_64 instruction as herd7 does: the mnemonic and
// the registers in lower case, the operands in AT&T order without
// blanks, immediates in decimal.
func x8664Ins(ins string, labels map[string]string) (string, error) {
	op, rest, _ := strings.Cut(strings.TrimSpace(ins), " ")
	op = strings.ToLower(op)
	rest = strings.TrimSpace(rest)
	switch op {
	case "nop", "nopl", "nopw", "nopq", "endbr64":
		// herd reads them all as its NOP, printed in capitals.
		return "NOP", nil
	}
	if rest == "" {
		return op, nil
	}
	args := x8664Operands(rest)
	for i, a := range args {
		a = noSpace(a)
		switch {
		case strings.HasPrefix(a, "$"):
			if v, ok := intText(a[1:]); ok {
				a = "$" + v
			}
		case strings.Contains(a, "%"):
			a = strings.ToLower(a)
		default:
			a = relabel(a, labels)
		}
		args[i] = a
	}
	return op + " " + strings.Join(args, ","), nil
}

// --- AArch64 ---

func aarch64Ins(ins string, labels map[string]string) (string, error) {
	op, args := splitIns(ins)
	for i, a := range args {
		args[i] = relabel(strings.Join(strings.Fields(a), " "), labels)
	}
	if len(args) == 0 {
		return op, nil
	}
	return op + " " + strings.Join(args, ","), nil
}
