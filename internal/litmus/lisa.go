package litmus

import (
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// The LISA front-end reads herd7's generic LISA language (header word
// LISA), the language of the Linux-kernel tests of herdtools7's
// catalogue/linux-lisa. A cell holds [label:] and at most one of
//
//	r[a,..] reg addr         read the location at addr into reg
//	w[a,..] addr v           write v (a register or an integer) to addr
//	f[a,..]                  a fence
//	rmw[a,..] reg op addr    atomic read-modify-write (see below)
//	mov reg op               reg := op, no event
//	b[a,..] reg L            jump to L when reg is not 0
//	b[a,..] L                jump to L
//
// where addr is a register or a location name, optionally "+ k" (a
// register or an integer), and op a value (register, location name: its
// address, or integer) or "(f x y)" with f one of add, xor, and, eq, neq
// (eq and neq give 1 or 0). The annotation list [a,..] may be empty or
// missing. Registers are r0, r1, ...
//
// Semantics are herd7's for LISA: a read and a write make one event each,
// carrying the annotations; the address, data and control dependencies
// are those of the registers, as for the assembly front-ends (a branch
// covers everything after it). rmw reads the location into reg and writes
// op, the read and the write related by rmw; when reg occurs in op, it
// stands there for the value read (rmw[mb] r1 (add r1 1) x is an atomic
// increment returning the old value), otherwise op is computed from the
// registers before the instruction (rmw r1 r2 x is an exchange).
//
// Annotations become the tags the Linux-kernel memory model
// (linux-kernel.bell) reads, through the kernel's own correspondence
// (linux-kernel.def) of the primitive each annotation stood for: once
// (READ_ONCE, WRITE_ONCE) is ONCE, acquire ACQUIRE, release RELEASE, mb
// MB (smp_mb, and the fully ordered RMWs), rmb and wmb are Rmb and Wmb,
// deref and lderef (rcu_dereference, lockless_dereference) are ONCE, assign
// (rcu_assign_pointer) is RELEASE, rcu_read_lock, rcu_read_unlock and sync
// (synchronize_rcu) are Rcu-lock, Rcu-unlock and Sync-rcu (lock and unlock,
// the catalogue's older RCU read-side names, too), noreturn is
// NORETURN; the kernel's current fence names (rcu-lock, sync-rcu,
// before-atomic, barrier...) are accepted as written. An access without
// annotation is a plain access. ctrl (the catalogue's older models' mark
// of a read heading a control dependency, a READ_ONCE) is ONCE; rb_dep
// (smp_read_barrier_depends, which the kernel's model no longer has:
// READ_ONCE implies it) keeps herd's set name Rb_dep, which
// linux-kernel.cat does not read. The read and the write of
// an rmw also carry RMW and X, as the C front-end's kernel RMWs do. Any
// other annotation, fence label sets (f[..] {..} {..}), call and herd's
// meta-variables are refused by name.

func init() { Register("LISA", lisaFrontend{}) }

// lisaAnnots maps the annotations of LISA to the kernel model's tags.
var lisaAnnots = map[string]string{
	"once": "ONCE", "acquire": "ACQUIRE", "release": "RELEASE", "mb": "MB", "noreturn": "NORETURN",
	"rmb": "Rmb", "wmb": "Wmb", "deref": "ONCE", "lderef": "ONCE", "assign": "RELEASE",
	"rcu_read_lock": "Rcu-lock", "rcu_read_unlock": "Rcu-unlock", "sync": "Sync-rcu",
	"rcu-lock": "Rcu-lock", "rcu-unlock": "Rcu-unlock", "sync-rcu": "Sync-rcu",
	"before-atomic": "Before-atomic", "after-atomic": "After-atomic", "after-spinlock": "After-spinlock",
	"after-unlock-lock": "After-unlock-lock", "barrier": "Barrier",
	"before_atomic": "Before-atomic", "after_atomic": "After-atomic", "after_spinlock": "After-spinlock",
	"lock": "Rcu-lock", "unlock": "Rcu-unlock",
	"rb_dep": "Rb_dep", "ctrl": "ONCE",
}

type lisaFrontend struct{}

func (lisaFrontend) Arch() string { return "LISA" }

func (lisaFrontend) Tags() []string {
	set := map[string]bool{TagRMW: true, TagX: true}
	for _, list := range [][]string{cKernelTags, cLockTags} {
		for _, t := range list { // bound even if no annotation makes them
			set[t] = true
		}
	}
	for _, t := range lisaAnnots {
		set[t] = true
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// RegName accepts r followed by digits.
func (lisaFrontend) RegName(name string) (string, bool) {
	if len(name) < 2 || name[0] != 'r' {
		return "", false
	}
	for i := 1; i < len(name); i++ {
		if !isDigit(name[i]) {
			return "", false
		}
	}
	return name, true
}

func (lisaFrontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	l := &lisaThread{asmThread: newAsmThread(id, false)}
	for _, c := range cells {
		l.cell(c)
	}
	checkLabels(l.t, &l.errs, "branch")
	return l.t, l.errs.Err()
}

type lisaThread struct {
	asmThread
}

// cell translates one cell: [label:]... [instruction].
func (l *lisaThread) cell(c Cell) {
	l.pos = c.Pos
	toks, ok := l.lexCell(c, lisaLexer)
	if !ok {
		return
	}
	for len(toks) >= 2 && toks[0].kind == 'w' && toks[1].kind == 'o' && toks[1].text == ":" {
		l.emit(prog.Label{Name: toks[0].text})
		toks = toks[2:]
	}
	if len(toks) == 0 {
		return
	}
	p := &lisaCursor{cellCursor: cellCursor{a: &l.asmThread, arch: "LISA", c: c, toks: toks}, l: l}
	var ins []prog.Instr
	t := p.peek(0)
	if t.kind != 'w' {
		l.errorf(at(c.Pos, t.off), "unknown LISA instruction %q", c.Text)
		return
	}
	switch strings.ToLower(t.text) {
	case "r":
		p.i++
		tags := p.annots()
		d := p.reg()
		a := p.addr()
		ins = []prog.Instr{prog.Load{Dst: d, Addr: a, Tags: tags}}
	case "w":
		p.i++
		tags := p.annots()
		a := p.addr()
		v := p.regOrInt()
		ins = []prog.Instr{prog.Store{Addr: a, Val: v, Tags: tags}}
	case "f":
		p.i++
		tags := p.annots()
		if p.is("{") {
			l.errorf(at(c.Pos, p.peek(0).off), "unsupported LISA fence with label sets (herd7's scoped fences)")
			return
		}
		ins = []prog.Instr{prog.Fence{Tags: tags}}
	case "rmw":
		p.i++
		tags := append(p.annots(), TagRMW, TagX)
		d := p.reg()
		op := p.operation()
		a := p.addr()
		if mentions(op, d) {
			op = substOld(op, d)
		}
		ins = []prog.Instr{prog.RMW{Dst: d, Addr: a, New: op, RTags: tags, WTags: tags}}
	case "mov":
		p.i++
		d := p.reg()
		ins = []prog.Instr{prog.Assign{Dst: d, Val: p.operation()}}
	case "b":
		p.i++
		p.annots() // herd7 ignores a branch's annotations
		var cond prog.Expr
		if p.isReg() {
			cond = reg(p.reg())
		}
		lb := p.peek(0)
		if lb.kind != 'w' {
			p.fail("a label")
			break
		}
		p.i++
		ins = []prog.Instr{prog.Jump{Cond: cond, Target: lb.text}}
	case "call":
		l.errorf(at(c.Pos, t.off), "unsupported LISA instruction call (obsolete in herd7)")
		return
	default:
		l.errorf(at(c.Pos, t.off), "unknown LISA instruction %q", c.Text)
		return
	}
	if p.end() {
		l.emit(ins...)
	}
}

// mentions tells whether register r occurs in e.
func mentions(e prog.Expr, r string) bool {
	switch x := e.(type) {
	case prog.Reg:
		return x.Name == r
	case prog.Bin:
		return mentions(x.X, r) || mentions(x.Y, r)
	}
	return false
}

// substOld replaces register r by the value read (prog.Old) in e.
func substOld(e prog.Expr, r string) prog.Expr {
	switch x := e.(type) {
	case prog.Reg:
		if x.Name == r {
			return prog.Old{}
		}
	case prog.Bin:
		return prog.Bin{Op: x.Op, X: substOld(x.X, r), Y: substOld(x.Y, r)}
	}
	return e
}
