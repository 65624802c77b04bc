package cfront

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Random C programs checked against their native runs: plain C semantics
// (integer widths and conversions, signed and unsigned arithmetic,
// shifts, division, unions and byte access that mix sizes, memcpy,
// struct layout, arrays, constant loops, thread-local variables, atomic
// read-modify-writes of every width) through the whole pipeline (clang,
// the lowering, the engines). Each program is deterministic; the native
// run (clang -O1 with UBSan, which refuses a program with undefined
// behaviour) prints the final value of every variable, and the checked
// program asserts those values: Musket must say Safe, under the model or
// target drawn for the program. Any other verdict is a wrong verdict on
// plain C. MUSKET_RANDC=N runs N programs (a few by default),
// MUSKET_RANDC_SEED the first seed.

// rcType is a C integer type of the generator.
type rcType struct {
	name   string
	bits   int
	signed bool
}

var rcTypes = []rcType{
	{"int8_t", 8, true}, {"uint8_t", 8, false}, {"int16_t", 16, true}, {"uint16_t", 16, false},
	{"int32_t", 32, true}, {"uint32_t", 32, false}, {"int64_t", 64, true}, {"uint64_t", 64, false},
}

func (t rcType) unsigned() string { return fmt.Sprintf("uint%d_t", t.bits) }

// rcVar is a scalar lvalue of the program and its type.
type rcVar struct {
	expr string
	typ  rcType
	obj  string // the object it lies in, for byte access ("" for none)
}

// rcGen writes one random program.
type rcGen struct {
	r       *rand.Rand
	b       strings.Builder
	vars    []rcVar // the lvalues statements may write and read
	objects []rcVar // whole objects (address taken for byte access and memcpy)
	threads bool
	arrType rcType // the elements of arr
	mixed   bool   // unions, byte access and memcpy: accesses of several sizes to one object
	indent  string
}

func (g *rcGen) ty() rcType { return rcTypes[g.r.Intn(len(rcTypes))] }

func (g *rcGen) constant(t rcType) string {
	var v uint64
	switch g.r.Intn(4) {
	case 0:
		v = uint64(g.r.Intn(8))
	case 1:
		v = ^uint64(0) - uint64(g.r.Intn(4)) // -1, -2, ...
	case 2:
		v = uint64(1) << uint(g.r.Intn(t.bits))
	default:
		v = g.r.Uint64()
	}
	if t.bits < 64 {
		v &= 1<<uint(t.bits) - 1
	}
	if t.signed {
		// a negative value of the type, written as a conversion
		return fmt.Sprintf("(%s)%dull", t.name, v)
	}
	return fmt.Sprintf("(%s)%dull", t.name, v)
}

