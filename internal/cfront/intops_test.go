package cfront

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The integer operations of C on symbolic values, checked against a
// native run. Each case computes (R)(a OP b) (or a unary operation, or
// a conversion) on operands a thread stores and main loads after the
// join, so that no compiler and no engine can fold them: the SMT engine
// sees each loaded value as a choice among writes. A first native run
// (with UBSan) prints every case's result and tells which cases are
// undefined behaviour (signed overflow, shifts past the width, division
// by zero), which are dropped; the checking program then asserts each
// result against the native one, loaded from memory too.

// cType is one C integer type of the test.
type cType struct {
	name   string
	bits   int
	signed bool
	vals   []string // C expressions of the test's operand values
	shifts []string // shift counts
}

var intTypes = []cType{
	{"int8_t", 8, true, []string{"-128", "-56", "-1", "0", "1", "100", "127"}, []string{"0", "1", "3", "7", "31"}},
	{"uint8_t", 8, false, []string{"0", "1", "7", "127", "128", "200", "255"}, []string{"0", "1", "3", "7", "31"}},
	{"int16_t", 16, true, []string{"-32768", "-1000", "-1", "0", "1", "255", "32767"}, []string{"0", "1", "8", "15", "31"}},
	{"uint16_t", 16, false, []string{"0", "1", "255", "256", "32768", "40000", "65535"}, []string{"0", "1", "8", "15", "31"}},
	{"int32_t", 32, true, []string{"INT32_MIN", "-8380417", "-1", "0", "1", "65535", "0x12345678", "INT32_MAX"}, []string{"0", "1", "8", "16", "31"}},
	{"uint32_t", 32, false, []string{"0", "1", "123456", "0x7fffffffu", "0x80000000u", "0xff8017ffu", "0xffffffffu"}, []string{"0", "1", "8", "16", "31"}},
	{"int64_t", 64, true, []string{"INT64_MIN", "-1099511627781", "-1", "0", "1", "1099511627776", "INT64_MAX"}, []string{"0", "1", "16", "32", "63"}},
	{"uint64_t", 64, false, []string{"0", "1", "0x7fffffffffffffffull", "0x8000000000000000ull", "0x12345678deadbeefull", "0xffffffffffffffffull"}, []string{"0", "1", "16", "32", "63"}},
}

// intOp is an operation of the test: binary (a OP b), with a constant
// right operand (a OP K), unary (OP a) or a conversion to a type.
type intOp struct {
	name  string
	expr  string // with %[1]s for a and %[2]s for b
	arity int    // 1 or 2
	shift bool   // b is a shift count
	konst bool   // b is written as a constant in the code
	to    string // the result type ("": the operand type)
}

