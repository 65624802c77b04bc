package gen

import (
	"fmt"
	"strings"
)

// Exclusive accesses: diy's X annotation on AArch64 and RISC-V (RfeXX,
// FrePX, PosWWXP) makes the access a load-exclusive / store-exclusive
// pair, written as diy wrote the corpus's tests (its -unrollatomic 0):
// once, without a retry loop, the store's success flag in the condition
// (0: it stored). A loop would branch on the flag, and that branch would
// order the later accesses of the thread after the pair (a control
// dependency), which the cycle does not ask.
//
//   - an exclusive read reads its value and writes it back: LDXR r;
//     STXR s,r (lr.w r; sc.w s,r on RISC-V); the write-back is just after
//     the write it read in coherence, with the same value, so the cycle's
//     values and final values stay;
//   - an exclusive write loads, then stores its value: MOV v; LDXR r;
//     STXR s,v (the load is not in the condition).
//
// The pair is atomic: no other write comes between the write the load
// reads and the store in coherence.
//
// X may carry the orders of its two instructions, as diy names them:
// on AArch64 XA (LDAXR; STXR), XL (LDXR; STLXR) and XAL (LDAXR; STLXR);
// on RISC-V X followed by the load's then the store's order, each P
// (none), Aq, Rl or AR (both): XAqP (lr.w.aq; sc.w), XPRl (lr.w;
// sc.w.rl), XAqRl, XARAR (lr.w.aqrl; sc.w.aqrl), ... (X alone is XPP).

// exclusiveAnns are the ordered X annotations of AArch64 and RISC-V,
// longest first.
var (
	a64Exclusive = []string{"XAL", "XA", "XL", "X"}
	rvExclusive  = func() []string {
		mos := []string{"AR", "Aq", "Rl", "P"}
		var out []string
		for _, m1 := range mos {
			for _, m2 := range mos {
				if m1 != "P" || m2 != "P" {
					out = append(out, "X"+m1+m2)
				}
			}
		}
		return append(out, "X")
	}()
)

// isExclusive tells whether an annotation is X, ordered or not.
func isExclusive(ann string) bool { return len(ann) > 0 && ann[0] == 'X' }

// rvOrder is the suffix of a RISC-V order: "", ".aq", ".rl", ".aqrl".
func rvOrder(mo string) string {
	return map[string]string{"P": "", "Aq": ".aq", "Rl": ".rl", "AR": ".aqrl"}[mo]
}

// exclusiveOps gives the load and store of an exclusive pair of
// annotation ann.
func exclusiveOps(arch, ann string) (load, store string) {
	if arch == "AArch64" {
		load, store = "LDXR", "STXR"
		if strings.Contains(ann, "A") {
			load = "LDAXR"
		}
		if strings.HasSuffix(ann, "L") {
			store = "STLXR"
		}
		return load, store
	}
	load, store = "lr.w", "sc.w"
	if rest := ann[1:]; rest != "" {
		for _, m1 := range []string{"AR", "Aq", "Rl", "P"} {
			if strings.HasPrefix(rest, m1) {
				return load + rvOrder(m1), store + rvOrder(rest[len(m1):])
			}
		}
	}
	return load, store
}

// exclusive writes one exclusive access; val is the register or the
// immediate a write stores. It returns the register of a read, and
// records the store's flag for the condition.
func exclusive(t *thread, arch string, ev Event, a string, val string) string {
	load, store := exclusiveOps(arch, ev.Ann)
	switch arch {
	case "AArch64":
		r, s := t.newReg(), t.newReg()
		v := fmt.Sprintf("W%d", r)
		if ev.Dir == 'W' {
			v = fmt.Sprintf("W%d", t.newReg())
			t.emit("MOV %s,%s", v, val)
		}
		t.emit("%s W%d,%s", load, r, a)
		t.emit("%s W%d,%s,%s", store, s, v, a)
		t.flags = append(t.flags, fmt.Sprintf("W%d", s))
		if ev.Dir == 'W' {
			return ""
		}
		return fmt.Sprintf("W%d", r)
	default: // RISCV
		reg := riscv{}.reg
		r, s := reg(t.newReg()), reg(t.newReg())
		v := r
		if ev.Dir == 'W' {
			v = val
		}
		t.emit("%s %s,0(%s)", load, r, a)
		t.emit("%s %s,%s,0(%s)", store, s, v, a)
		t.flags = append(t.flags, s)
		if ev.Dir == 'W' {
			return ""
		}
		return r
	}
}
