package gen

import (
	"fmt"
	"io"
	"strings"
)

// thread is the code of one thread being written.
type thread struct {
	id    int
	lines []string
	next  int            // the next free register number
	addr  map[int]string // location -> register holding its address
	init  []string       // "0:r2=x"
	regOf map[int]string // event -> register its read returned into
	flags []string       // the success flags of its exclusive stores
	// consts maps the values set in the initial state (mixed-size
	// tests) to their register, which holds it for every later use.
	consts map[uint64]int
}

// dialect writes the accesses, fences and dependencies of one
// architecture.
type dialect interface {
	firstReg() int
	reg(n int) string       // a register of values
	addrReg(n int) string   // a register of addresses
	cond(reg string) string // a register as the condition names it
	hasAddrRegs() bool      // locations are reached through registers set in the init
	// access writes the access ev of location loc (its address in
	// register a, "" on X86), with dep the register of the read it
	// depends on by kind (Addr, Data), "" for none; it returns the
	// register a read returns into.
	access(t *thread, ev Event, loc, a, dep, kind string) string
	ctrl(t *thread, dep, kind string, label int)
	fence(t *thread, name string)
	// rmw writes the atomic read-modify-write whose read is r and
	// whose write is w (diy's Rmw edge), of location loc at address
	// register a; label numbers its loop, if any. It returns the
	// register the read returns into.
	rmw(t *thread, r, w Event, loc, a string, label int, amo string) string
}

func (t *thread) newReg() int {
	n := t.next
	t.next++
	return n
}

func (t *thread) emit(format string, args ...any) {
	t.lines = append(t.lines, fmt.Sprintf(format, args...))
}

// Write prints the test in the litmus dialect of its architecture, with
// the cycle in the header lines diy writes.
func (t *Test) Write(w io.Writer) error { return t.WriteNamed(w, t.Name()) }

