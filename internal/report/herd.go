package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// herd7 7.58 prints a final state with its registers first, by thread and
// then in the architecture's order of registers (by number: x6 before
// x10; x86's EAX, EBX, ECX, EDX, ESI, EDI, EBP, ESP; C's locals by
// name), then the shared locations by name; it lists the states in the
// order of their values, compared one by one in that order of refs
// (integers by value, before addresses, which compare by name).

// x86Regs orders the x86 registers as herd declares them; the 64-bit
// names of X86_64 follow the same order, then r8 to r15.
var x86Regs = map[string]int{"EAX": 0, "EBX": 1, "ECX": 2, "EDX": 3, "ESI": 4, "EDI": 5, "EBP": 6, "ESP": 7,
	"RAX": 0, "RBX": 1, "RCX": 2, "RDX": 3, "RSI": 4, "RDI": 5, "RBP": 6, "RSP": 7,
	"R8": 8, "R9": 9, "R10": 10, "R11": 11, "R12": 12, "R13": 13, "R14": 14, "R15": 15}

// regLess orders two registers of one thread as herd does for arch.
func regLess(arch, a, b string) bool {
	switch arch {
	case "C", "CPP", "C11", "LISA":
		return a < b
	case "AArch64", "AARCH64":
		// herd declares the zero register before the numbered ones
		// (its AArch64 A164 prints "0:XZR=0; 0:X0=0; 0:X1=1;").
		if (a == "XZR") != (b == "XZR") {
			return a == "XZR"
		}
	case "X86", "X86_64":
		ra, oka := x86Regs[strings.ToUpper(a)]
		rb, okb := x86Regs[strings.ToUpper(b)]
		switch {
		case oka && okb:
			return ra < rb
		case oka != okb:
			return oka
		}
	}
	pa, na, oka := splitNumber(a)
	pb, nb, okb := splitNumber(b)
	if oka && okb && pa == pb {
		return na < nb
	}
	return a < b
}

// splitNumber splits "x10" into "x" and 10.
func splitNumber(s string) (string, int, bool) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || len(s)-i > 6 {
		return s, 0, false
	}
	n := 0
	for _, c := range s[i:] {
		n = n*10 + int(c-'0')
	}
	return s[:i], n, true
}

// herdOrder gives the indexes of r.Observed in the order herd prints them.
func herdOrder(r *result.Result) []int {
	idx := make([]int, len(r.Observed))
	for i := range idx {
		idx[i] = i
	}
	// slices' stable sort rather than sort.SliceStable: the same
	// order (both are stable), without reflection's swapper, which the
	// playground paid per test in WebAssembly.
	less := func(a, b spec.Ref) bool {
		if a.IsReg() != b.IsReg() {
			return a.IsReg()
		}
		if !a.IsReg() {
			return a.String() < b.String()
		}
		if a.Thread != b.Thread {
			return a.Thread < b.Thread
		}
		return regLess(r.Arch, a.Name, b.Name)
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		a, b := r.Observed[i], r.Observed[j]
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
	return idx
}

// valueLess orders two values as herd does in its list of states.
func valueLess(a, b prog.Value) bool {
	if a.IsAddr() != b.IsAddr() {
		return !a.IsAddr()
	}
	if a.IsAddr() {
		return a.String() < b.String()
	}
	return a.Int < b.Int
}

// herdStates gives r's states in herd's order, each as its printed line.
func herdStates(r *result.Result) []string {
	order := herdOrder(r)
	// The states' indices are sorted, not the states: every stable sort
	// of this package and of result sorts a []int, so that the program
	// has one copy of slices' stable sort, not one per type (9 KB of
	// WebAssembly each).
	perm := make([]int, len(r.States))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(i, j int) int {
		x, y := r.States[i], r.States[j]
		for _, k := range order {
			if a, b := x[k], y[k]; a != b {
				// As sort.SliceStable's less did: the first differing
				// value decides, both ways.
				switch {
				case valueLess(a, b):
					return -1
				case valueLess(b, a):
					return 1
				}
				return 0
			}
		}
		return 0
	})
	states := make([]result.State, len(perm))
	for i, p := range perm {
		states[i] = r.States[p]
	}
	names := make([]string, len(r.Observed)) // printed once, not per state
	for k, ref := range r.Observed {
		names[k] = spec.HerdRef(ref)
	}
	if len(r.Arrays) > 0 {
		return arrayStates(r, order, names, states)
	}
	lines := make([]string, len(states))
	var b []byte // each line built here and copied out once (see result.SortStates)
	for i, s := range states {
		b = b[:0]
		for n, k := range order {
			if n > 0 {
				b = append(b, ' ')
			}
			b = append(b, names[k]...)
			b = append(b, '=')
			b = append(b, ValueText(r, k, s[k])...)
			b = append(b, ';')
		}
		lines[i] = string(b)
	}
	return lines
}