func intOps(t cType) []intOp {
	var ops []intOp
	for _, o := range []struct{ name, sym string }{
		{"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"div", "/"}, {"rem", "%%"},
		{"and", "&"}, {"or", "|"}, {"xor", "^"},
		{"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="}, {"eq", "=="}, {"ne", "!="},
	} {
		ops = append(ops, intOp{name: o.name, expr: "%[1]s " + o.sym + " %[2]s", arity: 2})
		ops = append(ops, intOp{name: o.name + "K", expr: "%[1]s " + o.sym + " %[2]s", arity: 2, konst: true})
	}
	ops = append(ops,
		intOp{name: "shl", expr: "%[1]s << %[2]s", arity: 2, shift: true},
		intOp{name: "shr", expr: "%[1]s >> %[2]s", arity: 2, shift: true},
		intOp{name: "shlK", expr: "%[1]s << %[2]s", arity: 2, shift: true, konst: true},
		intOp{name: "shrK", expr: "%[1]s >> %[2]s", arity: 2, shift: true, konst: true},
		intOp{name: "neg", expr: "-%[1]s", arity: 1},
		intOp{name: "not", expr: "~%[1]s", arity: 1},
		intOp{name: "lnot", expr: "!%[1]s", arity: 1},
	)
	for _, u := range intTypes {
		if u.name != t.name {
			ops = append(ops, intOp{name: "to_" + u.name, expr: "%[1]s", arity: 1, to: u.name})
		}
	}
	return ops
}

// intCase is one case: the operands' C expressions.
type intCase struct{ a, b string }

func intCases(t cType, op intOp) []intCase {
	var out []intCase
	bs := t.vals
	if op.shift {
		bs = t.shifts
	}
	for _, a := range t.vals {
		if op.arity == 1 {
			out = append(out, intCase{a: a})
			continue
		}
		for _, b := range bs {
			if (op.name == "div" || op.name == "rem" || op.name == "divK" || op.name == "remK") &&
				(b == "0" || b == "-1" && strings.HasSuffix(a, "_MIN")) {
				continue // a trap, not a value (UBSan reports it, then the division traps)
			}
			out = append(out, intCase{a, b})
		}
	}
	return out
}

// intPrintProgram prints each case's result (as the 64 bits of an
// unsigned long long), one case per line of the source (case i is at
// line first+i).
func intPrintProgram(t cType, op intOp, cases []intCase) (string, int) {
	res := op.to
	if res == "" {
		res = t.name
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#include <stdio.h>\n#include <stdint.h>\nvolatile %s va[%d], vb[%d];\nint main(void) {\n  %s a, b;\n", t.name, len(cases), len(cases), t.name)
	for i, c := range cases {
		if c.b != "" {
			fmt.Fprintf(&b, "  va[%d] = (%s)(%s); vb[%d] = (%s)(%s);\n", i, t.name, c.a, i, t.name, c.b)
		} else {
			fmt.Fprintf(&b, "  va[%d] = (%s)(%s);\n", i, t.name, c.a)
		}
	}
	first := strings.Count(b.String(), "\n") + 1
	for i, c := range cases {
		bexpr := "b"
		if op.konst {
			bexpr = "((" + t.name + ")(" + c.b + "))"
		}
		e := fmt.Sprintf(op.expr, "a", bexpr)
		fmt.Fprintf(&b, "  a = va[%d]; b = vb[%d]; printf(\"%%llx\\n\", (unsigned long long)(%s)(%s));\n", i, i, res, e)
	}
	b.WriteString("  return 0;\n}\n")
	return b.String(), first
}

// intCheckProgram asserts each case's result against want (the native
// results, hexadecimal), every operand and result going through memory:
// stored by a thread and loaded by main after the join (symbolic: each
// load may read the initial value or the thread's write), or, plain,
// initial values of globals that main loads (one write each: the explicit
// engine enumerates no choice, and the SMT engine folds the values).
func intCheckProgram(t cType, op intOp, cases []intCase, want []string, plain bool) (string, int) {
	res := op.to
	if res == "" {
		res = t.name
	}
	n := len(cases)
	var b strings.Builder
	if plain {
		fmt.Fprintf(&b, "#include <assert.h>\n#include <stdint.h>\n")
		var as, bs, es []string
		for i, c := range cases {
			as = append(as, "("+t.name+")("+c.a+")")
			bv := c.b
			if bv == "" {
				bv = "0"
			}
			bs = append(bs, "("+t.name+")("+bv+")")
			es = append(es, "("+res+")0x"+want[i]+"ull")
		}
		fmt.Fprintf(&b, "%s A[%d] = {%s};\n%s B[%d] = {%s};\n%s E[%d] = {%s};\nint main(void) {\n",
			t.name, n, strings.Join(as, ", "), t.name, n, strings.Join(bs, ", "), res, n, strings.Join(es, ", "))
		first := strings.Count(b.String(), "\n") + 1
		for i, c := range cases {
			bexpr := fmt.Sprintf("B[%d]", i)
			if op.konst {
				bexpr = "((" + t.name + ")(" + c.b + "))"
			}
			fmt.Fprintf(&b, "  { %s a = A[%d]; %s b = %s; assert((%s)(%s) == E[%d]); }\n", t.name, i, t.name, bexpr, res, fmt.Sprintf(op.expr, "a", "b"), i)
		}
		b.WriteString("  return 0;\n}\n")
		return b.String(), first
	}
	fmt.Fprintf(&b, "#include <assert.h>\n#include <pthread.h>\n#include <stdatomic.h>\n#include <stdint.h>\n")
	fmt.Fprintf(&b, "_Atomic %s A[%d], B[%d];\n_Atomic %s E[%d];\n", t.name, n, n, res, n)
	b.WriteString("void *writer(void *arg) {\n")
	for i, c := range cases {
		fmt.Fprintf(&b, "  atomic_store_explicit(&A[%d], (%s)(%s), memory_order_relaxed);\n", i, t.name, c.a)
		if c.b != "" && !op.konst {
			fmt.Fprintf(&b, "  atomic_store_explicit(&B[%d], (%s)(%s), memory_order_relaxed);\n", i, t.name, c.b)
		}
		fmt.Fprintf(&b, "  atomic_store_explicit(&E[%d], (%s)0x%sull, memory_order_relaxed);\n", i, res, want[i])
	}
	b.WriteString("  return 0;\n}\nint main(void) {\n  pthread_t p;\n  pthread_create(&p, 0, writer, 0);\n  pthread_join(p, 0);\n")
	first := strings.Count(b.String(), "\n") + 1
	for i, c := range cases {
		bexpr := fmt.Sprintf("atomic_load_explicit(&B[%d], memory_order_relaxed)", i)
		if op.konst {
			bexpr = "((" + t.name + ")(" + c.b + "))"
		}
		e := fmt.Sprintf(op.expr, "a", "b")
		fmt.Fprintf(&b, "  { %s a = atomic_load_explicit(&A[%d], memory_order_relaxed); %s b = %s; assert((%s)(%s) == atomic_load_explicit(&E[%d], memory_order_relaxed)); }\n",
			t.name, i, t.name, bexpr, res, e, i)
	}
	b.WriteString("  return 0;\n}\n")
	return b.String(), first
}

var ubsanLine = regexp.MustCompile(`:(\d+):\d+: runtime error`)

// nativeIntResults runs the printing program with UBSan: the results of
// the cases and the set of cases whose operation is undefined.
func nativeIntResults(t *testing.T, dir string, src string, first, n int) ([]string, map[int]bool) {
	t.Helper()
	file := filepath.Join(dir, "print.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "print")
	if out, err := exec.Command(Clang, "-O0", "-w", "-fsanitize=undefined", "-o", bin, file).CombinedOutput(); err != nil {
		t.Fatalf("native compile: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("native run: %v\n%s", err, stderr.String())
	}
	ub := map[int]bool{}
	for _, m := range ubsanLine.FindAllStringSubmatch(stderr.String(), -1) {
		l, _ := strconv.Atoi(m[1])
		ub[l-first] = true
	}
	var vals []string
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		vals = append(vals, sc.Text())
	}
	if len(vals) != n {
		t.Fatalf("native run printed %d results for %d cases", len(vals), n)
	}
	return vals, ub
}

// TestIntOps checks every binary and unary integer operation of C and the
// conversions between the integer types, on 8, 16, 32 and 64 bits,
// signed and unsigned, with the operands symbolic, against a native run:
// the SMT engine, the explicit engine and the graph engine must all
// find that no assertion fails (MUSKET_LONG=1).
func TestIntOps(t *testing.T) {
	needClang(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	only := os.Getenv("MUSKET_INTOPS")
	if !long && only == "" {
		t.Skip("hundreds of programs, seconds each: MUSKET_LONG=1 runs them (MUSKET_INTOPS=int8_t/add one); TestIntArith and TestSemantics/intwrap check the lowering in the default run")
	}
	engines := []string{"smt", "enum", "graph"}
	if e := os.Getenv("MUSKET_INTOPS_ENGINES"); e != "" {
		engines = strings.Split(e, ",")
	}
	m := model(t, "rc11")
	for _, ty := range intTypes {
		for _, op := range intOps(ty) {
			key := ty.name + "/" + op.name
			if only != "" {
				if ok, _ := filepath.Match(only, key); !ok {
					continue
				}
			}
			t.Run(key, func(t *testing.T) {
				dir := t.TempDir()
				all := intCases(ty, op)
				src, first := intPrintProgram(ty, op, all)
				vals, ub := nativeIntResults(t, dir, src, first, len(all))
				var cases []intCase
				var want []string
				for i, c := range all {
					if !ub[i] {
						cases = append(cases, c)
						want = append(want, vals[i])
					}
				}
				for _, plain := range []bool{false, true} {
					if v := os.Getenv("MUSKET_INTOPS_PLAIN"); v != "" && (v == "1") != plain {
						continue
					}
					src, first := intCheckProgram(ty, op, cases, want, plain)
					name := strings.ReplaceAll(key, "/", "_")
					if plain {
						name += "_plain"
					}
					file := filepath.Join(dir, name+".c")
					if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
						t.Fatal(err)
					}
					if keep := os.Getenv("MUSKET_INTOPS_KEEP"); keep != "" {
						os.WriteFile(filepath.Join(keep, name+".c"), []byte(src), 0o644)
					}
					if got := runNative(t, file); got != Safe {
						t.Fatalf("native run of the checking program: %v\n%s", got, src)
					}
					for _, eng := range engines {
						if eng == "none" {
							continue
						}
						if eng == "enum" && !plain {
							continue // the explicit engine would enumerate 2^loads reads-from choices
						}
						r, err := Check(context.Background(), file, CheckOptions{Bound: 1, Engine: eng, Model: m, ModelName: "rc11"})
						if err != nil {
							t.Fatalf("%s: %v", eng, err)
						}
						if r.Verdict == Safe {
							continue
						}
						what := ""
						if r.Failed != nil {
							i := r.Failed.Pos.Line - first
							if i >= 0 && i < len(cases) {
								c := cases[i]
								what = fmt.Sprintf(": case a=%s b=%s: native %s gives 0x%s", c.a, c.b, fmt.Sprintf(op.expr, "a", "b"), want[i])
							}
						}
						t.Errorf("%s (plain %v): %v%s (%v)", eng, plain, r.Verdict, what, r.Result.Err)
					}
				}
			})
		}
	}
}
