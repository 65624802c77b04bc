package herdhash

import (
	"strconv"
	"strings"
)

// --- MIPS ---

// mipsABI numbers the ABI names of MIPS registers.
var mipsABI = map[string]int{
	"zero": 0, "at": 1, "v0": 2, "v1": 3, "a0": 4, "a1": 5, "a2": 6, "a3": 7,
	"t0": 8, "t1": 9, "t2": 10, "t3": 11, "t4": 12, "t5": 13, "t6": 14, "t7": 15,
	"s0": 16, "s1": 17, "s2": 18, "s3": 19, "s4": 20, "s5": 21, "s6": 22, "s7": 23,
	"t8": 24, "t9": 25, "k0": 26, "k1": 27, "gp": 28, "sp": 29, "fp": 30, "ra": 31,
}

// mipsReg prints a register as herd7 does: "$N" (a4-a7 "$a4"); a
// symbolic register or anything else as it is.
func mipsReg(s string) string {
	n := strings.TrimPrefix(s, "$")
	if k, ok := mipsABI[n]; ok {
		return "$" + strconv.Itoa(k)
	}
	if _, err := strconv.Atoi(n); err == nil && n != s {
		return s
	}
	switch n {
	case "a4", "a5", "a6", "a7":
		return "$" + n
	}
	return s
}

func mipsIns(ins string, labels map[string]string) (string, error) {
	op, args := splitIns(ins)
	op = strings.ToLower(op)
	for i, a := range args {
		a = noSpace(a)
		switch {
		case strings.HasSuffix(a, ")") && strings.Contains(a, "("):
			// k(rs) or (rs)
			open := strings.IndexByte(a, '(')
			d, reg := a[:open], a[open+1:len(a)-1]
			if d == "" {
				d = "0"
			}
			if v, ok := intText(d); ok {
				d = v
			}
			a = d + "(" + mipsReg(reg) + ")"
		default:
			if v, ok := intText(a); ok {
				a = v
			} else if r := mipsReg(a); r != a || strings.HasPrefix(a, "$") {
				a = r
			} else {
				a = relabel(a, labels)
			}
		}
		args[i] = a
	}
	if len(args) == 0 {
		return op, nil
	}
	return op + " " + strings.Join(args, ","), nil
}

// mipsPrepare rewrites the '$' of the registers of a MIPS test's initial
// state or condition ("0:$2"), which herd7 digests as written, into a
// word the digest's matchers read: "0:_D2"; mipsFinish puts the '$' back.
func mipsPrepare(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' && i > 0 && s[i-1] == ':' && (i < 2 || isDigit(s[i-2])) {
			b.WriteString("_D")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mipsFinish puts back the '$' mipsPrepare took out and, in the initial
// state, writes the symbolic registers without their '%', as herd7
// digests them ("x0=x").
func mipsFinish(s string, init bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], ":_D"):
			b.WriteString(":$")
			i += 2
		default:
			b.WriteByte(s[i])
		}
	}
	if init {
		return bareSymRegs(b.String())
	}
	return b.String()
}

// bareSymRegs writes the symbolic registers of an initial state's text
// without their '%', as herd7 digests them ("x0=x"; MIPS and ARM).
func bareSymRegs(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i == 0 || s[i-1] == ' ') {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
