package gen

import "fmt"

// Exclusive accesses: diy's X annotation on AArch64 and RISC-V (RfeXX,
// FrePX, PosWWXP) makes the access a load-exclusive / store-exclusive
// pair retried until the store succeeds, as diy writes them by default
// (without -unrollatomic):
//
//   - an exclusive read reads its value and writes it back:
//     LDXR r; STXR s,r; CBNZ s (lr.w r; sc.w s,r; bnez s on RISC-V); the
//     write-back is just after the write it read in coherence, with the
//     same value, so the cycle's values and final values stay;
//   - an exclusive write loads, then stores its value: MOV v; LDXR r;
//     STXR s,v; CBNZ s (the read is not in the condition).
//
// The pair is atomic: no other write comes between the write the load
// reads and the store in coherence.

// exclusive writes one exclusive access; dialect-specific parts come
// from arch. It returns the register of a read.
func exclusive(t *thread, arch string, ev Event, a string, val string) string {
	t.loops++
	label := fmt.Sprintf("Lx%02d", t.loops-1)
	switch arch {
	case "AArch64":
		r, s := t.newReg(), t.newReg()
		v := r
		if ev.Dir == 'W' {
			v = t.newReg()
			t.emit("MOV W%d,%s", v, val)
		}
		t.emit("%s:", label)
		t.emit("LDXR W%d,%s", r, a)
		t.emit("STXR W%d,W%d,%s", s, v, a)
		t.emit("CBNZ W%d,%s", s, label)
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
		t.emit("%s:", label)
		t.emit("lr.w %s,0(%s)", r, a)
		t.emit("sc.w %s,%s,0(%s)", s, v, a)
		t.emit("bne %s,x0,%s", s, label)
		if ev.Dir == 'W' {
			return ""
		}
		return r
	}
}
