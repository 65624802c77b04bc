package litmus

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/fuzzlimit"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// corpusLitmus is the litmus part of the shared corpus; the fuzz targets
// read their seeds from it at run time (never copied into the repository).
const corpusLitmus = "../../../shared/corpus/litmus"

// addCorpusSeeds adds up to max litmus files of the corpus folder dir
// (recursively) that are smaller than 4 kB, plus the examples of the
// repository whose header names arch.
func addCorpusSeeds(f *testing.F, arch, dir string, max int) {
	n := 0
	_ = filepath.WalkDir(filepath.Join(corpusLitmus, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || n >= max {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".litmus") {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil && len(data) < 4000 {
			f.Add(data)
			n++
		}
		return nil
	})
	examples, _ := filepath.Glob("../../examples/*/*.litmus")
	for _, p := range examples {
		data, err := os.ReadFile(p)
		if err == nil && arch != "" && strings.HasPrefix(strings.ToUpper(string(data)), strings.ToUpper(arch)+" ") {
			f.Add(data)
		}
	}
}

// truncations adds every cut of src at a line end and in the middle of
// each line, so that the fuzzer starts from truncated files too.
func truncations(f *testing.F, src string) {
	f.Add([]byte(src))
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			f.Add([]byte(src[:i]))
		}
	}
}

// FuzzParse checks that no input makes Parse panic or hang, that errors
// are positioned, and that what parses is well formed. The seeds are in
// testdata/fuzz/FuzzParse, and the X86 part of the corpus.
func FuzzParse(f *testing.F) {
	f.Add([]byte("X86 t\n{x=0}\n P0 ;\n MOV [x],1 ;\nexists (x=1)\n"))
	addCorpusSeeds(f, "X86", "X86", 60)
	f.Fuzz(checkParse)
}

// One target per dialect, seeded with small tests of that dialect, so
// that the fuzzer spends its time inside each front-end.

func FuzzX86(f *testing.F) {
	truncations(f, "X86 t\n{x=0; 0:EAX=1}\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[x] ;\n MFENCE | LOCK XADD [y],EBX ;\nexists (1:EAX=1 /\\ x=1)\n")
	addCorpusSeeds(f, "X86", "X86", 60)
	f.Fuzz(checkParse)
}

func FuzzPPC(f *testing.F) {
	truncations(f, "PPC t\n{0:r2=x; 1:r2=x;}\n P0 | P1 ;\n li r1,1 | lwz r1,0(r2) ;\n stw r1,0(r2) | cmpw r1,r1 ;\n lwsync | beq L0 ;\n | L0: isync ;\nexists (1:r1=1)\n")
	addCorpusSeeds(f, "PPC", "PPC", 60)
	f.Fuzz(checkParse)
}

func FuzzAArch64(f *testing.F) {
	truncations(f, "AArch64 t\n{0:X1=x; 1:X1=x;}\n P0 | P1 ;\n MOV W0,#1 | LDAR W0,[X1] ;\n STLR W0,[X1] | CBNZ W0,L0 ;\n DMB ISH | L0: LDXR W2,[X1] ;\nexists (1:X0=1)\n")
	addCorpusSeeds(f, "AArch64", "AARCH64", 60)
	f.Fuzz(checkParse)
}

func FuzzARM(f *testing.F) {
	truncations(f, "ARM t\n{0:R1=x; 1:R1=x;}\n P0 | P1 ;\n MOV R0,#1 | LDR R0,[R1] ;\n STR R0,[R1] | CMP R0,R0 ;\n DMB | BNE L0 ;\n | L0: ISB ;\nexists (1:R0=1)\n")
	addCorpusSeeds(f, "ARM", "ARM", 60)
	f.Fuzz(checkParse)
}

func FuzzRISCV(f *testing.F) {
	truncations(f, "RISCV t\n{0:x6=x; 1:x6=x;}\n P0 | P1 ;\n ori x5,x0,1 | lw x5,0(x6) ;\n sw x5,0(x6) | fence r,rw ;\n amoswap.w.aq x7,x5,(x6) | bne x5,x0,L ;\n | L: lr.w x8,0(x6) ;\nexists (1:x5=1)\n")
	addCorpusSeeds(f, "RISCV", "RISCV", 60)
	f.Fuzz(checkParse)
}

