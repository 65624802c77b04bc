package param

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/testcorpus"
)

func TestErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"lex", "type t = A | B\n$", "x.cub:2:1: unexpected character '$'"},
		{"comment", "(* open", "x.cub:1:1: comment not terminated"},
		{"syntax", "var X : bool\ninit (i) { X = }", "x.cub:2:16: expected a term, found '}'"},
		{"unknown", "var X : bool\nunsafe () { Y = True }", "x.cub:2:13: unknown name Y"},
		{"type", "var X : bool\nunsafe () { X = 1 }", "x.cub:2:15: cannot compare bool with int"},
		{"fence in unsafe", "weak var X : bool\nunsafe (i) { fence() }", "x.cub:2:14: fence() can only be used in the guard of a transition, not in unsafe"},
		{"at outside unsafe", "weak var X : bool\nunsafe (i) { i@X = True }\ntransition t ([i] j) requires { j@X = True } { X := False }",
			"x.cub:3:33: p@X can only be used in unsafe and invariant formulas, or in a transition with p its [.] process, not in a transition"},
		{"fence of another process", "weak var X : bool\nunsafe (i) { i@X = True }\ntransition t ([i] j) requires { fence(j) } { X := False }",
			"x.cub:3:33: fence(j): only the buffer of the transition's [.] process can be waited on"},
		{"early accesses by two processes", "weak var X : int\nvar R : int\nunsafe () { R = 1 }\ntransition t (i j) { R := read(i, X); write(j, X, 1) }",
			"x.cub:4:44: transition t accesses weak memory as i and as j: a transition is performed by one process"},
		{"early access by a non-parameter", "weak var X : int\nvar R : int\nunsafe () { R = 1 }\ntransition t (i) { R := read(k, X) }",
			"x.cub:4:25: k is not a parameter of transition t"},
		{"early read by a constant in unsafe", "weak var X : int\nunsafe () { read(#1, X) = 1 }",
			"x.cub:2:13: read(p, X) outside a transition needs a process variable p"},
		{"read of a term", "weak var X : int\nvar R : int\nunsafe () { R = 1 }\ntransition t (i) { R := read(i, 1) }",
			"x.cub:4:25: read takes a process and a variable or a cell"},
		{"case at a process constant", "array A[proc] : bool\nunsafe (i) { A[i] = True }\ntransition t () { A[#1] := case | _ : True }",
			"x.cub:3:20: a case cannot update A at a process constant"},
		{"number_procs past int32", "number_procs 4294967297\narray A[proc] : bool\nunsafe (i) { A[i] = True }",
			"x.cub:1:14: limit reached: number_procs 4294967297: Musket handles at most 2147483647 processes"},
		{"number_procs past int64", "number_procs 99999999999999999999\narray A[proc] : bool\nunsafe (i) { A[i] = True }",
			"x.cub:1:14: limit reached: number_procs 99999999999999999999"},
		{"number_procs 0", "number_procs 0\narray A[proc] : bool\nunsafe (i) { A[i] = True }", `x.cub:1:14: bad number of processes "0"`},
		// local_weak is weak where only p writes A[p] (localweak.go);
		// elsewhere it is refused by name
		{"local_weak var", "type s = I | W\nlocal_weak var C : s\nunsafe () { C = W }",
			"x.cub:2:1: unsupported: local_weak C (an early Cubicle-W declaration): Musket reads it on an array of one proc index, whose cell of process p only p writes; declare C weak"},
		{"local_weak of two indices", "type s = I | W\nlocal_weak array C[proc, proc] : s\nunsafe (p) { C[p, p] = W }",
			"x.cub:2:1: unsupported: local_weak C (an early Cubicle-W declaration): Musket reads it on an array of one proc index, whose cell of process p only p writes; declare C weak"},
		{"local_weak, another's cell", "type s = I | W\nlocal_weak array C[proc] : s\nunsafe (p) { p@C[p] = W }\ntransition t (i j) { write(i, C[j], W) }",
			"x.cub:4:31: unsupported: C is local_weak (an early Cubicle-W declaration) and this assignment is not to the cell of the process performing the transition: Musket reads local_weak as weak where only process p writes C[p]; declare C weak"},
		{"local_weak, every cell", "type s = I | W\nlocal_weak array C[proc] : s\nunsafe (p) { p@C[p] = W }\ntransition t ([i]) { C[j] := case | _ : W }",
			"x.cub:4:22: unsupported: C is local_weak (an early Cubicle-W declaration) and this assignment is not to the cell of the process performing the transition: Musket reads local_weak as weak where only process p writes C[p]; declare C weak"},
		{"local_weak, a constant's cell by another", "number_procs 2\ntype s = I | W\nlocal_weak array C[proc] : s\nunsafe (p) { p@C[p] = W }\ntransition t () { write(#1, C[#2], W) }",
			"x.cub:5:29: unsupported: C is local_weak (an early Cubicle-W declaration) and this assignment is not to the cell of the process performing the transition: Musket reads local_weak as weak where only process p writes C[p]; declare C weak"},
		{"trans_regexp", "array A[proc] : bool\ntrans_regexp : t(c) u(c);\nunsafe (i) { A[i] = True }\ntransition t (i) { A[i] := True }",
			"x.cub:2:1: unsupported: trans_regexp (a declaration of a development or earlier Cubicle version, not in its current grammar); remove it"},
		// a proc variable as an index is read as variants (procindex.go),
		// in init too (procinit.go), but not when init says it holds no
		// process, nor a weak one where no process reads it
		{"proc variable as an index, holding no process, assigned", "var H : proc\nvar X : bool\narray A[proc] : bool\ninit (p) { H <> p && A[p] = False && X = False }\nunsafe () { X = True }\ntransition t () requires { A[H] = False } { X := True }\ntransition u (i) { H := i }",
			"x.cub:6:1: unsupported: H as an index while init says H <> p (H holds no process) and a transition assigns H: Musket gives cells of their own only to a variable that holds no process in every state (procoutside.go); keep them in variables of their own"},
		// ... and it reads the cells of one that holds no process in
		// every state (procoutside.go), but for these
		{"holding no process, two indices", "var H : proc\narray A[proc, proc] : bool\ninit (i) { H <> i && A[i,i] = False }\nunsafe (i) { A[H, i] = True }",
			"x.cub:4:14: unsupported: A indexed by H, which holds no process (init says H <> p), in an array of 2 indices: only arrays of one index have a cell of their own there"},
		{"holding no process, another index variable", "var H : proc\nvar G : proc\narray A[proc] : bool\ninit (i) { H <> i && A[i] = False }\nunsafe () { A[H] = True }\ntransition t () requires { A[G] = True } { A[H] := True }",
			"x.cub:6:30: unsupported: G as an index together with H, which holds no process (init says H <> p): G might hold H's value, whose cells are not those of a process"},
		{"holding no process, cell written twice", "var H : proc\narray A[proc] : bool\ninit (i) { H <> i && A[i] = False }\nunsafe () { A[H] = True }\ntransition t () { A[H] := True; A[j] := case | _ : False }",
			"x.cub:5:34: unsupported: transition t writes A[H], and its update of every cell of A would write it too (H holds no process, init says H <> p)"},
		{"holding no process, weak array", "var H : proc\nweak array A[proc] : bool\ninit (i) { H <> i && A[i] = False }\nunsafe () { A[H] = True }\ntransition t ([i]) { A[i] := True }",
			"x.cub:4:13: unsupported: the weak array A indexed by H, which holds no process (init says H <> p)"},
		{"proc variable as an index in init, number_procs", "number_procs 1\nvar H : proc\narray A[proc] : bool\ninit (p) { A[H] = False }\nunsafe (i) { A[i] = True }",
			"x.cub:4:1: unsupported: init indexes arrays by H, which needs 2 processes, and number_procs is 1"},
		{"weak proc variable as an index in unsafe", "weak var H : proc\nweak array A[proc] : bool\nunsafe (i) { i@A[H] = True }",
			"x.cub:3:1: unsupported: the weak proc variable H as an index in unsafe: no process reads it there (a read p@H is no index); read it into a parameter in the transitions instead"},
		{"weak proc variable as an index, no actor", "weak var H : proc\nweak array A[proc] : bool\nunsafe (i) { A[i] = True }\ntransition t (i) requires { A[H] = False } { A[i] := True }",
			"x.cub:4:1: transition t reads weak H (an index): mark the process that performs it with [.]"},
		{"good", "array A[proc] : bool\nunsafe (i) { A[i] = True }\ngood (z) { A[z] = False }",
			"x.cub:3:1: unsupported: good (a declaration of a development or earlier Cubicle version, not in its current grammar); remove it"},
		{"good after an early-grammar transition", "type s = I | E\narray C[proc] : s\nunsafe (z) { C[z] = E }\ntransition t (n)\nrequire { C[n] = I }\nC[j] := {| j = n : E | _ : C[j] }\ngood (z) { C[z] = I }",
			"x.cub:7:1: unsupported: good (a declaration of a development or earlier Cubicle version, not in its current grammar); remove it"},
		{"const with a value", "var A : int\nconst B = 6\nunsafe () { A = B }",
			"x.cub:2:9: unsupported: const B = value (a named number of a Cubicle development branch); declare const B : int and fix its value in init, or write the number"},
		{"int compared with a real constant", "var A : int\nunsafe () { A < 1.5 }", "x.cub:2:15: cannot compare int with real"},
		{"int plus a real", "var A : int\nvar B : int\nunsafe () { A + 0.5 = B }", "x.cub:3:15: + of an int and a real: int and real are different types"},
		{"real assigned to an int", "var A : int\nvar B : real\nunsafe () { A = 1 }\ntransition t () { A := B }", "x.cub:4:24: A has type int, not real"},
		{"int variable compared with a real one", "var A : int\nvar B : real\nunsafe () { A = B }", "x.cub:3:15: cannot compare int with real"},
		{"forall in unsafe", "array A[proc] : bool\nunsafe (i) { forall j. A[j] = True }",
			"x.cub:2:14: forall j. … can only be used in a transition's guard: in unsafe, make j a parameter"},
		{"exists in init", "array A[proc] : bool\ninit () { exists j. A[j] = True }\nunsafe (i) { A[i] = True }",
			"x.cub:2:11: exists j. … can only be used in a transition's guard: in init, make j a parameter"},
		{"forall over two", "array A[proc] : bool\nunsafe (i) { A[i] = True }\ntransition t () requires { forall j <> k. A[j] = True } { }",
			"x.cub:3:37: forall and exists over several processes (x <> y) are not supported"},
		{"let of a value as an index", "array A[proc] : bool\nvar X : int\nunsafe (i) { A[i] = True }\ntransition t () { let v = X in A[v] := True }",
			"x.cub:4:34: v is not a process variable"},
		{"fence of a term", "weak var X : bool\nunsafe (i) { i@X = True }\ntransition t ([i]) requires { fence(#1) } { X := False }",
			"x.cub:3:31: fence takes no argument or the transition's [.] process"},
		{"weak without at", "weak var X : bool\nunsafe (i) { X = True }", "x.cub:2:14: weak X must be read by a process in unsafe: write p@X"},
		{"no actor", "weak var X : bool\nunsafe (i) { i@X = True }\ntransition t (i) { X := True }",
			"accesses weak memory: mark the process that performs it with [.]"},
		{"no unsafe", "var X : bool\n", "x.cub: no unsafe formula"},
		{"negated fence", "weak var X : bool\nunsafe (i) { i@X = True }\ntransition t ([i]) requires { not fence() } { X := True }", "x.cub:3:35: fence() cannot be negated"},
		{"const assign", "const C : bool\nunsafe () { C = True }\ntransition t (i) { C := True }", "x.cub:3:20: C is a constant and cannot be assigned"},
		{"non-linear", "var X : int\nvar Y : int\nunsafe () { X * Y = 1 }", "x.cub:3:15: the product of two non-constant terms is not linear"},
		{"negated bool", "var X : bool\nunsafe () { - X = 1 }", "x.cub:2:13: - is only defined on int and real"},
		{"abstract order", "type d\nvar X : d\nvar Y : d\nunsafe () { X < Y }", "x.cub:4:15: < is only defined on int, real and proc"},
		{"huge difference", "var X : int\nvar Y : int\nunsafe () { X + 1000000000000 > Y - 1000000000000 }", "x.cub:3:31: number out of range"},
		{"huge product", "var X : int\nunsafe () { 1000000000 * (1000000000 * X) = 1 }", "number out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("x.cub", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q, want %q", err.Error(), tc.want)
			}
		})
	}
}