// arrayStates prints states as herdStates does, the cells a[0], a[1], ...
// of an array the condition compares whole (r.Arrays) as one value
// "a={v0,v1}", where its first cell comes in the order.
func arrayStates(r *result.Result, order []int, names []string, states []result.State) []string {
	// cellOf[k] is the array of observed ref k and its index, for cells
	// of the whole arrays.
	type cell struct {
		array string
		index int
	}
	cellOf := map[int]cell{}
	cols := map[string][]int{} // per array, the column of each cell
	for k, ref := range r.Observed {
		name := ref.Name
		i := strings.LastIndexByte(name, '[')
		if ref.IsReg() || i < 0 || !strings.HasSuffix(name, "]") {
			continue
		}
		n, ok := r.Arrays[name[:i]]
		idx, err := strconv.Atoi(name[i+1 : len(name)-1])
		if !ok || err != nil || idx < 0 || idx >= n {
			continue
		}
		if cols[name[:i]] == nil {
			cols[name[:i]] = make([]int, n)
			for j := range cols[name[:i]] {
				cols[name[:i]][j] = -1
			}
		}
		cellOf[k] = cell{name[:i], idx}
		cols[name[:i]][idx] = k
	}
	lines := make([]string, len(states))
	for i, s := range states {
		var b strings.Builder
		done := map[string]bool{}
		for _, k := range order {
			c, isCell := cellOf[k]
			if isCell && done[c.array] {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			if !isCell {
				b.WriteString(names[k] + "=" + ValueText(r, k, s[k]) + ";")
				continue
			}
			done[c.array] = true
			b.WriteString(c.array + "={")
			for j, col := range cols[c.array] {
				if j > 0 {
					b.WriteByte(',')
				}
				if col >= 0 {
					b.WriteString(ValueText(r, col, s[col]))
				} else {
					b.WriteByte('?')
				}
			}
			b.WriteString("};")
		}
		lines[i] = b.String()
	}
	return lines
}

// ValueText prints value v of r's observed ref k as herd does: unsigned
// for a ref of an unsigned 64-bit type (r.Unsigned), in hexadecimal
// (its 64 bits) with r.Hexa.
func ValueText(r *result.Result, k int, v prog.Value) string {
	if v.Loc == "" && r.Hexa {
		return fmt.Sprintf("0x%x", uint64(v.Int))
	}
	if v.Loc == "" && v.Int < 0 && k < len(r.Observed) && slices.Contains(r.Unsigned, r.Observed[k]) {
		return strconv.FormatUint(uint64(v.Int), 10)
	}
	return v.String()
}

// Hexa makes r print as herd7's -hexa prints it: the values of the
// states and the constants of the condition in hexadecimal, a negative
// value as its 64 bits (-1 is 0xffffffffffffffff).
func Hexa(r *result.Result) {
	if r.Hexa {
		return
	}
	r.Hexa = true
	r.Condition = hexConstants(r.Condition)
}

// hexConstants rewrites the integer constants of a printed condition in
// hexadecimal: a number after '=' that ends at a blank, a parenthesis or
// the end (not a register "0:r2", which goes on with ':').
func hexConstants(c string) string {
	var b strings.Builder
	for i := 0; i < len(c); i++ {
		b.WriteByte(c[i])
		if c[i] != '=' {
			continue
		}
		j := i + 1
		if j < len(c) && c[j] == '-' {
			j++
		}
		k := j
		for k < len(c) && c[k] >= '0' && c[k] <= '9' {
			k++
		}
		if k == j || k < len(c) && c[k] != ' ' && c[k] != ')' {
			continue
		}
		v, err := strconv.ParseInt(c[i+1:k], 10, 64)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "0x%x", uint64(v))
		i = k - 1
	}
	return b.String()
}
