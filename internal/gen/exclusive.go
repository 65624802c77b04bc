package gen

import "fmt"

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

// exclusive writes one exclusive access; val is the register or the
// immediate a write stores. It returns the register of a read, and
// records the store's flag for the condition.
func exclusive(t *thread, arch string, ev Event, a string, val string) string {
	switch arch {
	case "AArch64":
		r, s := t.newReg(), t.newReg()
		v := fmt.Sprintf("W%d", r)
		if ev.Dir == 'W' {
			v = fmt.Sprintf("W%d", t.newReg())
			t.emit("MOV %s,%s", v, val)
		}
		t.emit("LDXR W%d,%s", r, a)
		t.emit("STXR W%d,%s,%s", s, v, a)
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
		t.emit("lr.w %s,0(%s)", r, a)
		t.emit("sc.w %s,%s,0(%s)", s, v, a)
		t.flags = append(t.flags, s)
		if ev.Dir == 'W' {
			return ""
		}
		return r
	}
}
