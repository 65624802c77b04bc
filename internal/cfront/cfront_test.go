package cfront

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// needClang skips a test of C programs where clang-14 is missing (it
// fails under CI=true).
func needClang(t testing.TB) { t.Helper(); testcorpus.NeedProgram(t, Clang) }

// allCPrograms lists the C programs of examples/c and of testdata, sorted.
func allCPrograms() []string {
	files, _ := filepath.Glob("../../examples/c/*.c")
	more, _ := filepath.Glob("testdata/*.c")
	files = append(files, more...)
	sort.Strings(files)
	return files
}

func model(t testing.TB, name string) *cat.Model {
	t.Helper()
	m, err := cat.LoadBuiltin(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestVerdicts checks the test programs under C-level models and
// hardware targets; the small ones under both engines, which must agree.
func TestVerdicts(t *testing.T) {
	t.Parallel() // no global switch or environment: it runs beside the other long tests
	needClang(t)
	for _, c := range []struct {
		file   string
		model  string // C-level model, or the target's model when target is set
		target string
		bound  int
		want   Verdict
		line   int  // the failing assertion's line (Violation); 0: any of several that can fail
		both   bool // the explicit engine too
	}{
		{"mp_ok.c", "rc11", "", 2, Safe, 0, true},
		{"mp_ok.c", "sc", "", 2, Safe, 0, true},
		{"mp_rlx.c", "rc11", "", 2, Violation, 18, true},
		{"mp_rlx.c", "sc", "", 2, Safe, 0, true},
		{"mp_rlx.c", "tso", "x86", 2, Safe, 0, false},
		{"mp_rlx.c", "aarch64", "aarch64", 2, Violation, 18, false},
		{"mp_rlx.c", "power", "power", 2, Violation, 18, false},
		{"mp_ok.c", "aarch64", "aarch64", 2, Safe, 0, false},
		{"mp_ok.c", "power", "power", 2, Safe, 0, false},
		{"sb.c", "rc11", "", 2, Violation, 27, true},
		{"sb.c", "sc", "", 2, Safe, 0, true},
		{"sb.c", "tso", "x86", 2, Violation, 27, false},
		{"sb_sc.c", "rc11", "", 2, Safe, 0, true},
		{"sb_sc.c", "tso", "x86", 2, Safe, 0, false},
		{"spinlock.c", "rc11", "", 2, Safe, 0, false},
		{"spinlock.c", "aarch64", "aarch64", 2, Safe, 0, false},
		{"spinlock_rlx.c", "rc11", "", 2, Violation, 36, false},
		{"spinlock_rlx.c", "aarch64", "aarch64", 2, Violation, 36, false},
		{"spinlock_rlx.c", "tso", "x86", 2, Safe, 0, false},
		{"mutex.c", "rc11", "", 2, Safe, 0, false},
		{"ttas_nested.c", "rc11", "", 2, Safe, 0, false},
		{"ttas_nested.c", "aarch64", "aarch64", 2, Safe, 0, false},
		{"casloop.c", "rc11", "", 2, BoundHit, 0, false},
		{"casloop.c", "rc11", "", 3, Safe, 0, false},
		{"bound.c", "rc11", "", 2, BoundHit, 0, true},
		{"bound.c", "rc11", "", 3, Safe, 0, true},
		{"verifier.c", "rc11", "", 2, Violation, 24, false},
		{"treiber_pub.c", "rc11", "", 2, Violation, 34, false},
		{"heap_queue.c", "rc11", "", 2, Safe, 0, false},
		{"heap_queue_rlx.c", "rc11", "", 2, Violation, 0, false}, // lines 32 and 35 can both fail
		{"heap_queue.c", "aarch64", "aarch64", 2, Safe, 0, false},
		{"intrinsics.c", "rc11", "", 2, Safe, 0, true},
		{"ticket.c", "rc11", "", 3, Safe, 0, false},
		{"tas_flag.c", "rc11", "", 2, Safe, 0, false},
		{"tas_flag_bug.c", "rc11", "", 2, Violation, 21, false},
		{"ticket_bug.c", "rc11", "", 3, Violation, 28, false},
		{"unsigned.c", "rc11", "", 2, Safe, 0, true},
		{"create_loop.c", "rc11", "", 1, Safe, 0, false}, // counted loops: exact, whatever the bound
		// In the suites' styles (cwild): SV-COMP pthread-wmm (atomic
		// sections, '$' names, an empty reach_error), GenMC's litmus
		// form with 4 threads, a 3-thread seqlock with __atomic builtins.
		{"sv_wmm_sb.c", "sc", "", 2, Safe, 0, false},
		{"sv_wmm_sb.c", "tso", "x86", 2, Violation, 74, false},
		{"iriw_acq.c", "rc11", "", 2, Violation, 49, false},
		{"iriw_acq.c", "aarch64", "aarch64", 2, Safe, 0, false}, // multi-copy atomic
		{"iriw_acq.c", "power", "power", 2, Violation, 49, false},
		{"seqlock3.c", "rc11", "", 2, Safe, 0, false},
	} {
		name := strings.TrimSuffix(c.file, ".c") + "/" + c.model
		t.Run(name, func(t *testing.T) {
			engines := []string{"smt"}
			if c.both {
				engines = append(engines, "enum")
			}
			if c.target == "" && graph.Supported(c.model) {
				// The graph engine must give the SMT engine's verdict.
				engines = append(engines, "graph")
			}
			for _, e := range engines {
				r, err := Check(context.Background(), filepath.Join("testdata", c.file),
					// (SMTIgnoresFree: the explicit engine's answer on
					// heap_queue's malloc'ed nodes, which the SMT and
					// graph engines check for reads of uninitialised
					// memory.)
					CheckOptions{Bound: c.bound, Engine: e, Target: c.target, Model: model(t, c.model), ModelName: c.model, SMTIgnoresFree: e == "enum"})
				if err != nil {
					t.Fatalf("%s: %v", e, err)
				}
				if e == "graph" && r.Verdict == Unknown && r.Result.Status == result.Unsupported {
					// __VERIFIER_nondet_*: the graph engine says so, and
					// -engine auto keeps the SMT engine's answer.
					continue
				}
				if r.Verdict != c.want {
					t.Fatalf("%s, bound %d: verdict %v (%v), want %v", e, c.bound, r.Verdict, r.Result.Err, c.want)
				}
				if c.want == Violation {
					if r.Failed == nil || c.line != 0 && r.Failed.Pos.Line != c.line {
						t.Errorf("%s: failed assertion %v, want line %d", e, r.Failed, c.line)
					}
					x := AnnotateWitness(r)
					var all strings.Builder
					if x != nil {
						for _, ev := range x.Events {
							all.WriteString(ev.Label + "\n")
						}
					}
					if !strings.Contains(all.String(), "@"+c.file+":") {
						t.Errorf("%s: the witness does not name source lines", e)
					}
				}
			}
		})
	}
}

// TestLiveness checks -liveness: a thread that can wait forever in a
// fair execution (a deadlock, a spin on a flag nobody sets) is reported
// with its line; a program whose waits all end is not.
func TestLiveness(t *testing.T) {
	needClang(t)
	for _, c := range []struct {
		file string
		want Verdict
		line int
		both bool
	}{
		{"deadlock.c", Livelock, 10, false},
		{"nodeadlock.c", Safe, 0, false},
		{"spin_forever.c", Livelock, 8, true},
		{"mp_ok.c", Safe, 0, true},
		{"mutex.c", Safe, 0, false},
	} {
		engines := []string{"smt"}
		if c.both {
			engines = append(engines, "enum")
		}
		for _, e := range engines {
			r, err := Check(context.Background(), filepath.Join("testdata", c.file),
				CheckOptions{Bound: 2, Engine: e, Model: model(t, "rc11"), ModelName: "rc11", Liveness: true})
			if err != nil {
				t.Fatalf("%s: %v", c.file, err)
			}
			if r.Verdict != c.want {
				t.Fatalf("%s (%s): verdict %v (%v), want %v", c.file, e, r.Verdict, r.Result.Err, c.want)
			}
			if c.want == Livelock && (r.Failed == nil || r.Failed.Pos.Line != c.line) {
				t.Errorf("%s (%s): waits at %v, want line %d", c.file, e, r.Failed, c.line)
			}
		}
	}
}

// TestRefused checks that constructs outside the supported C are refused
// by name with their line, and clang's errors are passed on.
func TestRefused(t *testing.T) {
	needClang(t)
	for _, c := range []struct {
		file, want string
	}{
		{"refuse_float.c", "refuse_float.c:2: d: unsupported objects of type double"},
		{"refuse_call.c", "refuse_call.c:5:12: call to strspn, which has no definition"},
		{"sem/implicit_call.c", "implicit_call.c:9:3: call to check_value, which has no definition and is not supported (declared implicitly"},
		{"clang_error.c", "use of undeclared identifier 'undeclared_variable'"},
	} {
		_, err := Lower(context.Background(), filepath.Join("testdata", c.file), Options{Bound: 2})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.file, err, c.want)
		}
		var ce *ClangError
		if strings.HasPrefix(c.file, "clang") != errors.As(err, &ce) {
			t.Errorf("%s: a clang error is a ClangError, others are not: %T", c.file, err)
		}
	}
}

// TestLKMM checks programs written with musket/lkmm.h under the
// Linux-kernel model of the corpus (with its bell file).
func TestLKMM(t *testing.T) {
	needClang(t)
	dir := testcorpus.Dir(t) + "/cat/linux/"
	m, err := cat.Load(dir+"linux-kernel.cat", cat.LoadOptions{Bell: dir + "linux-kernel.bell", IncludeDirs: []string{testcorpus.Dir(t) + "/cat/herd"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		want Verdict
		line int
	}{
		{"lkmm_mp.c", Safe, 0},
		{"lkmm_mp_bug.c", Violation, 26},
	} {
		r, err := Check(context.Background(), filepath.Join("testdata", c.file), CheckOptions{Bound: 2, Model: m, ModelName: "linux-kernel"})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if r.Verdict != c.want {
			t.Fatalf("%s: verdict %v (%v), want %v", c.file, r.Verdict, r.Result.Err, c.want)
		}
		if c.want == Violation && (r.Failed == nil || r.Failed.Pos.Line != c.line) {
			t.Errorf("%s: failed assertion %v, want line %d", c.file, r.Failed, c.line)
		}
	}
}