// expr is an expression without undefined behaviour (no signed overflow,
// no shift by the width or more, no division by zero or of the minimum
// by -1), of some type after the usual conversions.
func (g *rcGen) expr(depth int) string {
	if depth <= 0 || g.r.Intn(3) == 0 {
		if g.r.Intn(3) > 0 && len(g.vars) > 0 {
			return g.vars[g.r.Intn(len(g.vars))].expr
		}
		return g.constant(g.ty())
	}
	a, b := g.expr(depth-1), g.expr(depth-1)
	t := g.ty()
	switch g.r.Intn(17) {
	case 0:
		return fmt.Sprintf("(%s & %s)", a, b)
	case 1:
		return fmt.Sprintf("(%s | %s)", a, b)
	case 2:
		return fmt.Sprintf("(%s ^ %s)", a, b)
	case 3:
		return fmt.Sprintf("(~(%s)(%s))", t.name, a)
	case 4:
		u := t.unsigned()
		return fmt.Sprintf("((%s)(%s) + (%s)(%s))", u, a, u, b)
	case 5:
		u := t.unsigned()
		return fmt.Sprintf("((%s)(%s) - (%s)(%s))", u, a, u, b)
	case 6:
		u := t.unsigned()
		if t.bits < 32 {
			u = "uint32_t"
		}
		return fmt.Sprintf("((%s)(%s) * (%s)(%s))", u, a, u, b)
	case 7:
		w := max(t.bits, 32)
		return fmt.Sprintf("((uint%d_t)(%s) << ((%s) & %d))", w, a, b, w-1)
	case 8:
		w := max(t.bits, 32)
		// right shift of a signed value: arithmetic, as clang does
		return fmt.Sprintf("((%s)(%s) >> ((%s) & %d))", map[bool]string{true: fmt.Sprintf("int%d_t", w), false: fmt.Sprintf("uint%d_t", w)}[t.signed], a, b, w-1)
	case 9:
		return fmt.Sprintf("((%s)(%s) / (%s)(((%s) & 0x7f) | 1))", t.name, a, t.name, b)
	case 10:
		return fmt.Sprintf("((%s)(%s) %% (%s)(((%s) & 0x7f) | 1))", t.name, a, t.name, b)
	case 11:
		ops := []string{"<", "<=", "==", "!=", ">", ">="}
		return fmt.Sprintf("(%s %s %s)", a, ops[g.r.Intn(len(ops))], b)
	case 12:
		return fmt.Sprintf("((%s) ? %s : %s)", a, b, g.expr(depth-1))
	case 14:
		// bit intrinsics (ctz and clz of a value made non-zero)
		switch g.r.Intn(4) {
		case 0:
			return fmt.Sprintf("((uint32_t)__builtin_popcountll((uint64_t)(%s)))", a)
		case 1:
			return fmt.Sprintf("((uint32_t)__builtin_ctzll((uint64_t)(%s) | 0x8000000000000000ull))", a)
		case 2:
			return fmt.Sprintf("((uint32_t)__builtin_clzll((uint64_t)(%s) | 1ull))", a)
		default:
			return fmt.Sprintf("((uint32_t)__builtin_parityll((uint64_t)(%s)))", a)
		}
	case 15:
		w := []int{16, 32, 64}[g.r.Intn(3)]
		return fmt.Sprintf("(__builtin_bswap%d((uint%d_t)(%s)))", w, w, a)
	case 16:
		// a value read through a pointer into arr at a constant offset,
		// or the distance of two such pointers
		i, j := g.r.Intn(4), g.r.Intn(5)
		if g.r.Intn(2) == 0 {
			return fmt.Sprintf("(*(&arr[%d] + %d))", i, min(j, 3-i))
		}
		return fmt.Sprintf("((int64_t)(&arr[%d] - &arr[%d]))", j, i)
	}
	return fmt.Sprintf("((%s)(%s))", t.name, a)
}

func (g *rcGen) line(format string, args ...any) {
	g.b.WriteString(g.indent + fmt.Sprintf(format, args...) + "\n")
}