func FuzzMIPS(f *testing.F) {
	truncations(f, "MIPS t\n{0:$4=x; 1:a0=x; 0:$5=P0:L;}\n P0 | P1 ;\n li $2,1 | ll v0,0(a0) ;\n sw $2,0($4) | addiu v0,v0,-1 ;\n sync | sc v0,(a0) ;\n jr $5 | beq $2,$0,L1 ;\n L: dext $3,$2,1,2 | L1: jr $31 ;\nexists (1:$2=1 /\\ x=instr:\"nop\")\n")
	f.Fuzz(checkParse)
}

func FuzzBPF(f *testing.F) {
	truncations(f, "BPF t\n{0:r1=x; 1:r1=x; 1:r0=0;}\n P0 | P1 ;\n *(u32 *)(r1 + 0) = 1 | r2 = load_acquire((u32 *)(r1 + 0)) ;\n store_release((u64 *)(r1 + 0), r3) | r0 = cmpxchg_64(r1 + 0, r0, r2) ;\n r3 = atomic_fetch_add((u32 *)(r1 - 0), r3) | if r0 >= -1 goto L ;\n lock *(u8 *)(r1 + 0) ^= r4 | r5 s>>= 2 ;\n r6 = xchg_32_32(r1 + 0, r6) | L: r4 <<= r2 ;\nexists (1:r2=1 /\\ 0:fp=0)\n")
	f.Fuzz(checkParse)
}

// FuzzLISA covers the LISA front-end (lisa.go, lisa_operands.go): the
// annotation lists, rmw's two forms, mov's operations and the branches.
func FuzzLISA(f *testing.F) {
	truncations(f, "LISA t\n{ x = 0; y = 0; 1:r3 = x; }\n P0 | P1 ;\n w[once] x 1 | r[acquire] r1 y ;\n f[mb] | r[] r2 r3 + r1 ;\n rmw[mb] r4 (add r4 1) y | b[] r2 L ;\n mov r5 (eq r4 0) | L: rmw r6 r2 x ;\n b L1 | f[rcu-lock] ;\n L1: w[release] y r5 | r[deref] r7 x + 1 ;\nexists (1:r1=1 /\\ x=0)\n")
	files, _ := filepath.Glob("testdata/lisa/*.litmus")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(checkParse)
}

func FuzzC(f *testing.F) {
	truncations(f, "C t\n{ x = 0; }\nP0(int *x, atomic_int *y) {\n  int r0 = READ_ONCE(*x);\n  if (r0 == 1) { WRITE_ONCE(*x, 2); }\n  atomic_store_explicit(y, 1, memory_order_release);\n}\nP1(int *x) { smp_mb(); int r1 = xchg(x, 3); }\nexists (0:r0=1 /\\ x=2)\n")
	addCorpusSeeds(f, "C", "C11", 40)
	addCorpusSeeds(f, "C", "LKMM", 40)
	f.Fuzz(checkParse)
}

// checkParse parses src within a second: a positioned source.ErrorList, or a
// well-formed test.
func checkParse(t *testing.T, src []byte) {
	var tst *spec.Test
	var err error
	fuzzlimit.Within(t, time.Second, func() { tst, err = Parse("fuzz.litmus", src) })
	if err != nil {
		var list source.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("error %T %v is not an source.ErrorList", err, err)
		}
		for _, e := range list {
			if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.File != "fuzz.litmus" {
				t.Fatalf("error without a position: %v", e)
			}
		}
		return
	}
	if tst.Cond == nil {
		t.Fatal("no condition")
	}
	for _, th := range tst.Threads {
		if len(th.Pos) != len(th.Code) {
			t.Fatalf("%s: %d instructions, %d positions", th.Name, len(th.Code), len(th.Pos))
		}
		if _, err := th.Labels(); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range append(spec.Refs(tst.Cond), tst.Locations...) {
		if r.Thread >= len(tst.Threads) {
			t.Fatalf("%v names a missing thread", r)
		}
	}
	fe, err := Lookup(tst.Arch)
	if err != nil {
		t.Fatal(err)
	}
	if tst.Mixed {
		// The condition is on the chunks of the mixed-size lowering
		// (x[1]: the chunk at offset 1), which only some architectures'
		// condition syntax names; the test's own line is CondLine.
		return
	}
	roundTripArch(t, "cond", leftAssoc(tst.Cond), fe)
	if tst.Filter != nil {
		roundTripArch(t, "filter", leftAssoc(tst.Filter), fe)
	}
}

