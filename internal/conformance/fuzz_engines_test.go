package conformance

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
)

// genOp is one instruction of a generated thread: its text and the
// register it loads into ("" for none).
type genOp struct{ text, reg string }

// litmusGen writes random small litmus tests of one architecture.
type litmusGen struct {
	arch   string
	models []string // the built-in models the tests run under
	gen    func(r *rand.Rand, name string) string
}

var locs = []string{"x", "y", "z"}

// genX86 is a random x86 test: 2-4 threads, 2-6 accesses in all, MFENCE,
// XCHG (a locked read-modify-write).
func genX86(r *rand.Rand, name string) string {
	nth := 2 + r.Intn(3)
	naccess := 2 + r.Intn(5)
	threads := make([][]genOp, nth)
	nreg := make([]int, nth)
	var regs []string // "T:REG"
	for a := 0; a < naccess; a++ {
		t := a % nth
		if a >= nth {
			t = r.Intn(nth)
		}
		l := locs[r.Intn(2+r.Intn(2))]
		// One register per access of the thread: at most six accesses in
		// all, so the six general registers suffice.
		reg := []string{"EAX", "EBX", "ECX", "EDX", "ESI", "EDI"}[nreg[t]]
		nreg[t]++
		if r.Intn(5) == 0 {
			threads[t] = append(threads[t], genOp{text: "MFENCE"})
		}
		switch r.Intn(5) {
		case 0, 1:
			threads[t] = append(threads[t], genOp{text: fmt.Sprintf("MOV [%s],$%d", l, 1+r.Intn(2))})
		case 2, 3:
			threads[t] = append(threads[t], genOp{text: fmt.Sprintf("MOV %s,[%s]", reg, l), reg: reg})
			regs = append(regs, fmt.Sprintf("%d:%s", t, reg))
		default:
			threads[t] = append(threads[t], genOp{text: fmt.Sprintf("XCHG [%s],%s", l, reg), reg: reg})
			regs = append(regs, fmt.Sprintf("%d:%s", t, reg))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "X86 %s\n{ x=0; y=0; z=0;", name)
	for t, ops := range threads {
		for _, o := range ops {
			if strings.HasPrefix(o.text, "XCHG") {
				fmt.Fprintf(&b, " %d:%s=3;", t, o.reg)
			}
		}
	}
	b.WriteString(" }\n")
	writeTable(&b, threads)
	writeCond(&b, r, regs)
	return b.String()
}

// genAArch64 is a random AArch64 test: loads (plain or acquire), stores
// (plain or release), DMB barriers, data dependencies (a loaded value
// stored again) and exclusive pairs are left out.
func genAArch64(r *rand.Rand, name string) string {
	nth := 2 + r.Intn(3)
	naccess := 2 + r.Intn(5)
	threads := make([][]genOp, nth)
	nregs := make([]int, nth)
	var regs []string
	var lastLoad = make([]string, nth)
	for a := 0; a < naccess; a++ {
		t := a % nth
		if a >= nth {
			t = r.Intn(nth)
		}
		l := r.Intn(2 + r.Intn(2))
		if r.Intn(5) == 0 {
			threads[t] = append(threads[t], genOp{text: []string{"DMB ISH", "DMB ISHLD", "DMB ISHST"}[r.Intn(3)]})
		}
		switch r.Intn(6) {
		case 0, 1:
			v := fmt.Sprintf("W%d", 10+nregs[t])
			nregs[t]++
			threads[t] = append(threads[t], genOp{text: fmt.Sprintf("MOV %s,#%d", v, 1+r.Intn(2))})
			threads[t] = append(threads[t], genOp{text: fmt.Sprintf("%s %s,[X%d]", []string{"STR", "STLR"}[r.Intn(2)], v, l+1)})
		case 2:
			if lastLoad[t] != "" { // data dependency: store what was loaded, plus one
				v := fmt.Sprintf("W%d", 10+nregs[t])
				nregs[t]++
				threads[t] = append(threads[t], genOp{text: fmt.Sprintf("ADD %s,%s,#1", v, lastLoad[t])})
				threads[t] = append(threads[t], genOp{text: fmt.Sprintf("STR %s,[X%d]", v, l+1)})
				continue
			}
			fallthrough
		default:
			v := fmt.Sprintf("W%d", 20+nregs[t])
			nregs[t]++
			threads[t] = append(threads[t], genOp{text: fmt.Sprintf("%s %s,[X%d]", []string{"LDR", "LDAR"}[r.Intn(2)], v, l+1), reg: v})
			regs = append(regs, fmt.Sprintf("%d:X%s", t, v[1:]))
			lastLoad[t] = v
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "AArch64 %s\n{ x=0; y=0; z=0;", name)
	for t := range threads {
		fmt.Fprintf(&b, " %d:X1=x; %d:X2=y; %d:X3=z;", t, t, t)
	}
	b.WriteString(" }\n")
	writeTable(&b, threads)
	writeCond(&b, r, regs)
	return b.String()
}

// genRISCV is a random RISC-V test: lw/sw, fences, amoswap (with .aq/.rl),
// address dependencies (xor of a loaded value with itself added to an
// address).
func genRISCV(r *rand.Rand, name string) string {
	return genRISC(r, name, "RISCV", riscvDialect)
}

// genPPC is a random Power test: lwz/stw, sync, lwsync, isync, address
// dependencies.
func genPPC(r *rand.Rand, name string) string {
	return genRISC(r, name, "PPC", ppcDialect)
}

type riscDialect struct {
	reg             func(i int) string // register number i (i from 10)
	li, load, store func(d, v string, addr string) string
	fences          []string
	dep             func(dst, src, base, out string) []string // address dependency: out = base + (src xor src)
	rmw             func(k int, d, v, addr string) string     // nil when none; k picks the variant
	cond            func(t int, reg string) string
}

var riscvDialect = riscDialect{
	reg:    func(i int) string { return fmt.Sprintf("x%d", i) },
	li:     func(d, v, _ string) string { return fmt.Sprintf("ori %s,x0,%s", d, v) },
	load:   func(d, _ string, a string) string { return fmt.Sprintf("lw %s,0(%s)", d, a) },
	store:  func(_ string, v string, a string) string { return fmt.Sprintf("sw %s,0(%s)", v, a) },
	fences: []string{"fence rw,rw", "fence r,rw", "fence rw,w", "fence.tso"},
	dep: func(tmp, src, base, out string) []string {
		return []string{fmt.Sprintf("xor %s,%s,%s", tmp, src, src), fmt.Sprintf("add %s,%s,%s", out, base, tmp)}
	},
	rmw: func(k int, d, v, a string) string {
		return fmt.Sprintf("amoswap.w%s %s,%s,0(%s)", []string{"", ".aq", ".rl", ".aqrl"}[k%4], d, v, a)
	},
	cond: func(t int, reg string) string { return fmt.Sprintf("%d:%s", t, reg) },
}

var ppcDialect = riscDialect{
	reg:    func(i int) string { return fmt.Sprintf("r%d", i) },
	li:     func(d, v, _ string) string { return fmt.Sprintf("li %s,%s", d, v) },
	load:   func(d, _ string, a string) string { return fmt.Sprintf("lwz %s,0(%s)", d, a) },
	store:  func(_ string, v string, a string) string { return fmt.Sprintf("stw %s,0(%s)", v, a) },
	fences: []string{"sync", "lwsync", "isync", "eieio"},
	dep: func(tmp, src, base, out string) []string {
		return []string{fmt.Sprintf("xor %s,%s,%s", tmp, src, src), fmt.Sprintf("add %s,%s,%s", out, base, tmp)}
	},
	cond: func(t int, reg string) string { return fmt.Sprintf("%d:%s", t, reg) },
}

func genRISC(r *rand.Rand, name, arch string, d riscDialect) string {
	nth := 2 + r.Intn(3)
	naccess := 2 + r.Intn(5)
	threads := make([][]genOp, nth)
	next := make([]int, nth)
	lastLoad := make([]string, nth)
	var regs []string
	fresh := func(t int) string {
		next[t]++
		return d.reg(10 + next[t])
	}
	base := func(l int) string { return d.reg(1 + l) } // r1/x1.. hold x, y, z
	for a := 0; a < naccess; a++ {
		t := a % nth
		if a >= nth {
			t = r.Intn(nth)
		}
		l := r.Intn(2 + r.Intn(2))
		if r.Intn(5) == 0 {
			threads[t] = append(threads[t], genOp{text: d.fences[r.Intn(len(d.fences))]})
		}
		addr := base(l)
		if lastLoad[t] != "" && r.Intn(3) == 0 {
			tmp, out := fresh(t), fresh(t)
			for _, in := range d.dep(tmp, lastLoad[t], addr, out) {
				threads[t] = append(threads[t], genOp{text: in})
			}
			addr = out
		}
		switch k := r.Intn(6); {
		case k < 2:
			v := fresh(t)
			threads[t] = append(threads[t], genOp{text: d.li(v, strconv.Itoa(1+r.Intn(2)), "")})
			threads[t] = append(threads[t], genOp{text: d.store("", v, addr)})
		case k == 2 && d.rmw != nil:
			v, dst := fresh(t), fresh(t)
			threads[t] = append(threads[t], genOp{text: d.li(v, strconv.Itoa(1+r.Intn(2)), "")})
			threads[t] = append(threads[t], genOp{text: d.rmw(r.Intn(4), dst, v, addr)})
			regs = append(regs, d.cond(t, dst))
			lastLoad[t] = dst
		default:
			dst := fresh(t)
			threads[t] = append(threads[t], genOp{text: d.load(dst, "", addr), reg: dst})
			regs = append(regs, d.cond(t, dst))
			lastLoad[t] = dst
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n{ x=0; y=0; z=0;", arch, name)
	for t := range threads {
		fmt.Fprintf(&b, " %d:%s=x; %d:%s=y; %d:%s=z;", t, base(0), t, base(1), t, base(2))
	}
	b.WriteString(" }\n")
	writeTable(&b, threads)
	writeCond(&b, r, regs)
	return b.String()
}

func writeTable(b *strings.Builder, threads [][]genOp) {
	rows := 0
	for _, ops := range threads {
		rows = max(rows, len(ops))
	}
	for t := range threads {
		if t > 0 {
			b.WriteString(" |")
		}
		fmt.Fprintf(b, " P%d", t)
	}
	b.WriteString(" ;\n")
	for i := 0; i < rows; i++ {
		for t, ops := range threads {
			if t > 0 {
				b.WriteString(" |")
			}
			if i < len(ops) {
				b.WriteString(" " + ops[i].text)
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(" ;\n")
	}
}

// writeCond writes an exists clause over some loaded registers and final
// memory values.
func writeCond(b *strings.Builder, r *rand.Rand, regs []string) {
	var atoms []string
	for _, reg := range regs {
		if r.Intn(3) > 0 {
			atoms = append(atoms, fmt.Sprintf("%s=%d", reg, r.Intn(3)))
		}
	}
	if len(atoms) == 0 || r.Intn(4) == 0 {
		atoms = append(atoms, fmt.Sprintf("%s=%d", locs[r.Intn(2)], r.Intn(3)))
	}
	fmt.Fprintf(b, "exists (%s)\n", strings.Join(atoms, " /\\ "))
}

// TestEngineFuzz generates random small litmus tests for each
// architecture and checks them under both engines with every built-in
// model of that architecture: any difference (verdict, final states,
// flags) fails. One test per architecture and model by default (each
// check runs both engines: seconds on a loaded machine); MUSKET_FUZZ_N per
// architecture and model with MUSKET_LONG (default 200), and
// MUSKET_FUZZ_SEED to replay a run (MUSKET_FUZZ_KEEP=DIR keeps the tests).
func TestEngineFuzz(t *testing.T) {
	n := 1
	if os.Getenv("MUSKET_LONG") != "" {
		n = 200
		if v, err := strconv.Atoi(os.Getenv("MUSKET_FUZZ_N")); err == nil && v > 0 {
			n = v
		}
	}
	seed := time.Now().UnixNano()
	if v, err := strconv.ParseInt(os.Getenv("MUSKET_FUZZ_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("seed %d (MUSKET_FUZZ_SEED replays it)", seed)
	r := rand.New(rand.NewSource(seed))
	gens := []litmusGen{
		{"X86", []string{"sc", "tso"}, genX86},
		{"AArch64", []string{"sc", "aarch64"}, genAArch64},
		{"RISCV", []string{"sc", "riscv"}, genRISCV},
		{"PPC", []string{"sc", "power"}, genPPC},
	}
	dir := t.TempDir()
	if keep := os.Getenv("MUSKET_FUZZ_KEEP"); keep != "" {
		dir = keep // the generated tests stay there
	}
	for _, g := range gens {
		for _, model := range g.models {
			var files []string
			for i := 0; i < n; i++ {
				name := fmt.Sprintf("%s-%s-%d", g.arch, model, i)
				p := filepath.Join(dir, name+".litmus")
				if err := os.WriteFile(p, []byte(g.gen(r, name)), 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, p)
			}
			opts := batch.Options{Model: model, Engine: "both", Jobs: 2, Timeout: time.Minute}
			batch.Run(context.Background(), files, opts, func(j batch.Job) {
				src, _ := os.ReadFile(j.Path)
				switch {
				case j.Err != nil:
					t.Errorf("%s under %s: %v\n%s", filepath.Base(j.Path), model, j.Err, src)
				case j.Disagreement != nil:
					t.Errorf("%s under %s: the engines disagree: %v\n%s", filepath.Base(j.Path), model, j.Disagreement, src)
				case j.Result != nil && j.Result.Status.String() != "done":
					t.Errorf("%s under %s: %s %v\n%s", filepath.Base(j.Path), model, j.Result.Status, j.Result.Err, src)
				}
			})
		}
	}
}