// stmt writes a random statement over vars and objects.
func (g *rcGen) stmt(depth int) {
	v := g.vars[g.r.Intn(len(g.vars))]
	switch k := g.r.Intn(13); {
	case k < 4:
		g.line("%s = (%s)(%s);", v.expr, v.typ.name, g.expr(3))
	case k == 4 && !v.typ.signed:
		ops := []string{"+=", "-=", "*=", "^=", "|=", "&="}
		g.line("%s %s (%s)(%s);", v.expr, ops[g.r.Intn(len(ops))], v.typ.name, g.expr(2))
	case k == 5 && g.mixed:
		// a byte of an object written through a uint8_t pointer
		o := g.objects[g.r.Intn(len(g.objects))]
		g.line("((uint8_t *)&%s)[%d %% sizeof %s] = (uint8_t)(%s);", o.expr, g.r.Intn(8), o.expr, g.expr(2))
	case k == 6 && g.mixed && len(g.objects) > 1:
		// memcpy between two objects, as many bytes as the smaller has
		a, b := g.objects[g.r.Intn(len(g.objects))], g.objects[g.r.Intn(len(g.objects))]
		if a.expr != b.expr {
			off := g.r.Intn(2)
			g.line("memcpy((char *)&%s + %d, &%s, (sizeof %s < sizeof %s ? sizeof %s : sizeof %s) - %d);", a.expr, off, b.expr, a.expr, b.expr, a.expr, b.expr, off)
		}
	case k == 7 && depth > 0:
		g.line("if (%s) {", g.expr(2))
		g.block(depth-1, 1+g.r.Intn(2))
		g.line("} else {")
		g.block(depth-1, 1+g.r.Intn(2))
		g.line("}")
	case k == 10 && g.mixed:
		// memset of an object from some byte on
		o := g.objects[g.r.Intn(len(g.objects))]
		off := g.r.Intn(2)
		g.line("memset((char *)&%s + %d, (int)(%s), sizeof %s - %d);", o.expr, off, g.expr(1), o.expr, off)
	case k == 11:
		// a loop over arr by a pointer (ordering comparison of pointers)
		d := g.r.Intn(3)
		g.line("for (%s *p%d = &arr[%d]; p%d < &arr[4]; p%d++) {", g.arrType.name, depth, d, depth, depth)
		g.line("\t*p%d = (%s)(*p%d ^ (%s)(%s));", depth, g.arrType.name, depth, g.arrType.name, g.expr(1))
		g.line("}")
	case k == 12 && depth > 0:
		// a loop whose trip count is read (0 to 3 times), with its bound
		g.line("__VERIFIER_loop_bound(5);")
		g.line("for (int j%d = 0; j%d < (int)((%s) & 3); j%d++) {", depth, depth, g.expr(1), depth)
		g.block(depth-1, 1+g.r.Intn(2))
		g.line("}")
	case k == 8 && depth > 0:
		n := 1 + g.r.Intn(3)
		g.line("for (int i%d = 0; i%d < %d; i%d++) {", depth, depth, n, depth)
		g.block(depth-1, 1+g.r.Intn(2))
		g.line("}")
	default:
		g.line("%s = (%s)(%s);", v.expr, v.typ.name, g.expr(2))
	}
}

func (g *rcGen) block(depth, n int) {
	saved := g.indent
	g.indent += "\t"
	for range n {
		g.stmt(depth)
	}
	g.indent = saved
}

// rcProgram is a generated program: its source, written for a native run
// (printing every variable) or for the check (asserting each).
type rcProgram struct {
	decls, body string
	final       []string // the expressions printed, then asserted
}