// WriteNamed is Write with the test's name given (an enumeration numbers
// the repeated names).
func (t *Test) WriteNamed(w io.Writer, name string) error {
	switch t.Arch.Name {
	case "C":
		return t.writeC(w, name)
	case "LKMM":
		return t.writeLKMM(w, name)
	}
	d := dialectOf(t.Arch)
	threads := make([]*thread, len(t.Threads))
	label, loop := 0, 0
	var cond []string
	for _, l := range t.finalLocs() {
		if t.Mixed() {
			cond = append(cond, fmt.Sprintf("%s=0x%x", LocName(l), t.MFinal[l]))
			continue
		}
		cond = append(cond, fmt.Sprintf("%s=%d", LocName(l), t.Final[l]))
	}
	for id, evs := range t.Threads {
		th := &thread{id: id, next: d.firstReg(), addr: map[int]string{}, regOf: map[int]string{}}
		threads[id] = th
		for k, i := range evs {
			ev := t.Events[i]
			dep, kind := "", ""
			if k > 0 {
				in := t.Edges[i-1]
				switch in.Kind {
				case Rmw:
					continue // written with its read

				case Fence:
					d.fence(th, in.Fence)
				case Dep:
					dep = th.regOf[i-1]
					switch in.Dep {
					case "Addr", "Data":
						kind = in.Dep
					default:
						d.ctrl(th, dep, in.Dep, label)
						label++
						dep = ""
					}
				}
			}
			loc := LocName(ev.Loc)
			a := ""
			if d.hasAddrRegs() {
				var ok bool
				if a, ok = th.addr[ev.Loc]; !ok {
					a = d.addrReg(th.newReg())
					th.addr[ev.Loc] = a
					th.init = append(th.init, fmt.Sprintf("%d:%s=%s;", id, a, loc))
				}
			}
			if k+1 < len(evs) && t.Edges[i].Kind == Rmw {
				if dep != "" {
					return &ErrUnsupported{fmt.Sprintf("%s: a dependency into a read-modify-write", t.Edges[i-1].Name)}
				}
				th.regOf[i] = d.rmw(th, ev, t.Events[i+1], loc, a, loop, t.Edges[i].Amo)
				loop++
				continue
			}
			if t.Mixed() {
				if r := mixedAccess(th, ev, t.MVal[i], a, dep, kind); r != "" {
					th.regOf[i] = r
				}
				continue
			}
			if r := d.access(th, ev, loc, a, dep, kind); r != "" {
				th.regOf[i] = r
			}
		}
	}
	var typed []string // mixed sizes: the registers of the condition
	var typedLoc []int
	for _, i := range t.Observed() {
		ev := t.Events[i]
		th := threads[ev.Thread]
		if t.Mixed() {
			r := fmt.Sprintf("%d:X%s", ev.Thread, th.regOf[i][1:])
			typed, typedLoc = append(typed, r), append(typedLoc, ev.Loc)
			cond = append(cond, fmt.Sprintf("%s=0x%x", r, t.MVal[i]))
			continue
		}
		cond = append(cond, fmt.Sprintf("%d:%s=%d", ev.Thread, d.cond(th.regOf[i]), ev.Val))
	}
	for id, th := range threads {
		for _, f := range th.flags {
			cond = append(cond, fmt.Sprintf("%d:%s=0", id, d.cond(f)))
		}
	}
	for _, o := range t.Obs {
		// The observer loads, after every access of their thread.
		th := threads[o.Thread]
		loc := LocName(o.Loc)
		a := ""
		if d.hasAddrRegs() {
			var ok bool
			if a, ok = th.addr[o.Loc]; !ok {
				a = d.addrReg(th.newReg())
				th.addr[o.Loc] = a
				th.init = append(th.init, fmt.Sprintf("%d:%s=%s;", o.Thread, a, loc))
			}
		}
		if o.Fenced {
			d.fence(th, strongFence(t.Arch))
		}
		r := d.access(th, Event{Dir: 'R', Thread: o.Thread, Loc: o.Loc, Val: o.Val}, loc, a, "", "")
		cond = append(cond, fmt.Sprintf("%d:%s=%d", o.Thread, d.cond(r), o.Val))
	}
	for _, o := range t.ObsThreads {
		// The observer threads (-obs accept, force), after the cycle's.
		id := len(threads)
		th := &thread{id: id, next: d.firstReg(), addr: map[int]string{}, regOf: map[int]string{}}
		threads = append(threads, th)
		loc := LocName(o.Loc)
		a := ""
		if d.hasAddrRegs() {
			a = d.addrReg(th.newReg())
			th.init = append(th.init, fmt.Sprintf("%d:%s=%s;", id, a, loc))
		}
		for k, v := range o.Vals {
			if k > 0 && o.Fenced {
				d.fence(th, strongFence(t.Arch))
			}
			r := d.access(th, Event{Dir: 'R', Thread: id, Loc: o.Loc, Val: v}, loc, a, "", "")
			cond = append(cond, fmt.Sprintf("%d:%s=%d", id, d.cond(r), v))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", t.Arch.Name, name)
	fmt.Fprintf(&b, "\"%s\"\n", t.Cycle())
	fmt.Fprintf(&b, "Cycle=%s\n", t.Rotated())
	fmt.Fprintf(&b, "Generator=musket gen\n")
	fmt.Fprintf(&b, "Prefetch=%s\n", t.Prefetch())
	fmt.Fprintf(&b, "Com=%s\n", t.Com())
	fmt.Fprintf(&b, "Orig=%s\n", t.Cycle())
	b.WriteString("{\n")
	if t.Mixed() {
		b.WriteString(t.mixedTypes(typed, typedLoc) + "\n\n")
	}
	for _, th := range threads {
		if len(th.init) > 0 {
			b.WriteString(strings.Join(th.init, " ") + "\n")
		}
	}
	if !d.hasAddrRegs() {
		var inits []string
		for l := 0; l < t.Locs; l++ {
			inits = append(inits, LocName(l)+"=0;")
		}
		b.WriteString(strings.Join(inits, " ") + "\n")
	}
	b.WriteString("}\n")
	writeTable(&b, threads, d)
	b.WriteString("exists\n(" + strings.Join(cond, ` /\ `) + ")\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTable prints the threads side by side, herd's table.
func writeTable(b *strings.Builder, threads []*thread, d dialect) {
	rows := 0
	width := make([]int, len(threads))
	for i, th := range threads {
		width[i] = len(fmt.Sprintf("P%d", i))
		for _, l := range th.lines {
			width[i] = max(width[i], len(l))
		}
		rows = max(rows, len(th.lines))
	}
	row := func(cell func(i int) string) {
		for i := range threads {
			c := cell(i)
			if i > 0 {
				b.WriteString("|")
			}
			fmt.Fprintf(b, " %-*s ", width[i], c)
		}
		b.WriteString(";\n")
	}
	row(func(i int) string { return fmt.Sprintf("P%d", i) })
	for r := 0; r < rows; r++ {
		row(func(i int) string {
			if r < len(threads[i].lines) {
				return threads[i].lines[r]
			}
			return ""
		})
	}
}

func dialectOf(a *Arch) dialect {
	switch a.Name {
	case "X86":
		return x86{}
	case "PPC":
		return ppc{}
	case "AArch64":
		return aarch64{}
	case "ARM":
		return armv7{}
	}
	return riscv{}
}

// x86: MOV [x],$1 and MOV EAX,[x]; no dependencies.
type x86 struct{}

var x86Regs = []string{"EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "R8D", "R9D", "R10D", "R11D", "R12D", "R13D", "R14D", "R15D"}

func (x86) firstReg() int { return 0 }
func (x86) reg(n int) string {
	if n < len(x86Regs) {
		return x86Regs[n]
	}
	return fmt.Sprintf("R%dD", n)
}
func (x x86) addrReg(n int) string { return x.reg(n) }
func (x86) cond(r string) string   { return r }
func (x86) hasAddrRegs() bool      { return false }
func (x x86) access(t *thread, ev Event, loc, _, _, _ string) string {
	if ev.Dir == 'W' {
		t.emit("MOV [%s],$%d", loc, ev.Val)
		return ""
	}
	r := x.reg(t.newReg())
	t.emit("MOV %s,[%s]", r, loc)
	return r
}
func (x86) ctrl(*thread, string, string, int) {}
func (x86) fence(t *thread, name string)      { t.emit("MFENCE") }

// ppc: li/stw, lwz, lwzx/stwx for addresses that depend on a read.
type ppc struct{}

func (ppc) firstReg() int          { return 1 }
func (ppc) reg(n int) string       { return fmt.Sprintf("r%d", n) }
func (p ppc) addrReg(n int) string { return p.reg(n) }
func (ppc) cond(r string) string   { return r }
func (ppc) hasAddrRegs() bool      { return true }
func (p ppc) access(t *thread, ev Event, loc, a, dep, kind string) string {
	off := ""
	if kind == "Addr" {
		off = p.reg(t.newReg())
		t.emit("xor %s,%s,%s", off, dep, dep)
	}
	if ev.Dir == 'W' {
		v := p.reg(t.newReg())
		if kind == "Data" {
			t.emit("xor %s,%s,%s", v, dep, dep)
			t.emit("addi %s,%s,%d", v, v, ev.Val)
		} else {
			t.emit("li %s,%d", v, ev.Val)
		}
		if off != "" {
			t.emit("stwx %s,%s,%s", v, off, a)
		} else {
			t.emit("stw %s,0(%s)", v, a)
		}
		return ""
	}
	r := p.reg(t.newReg())
	if off != "" {
		t.emit("lwzx %s,%s,%s", r, off, a)
	} else {
		t.emit("lwz %s,0(%s)", r, a)
	}
	return r
}
func (ppc) ctrl(t *thread, dep, kind string, label int) {
	t.emit("cmpw %s,%s", dep, dep)
	t.emit("beq LC%02d", label)
	t.emit("LC%02d:", label)
	if kind == "CtrlIsync" {
		t.emit("isync")
	}
}
func (ppc) fence(t *thread, name string) { t.emit("%s", strings.ToLower(name)) }

// aarch64: MOV/STR, LDR, LDAR/LDAPR/STLR for annotated accesses.
type aarch64 struct{}

func (aarch64) firstReg() int        { return 0 }
func (aarch64) reg(n int) string     { return fmt.Sprintf("W%d", n) }
func (aarch64) addrReg(n int) string { return fmt.Sprintf("X%d", n) }
func (aarch64) cond(r string) string { return "X" + strings.TrimPrefix(r, "W") }
func (aarch64) hasAddrRegs() bool    { return true }
func (x aarch64) access(t *thread, ev Event, loc, a, dep, kind string) string {
	addr := "[" + a + "]"
	if kind == "Addr" {
		off := t.newReg()
		t.emit("EOR W%d,%s,%s", off, dep, dep)
		if ev.Ann == "" {
			addr = fmt.Sprintf("[%s,W%d,SXTW]", a, off)
		} else {
			// The acquire and release forms take no offset.
			b := t.newReg()
			t.emit("ADD X%d,%s,W%d,SXTW", b, a, off)
			addr = fmt.Sprintf("[X%d]", b)
		}
	}
	if isExclusive(ev.Ann) {
		if kind == "Data" {
			v := t.newReg()
			t.emit("EOR W%d,%s,%s", v, dep, dep)
			t.emit("ADD W%d,W%d,#%d", v, v, ev.Val)
			return exclusive(t, "AArch64", ev, addr, fmt.Sprintf("W%d", v))
		}
		return exclusive(t, "AArch64", ev, addr, fmt.Sprintf("#%d", ev.Val))
	}
	if ev.Dir == 'W' {
		v := x.reg(t.newReg())
		if kind == "Data" {
			t.emit("EOR %s,%s,%s", v, dep, dep)
			t.emit("ADD %s,%s,#%d", v, v, ev.Val)
		} else {
			t.emit("MOV %s,#%d", v, ev.Val)
		}
		op := a64Op(ev.Ann, true)
		t.emit("%s %s,%s", op, v, addr)
		return ""
	}
	n := t.newReg()
	op := a64Op(ev.Ann, false)
	t.emit("%s W%d,%s", op, n, addr)
	return fmt.Sprintf("W%d", n)
}
func (aarch64) ctrl(t *thread, dep, kind string, label int) {
	t.emit("CBNZ %s,LC%02d", dep, label)
	t.emit("LC%02d:", label)
	if kind == "CtrlIsb" {
		t.emit("ISB")
	}
}
func (aarch64) fence(t *thread, name string) {
	t.emit("%s", strings.Replace(name, ".", " ", 1))
}

// riscv: ori/sw, lw, lw.aq and sw.rl for annotated accesses.
type riscv struct{}

func (riscv) firstReg() int          { return 5 }
func (riscv) reg(n int) string       { return fmt.Sprintf("x%d", n) }
func (r riscv) addrReg(n int) string { return r.reg(n) }
func (riscv) cond(r string) string   { return r }
func (riscv) hasAddrRegs() bool      { return true }
func (x riscv) access(t *thread, ev Event, loc, a, dep, kind string) string {
	base := a
	var off string
	if kind == "Addr" {
		off = x.reg(t.newReg())
		t.emit("xor %s,%s,%s", off, dep, dep)
	}
	suffix := ""
	switch ev.Ann {
	case "Aq":
		suffix = ".aq"
	case "Rl":
		suffix = ".rl"
	}
	if ev.Dir == 'W' {
		v := x.reg(t.newReg())
		if kind == "Data" {
			t.emit("xor %s,%s,%s", v, dep, dep)
			t.emit("ori %s,%s,%d", v, v, ev.Val)
		} else {
			t.emit("ori %s,x0,%d", v, ev.Val)
		}
		if off != "" {
			base = x.reg(t.newReg())
			t.emit("add %s,%s,%s", base, a, off)
		}
		if isExclusive(ev.Ann) {
			return exclusive(t, "RISCV", ev, base, v)
		}
		if ev.Ann == "AR" {
			// diy's AR write: an AMO swap whose read no register keeps.
			t.emit("amoswap.w.aq.rl x0,%s,(%s)", v, base)
			return ""
		}
		t.emit("sw%s %s,0(%s)", suffix, v, base)
		return ""
	}
	if off != "" {
		base = x.reg(t.newReg())
		t.emit("add %s,%s,%s", base, a, off)
	}
	if isExclusive(ev.Ann) {
		return exclusive(t, "RISCV", ev, base, "")
	}
	r := x.reg(t.newReg())
	if ev.Ann == "AR" {
		// diy's AR read: an AMO or with zero, which writes back the
		// value it reads (so the location's final value is unchanged).
		t.emit("amoor.w.aq.rl %s,x0,(%s)", r, base)
		return r
	}
	t.emit("lw%s %s,0(%s)", suffix, r, base)
	return r
}
func (x riscv) ctrl(t *thread, dep, kind string, label int) {
	t.emit("bne %s,x0,LC%02d", dep, label)
	t.emit("LC%02d:", label)
	if kind == "CtrlFenceI" {
		t.emit("fence.i")
	}
}
func (riscv) fence(t *thread, name string) {
	switch name {
	case "Fence.tso":
		t.emit("fence.tso")
		return
	case "Fence.i":
		t.emit("fence.i")
		return
	}
	parts := strings.Split(name, ".") // Fence.rw.rw
	t.emit("fence %s,%s", parts[1], parts[2])
}

// armv7: MOV/STR, LDR; an address that depends on a read is
// [index,base] (diy's LDR3/STR3); a control dependency is CMP r,r; BNE to
// the next instruction, with ISB for CtrlIsb.
type armv7 struct{}

func (armv7) firstReg() int          { return 0 }
func (armv7) reg(n int) string       { return fmt.Sprintf("R%d", n) }
func (x armv7) addrReg(n int) string { return x.reg(n) }
func (armv7) cond(r string) string   { return r }
func (armv7) hasAddrRegs() bool      { return true }
func (x armv7) access(t *thread, ev Event, loc, a, dep, kind string) string {
	addr := "[" + a + "]"
	if kind == "Addr" {
		off := x.reg(t.newReg())
		t.emit("EOR %s,%s,%s", off, dep, dep)
		addr = fmt.Sprintf("[%s,%s]", off, a)
	}
	if ev.Dir == 'W' {
		v := x.reg(t.newReg())
		if kind == "Data" {
			t.emit("EOR %s,%s,%s", v, dep, dep)
			t.emit("ADD %s,%s,#%d", v, v, ev.Val)
		} else {
			t.emit("MOV %s,#%d", v, ev.Val)
		}
		t.emit("STR %s,%s", v, addr)
		return ""
	}
	r := x.reg(t.newReg())
	t.emit("LDR %s,%s", r, addr)
	return r
}
func (armv7) ctrl(t *thread, dep, kind string, label int) {
	t.emit("CMP %s,%s", dep, dep)
	t.emit("BNE LC%02d", label)
	t.emit("LC%02d:", label)
	if kind == "CtrlIsb" {
		t.emit("ISB")
	}
}
func (armv7) fence(t *thread, name string) {
	t.emit("%s", strings.Replace(name, ".", " ", 1))
}

// The read-modify-writes, as diy7 writes its Rmw edge by default: X86
// XCHG, RISC-V amoswap.w, Power and AArch64 a load-reserve /
// store-conditional pair retried until the store succeeds.

func (x x86) rmw(t *thread, _, w Event, loc, _ string, _ int, _ string) string {
	r := x.reg(t.newReg())
	t.emit("MOV %s,$%d", r, w.Val)
	t.emit("XCHG [%s],%s", loc, r)
	return r
}

func (p ppc) rmw(t *thread, _, w Event, _, a string, label int, _ string) string {
	r := p.reg(t.newReg())
	v := p.reg(t.newReg())
	t.emit("li %s,%d", v, w.Val)
	t.emit("Loop%02d:", label)
	t.emit("lwarx %s,r0,%s", r, a)
	t.emit("stwcx. %s,r0,%s", v, a)
	t.emit("bne Loop%02d", label)
	return r
}

func (aarch64) rmw(t *thread, r, w Event, _, a string, label int, amo string) string {
	if amo != "" {
		// SWP{A,L,AL} Ws,Wt,[Xn] (Wt the old value) and CAS{A,L,AL}
		// Ws,Wt,[Xn] (Ws the expected value, then the old one; Wt the
		// new), diy's Amo.Swp and Amo.Cas.
		sfx := ""
		if r.Ann == "A" {
			sfx += "A"
		}
		if w.Ann == "L" {
			sfx += "L"
		}
		op := strings.ToUpper(amo) + sfx
		switch amo {
		case "LdAdd", "LdEor", "StAdd", "StEor":
			// The operand makes the written value the write's: the
			// read returns the one before it in coherence.
			k := w.Val - r.Val
			if strings.HasSuffix(amo, "Eor") {
				k = w.Val ^ r.Val
			}
			v := t.newReg()
			t.emit("MOV W%d,#%d", v, k)
			if amo[0] == 'S' {
				t.emit("%s W%d,[%s]", op, v, a)
				return ""
			}
			rr := t.newReg()
			t.emit("%s W%d,W%d,[%s]", op, v, rr, a)
			return fmt.Sprintf("W%d", rr)
		case "Swp":
			rr := t.newReg()
			v := t.newReg()
			t.emit("MOV W%d,#%d", v, w.Val)
			t.emit("%s W%d,W%d,[%s]", op, v, rr, a)
			return fmt.Sprintf("W%d", rr)
		}
		rs := t.newReg()
		v := t.newReg()
		t.emit("MOV W%d,#%d", rs, r.Val)
		t.emit("MOV W%d,#%d", v, w.Val)
		t.emit("%s W%d,W%d,[%s]", op, rs, v, a)
		return fmt.Sprintf("W%d", rs)
	}
	rr := t.newReg()
	v := t.newReg()
	s := t.newReg()
	ld, st := "LDXR", "STXR"
	if r.Ann == "A" {
		ld = "LDAXR"
	}
	if w.Ann == "L" {
		st = "STLXR"
	}
	t.emit("MOV W%d,#%d", v, w.Val)
	t.emit("Loop%02d:", label)
	t.emit("%s W%d,[%s]", ld, rr, a)
	t.emit("%s W%d,W%d,[%s]", st, s, v, a)
	t.emit("CBNZ W%d,Loop%02d", s, label)
	return fmt.Sprintf("W%d", rr)
}

func (x riscv) rmw(t *thread, r, w Event, _, a string, _ int, _ string) string {
	rr := x.reg(t.newReg())
	v := x.reg(t.newReg())
	suffix := ""
	switch {
	case r.Ann == "Aq" && w.Ann == "Rl":
		suffix = ".aqrl"
	case r.Ann == "Aq":
		suffix = ".aq"
	case w.Ann == "Rl":
		suffix = ".rl"
	}
	t.emit("ori %s,x0,%d", v, w.Val)
	t.emit("amoswap.w%s %s,%s,(%s)", suffix, rr, v, a)
	return rr
}

// An ARMv7 Rmw is an LDREX/STREX pair retried until the store succeeds.
func (x armv7) rmw(t *thread, _, w Event, _, a string, label int, _ string) string {
	v := x.reg(t.newReg())
	r := x.reg(t.newReg())
	s := x.reg(t.newReg())
	t.emit("MOV %s,#%d", v, w.Val)
	t.emit("Loop%02d:", label)
	t.emit("LDREX %s,[%s]", r, a)
	t.emit("STREX %s,%s,[%s]", s, v, a)
	t.emit("CMP %s,#0", s)
	t.emit("BNE Loop%02d", label)
	return r
}

// a64Op is the AArch64 plain access of an event with annotation ann:
// STLR for a release write (L), LDAR for an acquire read (A), LDAPR for
// an acquire-PC read (Q), STR or LDR otherwise. The mixed-size writer
// adds the size suffix to the same opcode.
func a64Op(ann string, write bool) string {
	switch {
	case write && ann == "L":
		return "STLR"
	case write:
		return "STR"
	case ann == "A":
		return "LDAR"
	case ann == "Q":
		return "LDAPR"
	}
	return "LDR"
}