// corpusFiles lists the .cub files of the corpus, brab/ and challenges/
// included.
func corpusFiles() []string {
	var files []string
	for _, sub := range []string{"", "brab", "challenges"} {
		fs, _ := filepath.Glob(filepath.Join(corpusDir, sub, "*.cub"))
		files = append(files, fs...)
	}
	return files
}

func TestParseCorpus(t *testing.T) {
	testcorpus.Dir(t) // a missing corpus skips, or fails under CI
	files := corpusFiles()
	if len(files) == 0 {
		t.Fatal("no .cub file in the corpus")
	}
	for _, f := range files {
		if _, err := ParseFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestSmallSystems(t *testing.T) {
	tests := []struct {
		name, src string
		want      Verdict
	}{
		{"toggle", `var X : bool
init () { X = False }
unsafe () { X = True }
transition t () requires { X = False } { X := True }`, Unsafe},
		{"stuck", `var X : bool
init () { X = False }
unsafe () { X = True }
transition t () requires { X = True } { X := True }`, Safe},
		{"counter", `var X : int
init () { X = 0 }
unsafe () { X < 0 }
transition inc () { X := X + 1 }`, Safe},
		{"real", `var X : real
init () { X = 0.5 }
unsafe () { X > 2.0 }
transition inc () requires { X < 1.0 } { X := X + 1.0 }`, Safe},
		{"linear invariant", `var X : int
var Y : int
init () { X = 0 && Y = 0 }
unsafe () { 2*X <> Y }
transition step () { X := X + 1; Y := Y + 2 }`, Safe},
		{"linear, broken", `var X : int
var Y : int
init () { X = 0 && Y = 0 }
unsafe () { 2*X <> Y }
transition step () { X := X + 1; Y := Y + 2 }
transition bad () requires { X + Y = 3 } { Y := Y + 1 }`, Unsafe},
		{"linear real", `var R : real
init () { R = 0.0 }
unsafe () { 3*R > 2.0 }
transition up () requires { R < 0.1 } { R := R + 0.5 }`, Safe},
		{"linear real, reached", `var R : real
init () { R = 0.0 }
unsafe () { 3*R > 1.0 }
transition up () requires { R < 0.1 } { R := R + 0.5 }`, Unsafe},
		{"sum of two cells", `array A[proc] : int
var S : int
init (z) { A[z] = 0 && S = 0 }
unsafe (i j) { A[i] + A[j] > S }
transition inc (i) { A[j] := case | j = i : A[j] + 1 | _ : A[j]; S := S + 1 }`, Safe},
		{"difference of two cells", `array A[proc] : int
var S : int
init (z) { A[z] = 0 && S = 0 }
unsafe (i j) { 2*A[i] - A[j] > S + 3 }
transition inc (i) { A[j] := case | j = i : A[j] + 2 | _ : A[j]; S := S + 1 }`, Unsafe},
		{"abstract type", `type data
var Mem : data
array Cache[proc] : data
array Valid[proc] : bool
init (z) { Valid[z] = False }
unsafe (i) { Valid[i] = True && Cache[i] <> Mem }
transition read (i) { Cache[i] := Mem; Valid[i] := True }
transition store () { Mem := .; Valid[j] := case | _ : False }
transition copy (i k) requires { Valid[i] = True } { Cache[k] := Cache[i]; Valid[k] := True }`, Safe},
		{"abstract type, stale copy", `type data
var Mem : data
array Cache[proc] : data
array Valid[proc] : bool
init (z) { Valid[z] = False }
unsafe (i) { Valid[i] = True && Cache[i] <> Mem }
transition read (i) { Cache[i] := Mem; Valid[i] := True }
transition store (i) { Mem := .; Valid[j] := case | j = i : False | _ : Valid[j] }`, Unsafe},
		{"abstract values are many", `type data
var A : data
var B : data
var C : data
init () { A <> B }
unsafe () { A <> B && B <> C && A <> C }
transition t () { C := . }`, Unsafe},
		{"booleans are two", `var A : bool
var B : bool
var C : bool
init () { A <> B }
unsafe () { A <> B && B <> C && A <> C }
transition t () { C := . }`, Safe},
		{"negation", `var X : int
var Y : int
init () { X = 0 && Y = 5 }
unsafe () { -X > Y + 10 }
transition inc () requires { X < 3 } { X := X + 1 }`, Safe},
		{"store buffering", `weak var X : int
weak var Y : int
array PC[proc] : int
array R[proc] : int
init (p) { X = 0 && Y = 0 && PC[p] = 0 }
unsafe (p q) { p = #1 && q = #2 && PC[p] = 2 && PC[q] = 2 && R[p] = 0 && R[q] = 0 }
transition w1 ([p]) requires { p = #1 && PC[p] = 0 } { PC[p] := 1; X := 1 }
transition r1 ([p]) requires { p = #1 && PC[p] = 1 } { PC[p] := 2; R[p] := Y }
transition w2 ([p]) requires { p = #2 && PC[p] = 0 } { PC[p] := 1; Y := 1 }
transition r2 ([p]) requires { p = #2 && PC[p] = 1 } { PC[p] := 2; R[p] := X }`, Unsafe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := Load(tc.name+".cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(t.Context(), sys, Options{Timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.want {
				t.Errorf("got %s, want %s", res.Verdict, tc.want)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	files := corpusFiles()
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("transition t ([i] j) requires { forall_other k. (A[k] = True || not B) } { A[j] := case | j = i : . | _ : A[j] }"))
	// Hostile text (robust4): characters beyond ASCII, bytes that are
	// not UTF-8, NUL, CRLF.
	f.Add([]byte("type state = \u00c4 | B\nvar X : state\ninit (z) { X = \u00c4 }\nunsafe (z) { X = B }\n"))
	f.Add([]byte("var X : bool\r\ninit (z) { X = True }\r\nunsafe (z) { X = False }\r\ntransition t (i)\r\nrequires { X = True }\r\n{ X := False }\r\n"))
	f.Add([]byte("var X\x00 : bool\xff\xfe\ninit (z) { X = \xc3 }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		sys, err := Load("fuzz.cub", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.cub") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		// a checked system must also survive a short search
		_, _ = Verify(t.Context(), sys, Options{MaxNodes: 20, Timeout: time.Second})
	})
}