// genRandomC writes the program of seed with about size statements in
// main; mixed programs have accesses of several sizes to one object.
func genRandomC(seed int64, size int, mixed bool) rcProgram {
	g := &rcGen{r: rand.New(rand.NewSource(seed)), mixed: mixed}
	var d strings.Builder
	// Defined for the native run, weak so that clang keeps the call
	// Musket reads.
	d.WriteString("__attribute__((weak)) void __VERIFIER_loop_bound(int n) { (void)n; }\n")
	d.WriteString("union rcu { uint64_t q; uint32_t d[2]; uint16_t w[4]; uint8_t b[8]; int8_t sb[8]; };\n")
	d.WriteString("struct rcs { int8_t a; int16_t b; uint8_t c[3]; int32_t d; int64_t e; uint16_t f; };\n")
	var final []string
	for i := range 4 + g.r.Intn(3) {
		t := g.ty()
		name := fmt.Sprintf("g%d", i)
		fmt.Fprintf(&d, "static %s %s = %s;\n", t.name, name, g.constant(t))
		g.vars = append(g.vars, rcVar{name, t, name})
		g.objects = append(g.objects, rcVar{name, t, name})
		final = append(final, name)
	}
	d.WriteString("static union rcu u;\nstatic struct rcs s;\n")
	at := g.ty()
	g.arrType = at
	fmt.Fprintf(&d, "static %s arr[4];\n", at.name)
	g.objects = append(g.objects, rcVar{expr: "u"}, rcVar{expr: "s"}, rcVar{expr: "arr"})
	members := []struct {
		e string
		t string
	}{{"s.a", "int8_t"}, {"s.b", "int16_t"}, {"s.c[1]", "uint8_t"}, {"s.d", "int32_t"}, {"s.e", "int64_t"}, {"s.f", "uint16_t"}}
	if mixed {
		members = append(members, []struct {
			e string
			t string
		}{{"u.q", "uint64_t"}, {"u.d[1]", "uint32_t"}, {"u.w[2]", "uint16_t"}, {"u.b[5]", "uint8_t"}, {"u.sb[3]", "int8_t"}}...)
	}
	for _, m := range members {
		for _, t := range rcTypes {
			if t.name == m.t {
				g.vars = append(g.vars, rcVar{m.e, t, ""})
			}
		}
	}
	for i := range 4 {
		g.vars = append(g.vars, rcVar{fmt.Sprintf("arr[%d]", i), at, ""})
	}
	final = append(final, "u.q", "s.a", "s.b", "s.c[0]", "s.c[1]", "s.c[2]", "s.d", "s.e", "s.f", "arr[0]", "arr[1]", "arr[2]", "arr[3]")
	g.threads = g.r.Intn(2) == 0
	var body strings.Builder
	if g.threads {
		// Two threads, each on a thread-local variable and an object of
		// its own, adding to shared atomics of every width: the result
		// does not depend on the interleaving.
		d.WriteString("static __thread uint32_t tl = 7;\nstatic uint64_t own[2];\n")
		d.WriteString("static _Atomic uint8_t a8; static _Atomic uint16_t a16; static _Atomic uint32_t a32; static _Atomic uint64_t a64;\n")
		d.WriteString("static void *worker(void *arg) {\n\tint id = (int)(intptr_t)arg;\n")
		for range 2 + g.r.Intn(3) {
			fmt.Fprintf(&d, "\ttl = tl * 3u + (uint32_t)id;\n")
		}
		ops := []string{"atomic_fetch_add", "atomic_fetch_sub", "atomic_fetch_or", "atomic_fetch_xor", "atomic_fetch_and"}
		for _, a := range []string{"a8", "a16", "a32", "a64"} {
			// and/or/xor of the same constant by both threads commute too
			op := ops[g.r.Intn(len(ops))]
			fmt.Fprintf(&d, "\t%s(&%s, %dull);\n", op, a, g.r.Uint64()>>uint(g.r.Intn(64)))
		}
		d.WriteString("\town[id] = tl + (uint64_t)id * 1000u;\n\treturn 0;\n}\n")
		final = append(final, "tl", "own[0]", "own[1]", "a8", "a16", "a32", "a64")
		body.WriteString("\tpthread_t t0, t1;\n\tpthread_create(&t0, 0, worker, (void *)0);\n\tpthread_create(&t1, 0, worker, (void *)1);\n")
	}
	g.indent = "\t"
	for range size/2 + g.r.Intn(size/2+1) {
		g.stmt(2)
	}
	body.WriteString(g.b.String())
	if g.threads {
		body.WriteString("\tpthread_join(t0, 0);\n\tpthread_join(t1, 0);\n")
	}
	return rcProgram{decls: d.String(), body: body.String(), final: final}
}

const rcHeader = "#include <assert.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n#include <pthread.h>\n#include <stdatomic.h>\n\n"

func (p rcProgram) native() string {
	var b strings.Builder
	b.WriteString(rcHeader + p.decls + "\nint main(void) {\n" + p.body)
	for _, f := range p.final {
		fmt.Fprintf(&b, "\tprintf(\"%%llu\\n\", (unsigned long long)(%s));\n", f)
	}
	b.WriteString("\treturn 0;\n}\n")
	return b.String()
}

func (p rcProgram) checked(vals []string) (string, int) {
	var b strings.Builder
	b.WriteString(rcHeader + p.decls + "\nint main(void) {\n" + p.body)
	first := strings.Count(b.String(), "\n") + 1
	for i, f := range p.final {
		fmt.Fprintf(&b, "\tassert((unsigned long long)(%s) == %sull);\n", f, vals[i])
	}
	b.WriteString("\treturn 0;\n}\n")
	return b.String(), first
}