// leftAssoc regroups the chains of /\ and of \/ to the left, as the
// parser groups them: FormatCond prints "a /\ (b /\ c)" without its
// parentheses, which means the same.
func leftAssoc(c spec.Cond) spec.Cond {
	switch c := c.(type) {
	case spec.And:
		var terms []spec.Cond
		var walk func(spec.Cond)
		walk = func(c spec.Cond) {
			if a, ok := c.(spec.And); ok {
				walk(a.L)
				walk(a.R)
				return
			}
			terms = append(terms, leftAssoc(c))
		}
		walk(c)
		out := terms[0]
		for _, t := range terms[1:] {
			out = spec.And{L: out, R: t}
		}
		return out
	case spec.Or:
		var terms []spec.Cond
		var walk func(spec.Cond)
		walk = func(c spec.Cond) {
			if o, ok := c.(spec.Or); ok {
				walk(o.L)
				walk(o.R)
				return
			}
			terms = append(terms, leftAssoc(c))
		}
		walk(c)
		out := terms[0]
		for _, t := range terms[1:] {
			out = spec.Or{L: out, R: t}
		}
		return out
	case spec.Not:
		return spec.Not{C: leftAssoc(c.C)}
	}
	return c
}

// FuzzMacros parses arbitrary .def text: a positioned ErrorList or a
// table of macros. Each macro is then called, with as many arguments as
// it has parameters, from a C test read with those macros: expansion
// (even of a macro that calls itself) ends within a second, with a test
// or a positioned error.
func FuzzMacros(f *testing.F) {
	f.Add([]byte(builtinMacroText))
	f.Add([]byte("m(X) m(X)\nn(X,Y) { n(Y,X); }\n"))
	f.Add([]byte("READ_ONCE(X) __load{once}(X)\nWRITE_ONCE(X,V) { __store{once}(X,V); }\nsmp_mb() { __fence{mb}; }\n"))
	files, _ := filepath.Glob("../../../shared/corpus/cat/*/*.def")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var m *Macros
		var err error
		fuzzlimit.Within(t, time.Second, func() { m, err = ParseMacros("f.def", src) })
		if err != nil {
			var list source.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not an source.ErrorList", err, err)
			}
			for _, e := range list {
				if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.File != "f.def" {
					t.Fatalf("error without a position: %v", e)
				}
			}
			return
		}
		var body strings.Builder
		for i, name := range m.Names() {
			if i == 8 {
				break
			}
			args := make([]string, len(m.defs[name].params))
			for j := range args {
				args[j] = "x"
			}
			call := name + "(" + strings.Join(args, ",") + ");\n"
			if m.defs[name].isStmt {
				body.WriteString("  " + call)
			} else {
				body.WriteString("  r" + itoa(i) + " = " + call)
			}
		}
		test := "C t\n{ x = 0; }\nP0(int *x) {\n  int r0; int r1; int r2; int r3; int r4; int r5; int r6; int r7;\n" + body.String() + "}\nexists (x=1)\n"
		fuzzlimit.Within(t, time.Second, func() { _, err = ParseWith("t.litmus", []byte(test), NewCFrontend(m)) })
		if err != nil {
			var list source.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not an source.ErrorList", err, err)
			}
			for _, e := range list {
				if e.Pos.Line < 1 || e.Pos.Col < 1 {
					t.Fatalf("error without a position: %v", e)
				}
			}
		}
	})
}
