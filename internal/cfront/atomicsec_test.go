package cfront

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// svStub gives a native run SV-COMP's atomic sections: one mutex.
const svStub = `#include <pthread.h>
static pthread_mutex_t svm = PTHREAD_MUTEX_INITIALIZER;
void __VERIFIER_atomic_begin(void) { pthread_mutex_lock(&svm); }
void __VERIFIER_atomic_end(void) { pthread_mutex_unlock(&svm); }
void __VERIFIER_spin_start(void) {}
void __VERIFIER_spin_end(int c) {}
`

// TestSVCOMPForms checks SV-COMP's spellings: a reach_error and a
// __VERIFIER_assert that the program defines itself (reach_error with an
// empty body: the call is the failure), and atomic sections
// (__VERIFIER_atomic_begin/end, __VERIFIER_atomic_ functions), and
// pthread_exit and GenMC's __VERIFIER_spin_start/end, and racy programs
// checked without races (each plain access as written). Each was a
// wrong verdict or a refusal before. The default run checks sc;
// MUSKET_LONG=1 every model and target.
func TestSVCOMPForms(t *testing.T) {
	t.Parallel() // no global switch or environment: it runs beside the other long tests
	needClang(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	stub := filepath.Join(t.TempDir(), "stub.c")
	if err := os.WriteFile(stub, []byte(svStub), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file   string
		native Verdict // Unknown: no native run shows it
		want   map[string]Verdict
		line   int
		core   []string // the default run's models
	}{
		// Was PASS: -O1 inlined the empty reach_error away.
		{"sv_reach.c", Violation, map[string]Verdict{"": Violation}, 16, []string{"sc"}},
		// Was refused (begin/end), and the function's section was lost.
		{"sv_atomic.c", Safe, map[string]Verdict{"": Safe}, 0, []string{"sc"}},
		{"sv_atomic_bug.c", Unknown, map[string]Verdict{"": Violation, "rc11": Race}, 40, []string{"sc"}},
		// Nested sections: one lock, never taken twice (cnt is 4, not 3).
		{"sv_atomic_nest.c", Unknown, map[string]Verdict{"": Violation}, 38, []string{"sc"}},
		// Were refused: pthread_exit, GenMC's spin annotations.
		{"pthread_exit.c", Safe, map[string]Verdict{"": Safe}, 0, []string{"rc11"}},
		{"spin_annot.c", Safe, map[string]Verdict{"": Safe}, 0, []string{"rc11"}},
		// Were PASS: -O1 forwarded a thread's store to its own load,
		// merged two loads, and so hid a wrong mutual exclusion, in
		// racy programs checked without races (sc, the targets).
		{"sv_forward.c", Unknown, map[string]Verdict{"": Violation, "rc11": Race}, 15, []string{"sc"}},
		{"sv_reread.c", Unknown, map[string]Verdict{"": Violation, "rc11": Race}, 13, []string{"aarch64"}},
		{"sv_mutex_bug.c", Unknown, map[string]Verdict{"": Violation, "rc11": Race}, 16, []string{"tso"}},
		// Was refused under rc11: a mutex access of unknown size in a
		// struct whose buffer memcpy copies whole.
		{"mutex_member.c", Safe, map[string]Verdict{"": Safe}, 0, []string{"rc11"}},
		// Was "genmc.h file not found": Musket ships its own.
		{"genmc_api.c", Unknown, map[string]Verdict{"": Violation}, 29, []string{"rc11"}},
	} {
		path := filepath.Join("testdata", "sem", c.file)
		t.Run(c.file, func(t *testing.T) {
			if c.native != Unknown {
				bin := filepath.Join(t.TempDir(), "a.out")
				if out, err := exec.Command(Clang, "-O0", "-pthread", "-w", "-o", bin, path, stub).CombinedOutput(); err != nil {
					t.Fatalf("native compile: %v\n%s", err, out)
				}
				got := Safe
				if exec.Command(bin).Run() != nil {
					got = Violation
				}
				if got != c.native {
					t.Fatalf("native run: %v, want %v", got, c.native)
				}
			}
			for _, mt := range semTargets {
				if !long && !slices.Contains(c.core, mt.model) {
					continue
				}
				want, ok := c.want[mt.model]
				if !ok {
					want = c.want[""]
				}
				checkSem(t, path, mt.model, mt.target, 2, mt.model == "rc11", want, c.line)
			}
		})
	}
}

// TestDropDeadHavocs checks that an arbitrary value nothing reads is
// deleted (a thread's unread nondet return value), and one that a store,
// a jump or an assignment to a used register reads is kept.
func TestDropDeadHavocs(t *testing.T) {
	h := func(r string) prog.Instr { return prog.Havoc{Dst: r} }
	for _, c := range []struct {
		name string
		code []prog.Instr
		kept int // Havocs kept
	}{
		{"unread", []prog.Instr{h("a"), prog.Assign{Dst: "a", Val: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: "a"}, Y: prog.Int(0)}}, prog.Assign{Dst: "ret", Val: prog.Reg{Name: "a"}}}, 0},
		{"stored", []prog.Instr{h("a"), prog.Store{Addr: prog.Addr("x"), Val: prog.Reg{Name: "a"}}}, 1},
		{"via assign", []prog.Instr{h("a"), prog.Assign{Dst: "b", Val: prog.Reg{Name: "a"}}, prog.Jump{Cond: prog.Reg{Name: "b"}, Target: "l"}}, 1},
		{"two", []prog.Instr{h("a"), h("b"), prog.Store{Addr: prog.Addr("x"), Val: prog.Reg{Name: "b"}}}, 1},
	} {
		pos := make([]prog.Pos, len(c.code))
		for i := range pos {
			pos[i].Line = i + 1
		}
		code, ps := dropDeadHavocs(c.code, pos)
		n := 0
		for _, in := range code {
			if _, ok := in.(prog.Havoc); ok {
				n++
			}
		}
		if n != c.kept || len(ps) != len(code) {
			t.Errorf("%s: %d havocs kept (want %d), %d positions for %d instructions", c.name, n, c.kept, len(ps), len(code))
		}
	}
}