func TestRandomC(t *testing.T) {
	needClang(t)
	// The default run: one small program without mixed sizes, under the
	// graph engine; MUSKET_RANDC=N (or MUSKET_LONG=1: 40) programs of
	// about 16 statements, under both engines.
	n, size, seed, quick := 1, 6, int64(2), true
	if s := os.Getenv("MUSKET_RANDC"); s != "" {
		n, _ = strconv.Atoi(s)
		size, seed, quick = 16, 1, false
	} else if os.Getenv("MUSKET_LONG") == "1" {
		n, size, seed, quick = 40, 16, 1, false
	}
	if s := os.Getenv("MUSKET_RANDC_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	if s := os.Getenv("MUSKET_RANDC_SIZE"); s != "" {
		size, _ = strconv.Atoi(s)
	}
	limit := time.Minute
	if s := os.Getenv("MUSKET_RANDC_TIMEOUT"); s != "" {
		if d, err := time.ParseDuration(s); err == nil {
			limit = d
		}
	}
	dir := t.TempDir()
	if keep := os.Getenv("MUSKET_RANDC_KEEP"); keep != "" {
		dir = keep
	}
	for i := range n {
		s := seed + int64(i)
		t.Run(fmt.Sprint("seed", s), func(t *testing.T) {
			// Odd seeds mix access sizes (which only the SMT engine
			// decides); even ones do not, and both engines check them.
			mixed := s%2 == 1
			engines := []string{"smt"}
			if !mixed {
				engines = []string{"graph", "smt"}
			}
			if quick {
				engines = []string{"graph"}
			}
			if e := os.Getenv("MUSKET_RANDC_ENGINES"); e != "" {
				engines = strings.Split(e, ",")
			}
			p := genRandomC(s, size, mixed)
			src := filepath.Join(dir, fmt.Sprintf("rand%d_native.c", s))
			os.WriteFile(src, []byte(p.native()), 0o644)
			bin := filepath.Join(dir, fmt.Sprintf("rand%d", s))
			if out, err := exec.Command(Clang, "-O1", "-pthread", "-w", "-fsanitize=undefined", "-fno-sanitize-recover=all", "-o", bin, src).CombinedOutput(); err != nil {
				t.Fatalf("native compile: %v\n%s", err, out)
			}
			out, err := exec.Command(bin).Output()
			if err != nil {
				t.Skipf("the native run stops (undefined behaviour the generator let through): %v", err)
			}
			vals := strings.Fields(string(out))
			if len(vals) != len(p.final) {
				t.Fatalf("native run printed %d values, want %d", len(vals), len(p.final))
			}
			csrc, first := p.checked(vals)
			file := filepath.Join(dir, fmt.Sprintf("rand%d.c", s))
			os.WriteFile(file, []byte(csrc), 0o644)
			mt := semTargets[int(s/2)%len(semTargets)]
			if m := os.Getenv("MUSKET_RANDC_MODELS"); m != "" {
				names := strings.Split(m, ",")
				want := names[int(s/2)%len(names)]
				for _, x := range semTargets {
					if x.model == want {
						mt = x
					}
				}
			}
			for _, eng := range engines {
				ctx, cancel := context.WithTimeout(context.Background(), limit)
				r, err := Check(ctx, file, CheckOptions{Bound: 5, Engine: eng, Target: mt.target, Model: model(t, mt.model), ModelName: mt.model})
				cancel()
				switch {
				case err != nil:
					t.Logf("%s under %s: refused: %v", eng, mt.model, err)
					continue
				case r.Verdict == Safe:
					continue
				case r.Verdict == Unknown:
					// no answer (a time limit, a construct an engine leaves
					// to another): not a wrong verdict
					t.Logf("%s under %s: no answer: %v %v", eng, mt.model, r.Result.Status, r.Result.Err)
					continue
				}
				what := ""
				if r.Failed != nil && r.Failed.Pos.Line-first >= 0 && r.Failed.Pos.Line-first < len(p.final) {
					k := r.Failed.Pos.Line - first
					what = fmt.Sprintf(": %s is %s natively", p.final[k], vals[k])
				}
				t.Errorf("%s under %s: %v%s (%v); program %s", eng, mt.model, r.Verdict, what, r.Result.Err, file)
			}
		})
	}
}
