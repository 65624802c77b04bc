package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestCheckC runs 'musket check' on C programs: the verdict words, the
// exit statuses (0 pass, 1 fail, 2 clang's errors and refused C, 3 bound
// too small) and the witness with source lines.
func TestCheckC(t *testing.T) {
	testcorpus.NeedProgram(t, cfront.Clang)
	dir := filepath.Join("..", "..", "internal", "cfront", "testdata")
	dot := filepath.Join(t.TempDir(), "w.dot")
	raceDot := filepath.Join(t.TempDir(), "race.dot")
	inc := filepath.Join(dir, "sem", "inc")
	t.Setenv("MUSKET_CACHE_DIR", t.TempDir())
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"-model", "rc11", "mp_ok.c"}, exitOK, "mp_ok: PASS (target C, model rc11, bound 2)"},
		// Symmetric workers: reduced by default, every execution with
		// -symmetry=false.
		{[]string{"-model", "rc11", "-engine", "graph", "-stats", "sym_trylock.c"}, exitOK, "graph engine: 4 complete executions"},
		{[]string{"-model", "rc11", "-engine", "graph", "-stats", "sym_trylock.c"}, exitOK, "symmetry reduction: 3 graphs left out"},
		{[]string{"-model", "rc11", "-engine", "graph", "-stats", "-symmetry=false", "sym_trylock.c"}, exitOK, "graph engine: 21 complete executions"},
		{[]string{"-model", "rc11", "-no-cache", "mp_ok.c"}, exitOK, "mp_ok: PASS (target C, model rc11, bound 2)"},
		// With clang's IR from the compile cache, the limit runs out in
		// the lowering or in the search (ttas4.c takes seconds): a
		// timeout all the same. (mp_ok.c, once the case here, could end
		// within the millisecond from the cache on a fast machine.)
		{[]string{"-model", "rc11", "-timeout", "1ms", "ttas4.c"}, exitLimit, ""},
		{[]string{"-model", "rc11", "-witness", dot, "mp_rlx.c"}, exitFailed, "mp_rlx.c:18: assertion"},
		{[]string{"-target", "aarch64", "mp_rlx.c"}, exitFailed, "mp_rlx: FAIL (target aarch64, model aarch64, bound 2)"},
		// -target x86 (tso): under auto the graph engine answers first
		// (the SMT engine takes seconds on this program).
		{[]string{"-target", "x86", "-stats", "treiber.c"}, exitOK, "graph engine: 4 complete executions"},
		// ARMv8: the graph engine explores aarch64.cat (HMC), and
		// refuses by name a relaxed atomic whose write a later read of its
		// thread may take early, in a cycle through the program (a CAS
		// retried only when it fails, casloop.c, is decided).
		{[]string{"-target", "aarch64", "-engine", "graph", "mp_rlx.c"}, exitFailed, "mp_rlx: FAIL (target aarch64, model aarch64, bound 2)"},
		{[]string{"-target", "aarch64", "-engine", "graph", "casloop.c"}, exitLimit, "casloop: BOUND (target aarch64"},
		{[]string{"-target", "aarch64", "-engine", "graph", "tas_flag_bug.c"}, exitLimit, "a load buffering the graph engine does not explore"},
		// RISC-V: the graph engine explores riscv.cat (HMC) and answers
		// under auto; a revisit its argument does not cover is refused
		// when met (rvLost). xchg_rfi.c met one while C RMWs were plain
		// read-write pairs; as clang's amoswap (one event, "X": rule 3
		// orders it before the load reading its store) its load
		// buffering is forbidden, and both engines PASS.
		{[]string{"-target", "riscv", "-engine", "graph", "mp_rlx.c"}, exitFailed, "mp_rlx: FAIL (target riscv, model riscv, bound 2)"},
		{[]string{"-target", "riscv", "-stats", "treiber.c"}, exitOK, "graph engine: "},
		{[]string{"-target", "riscv", "-engine", "graph", "xchg_rfi.c"}, exitOK, "xchg_rfi: PASS (target riscv, model riscv, bound 2)"},
		{[]string{"-target", "riscv", "-engine", "smt", "xchg_rfi.c"}, exitOK, "xchg_rfi: PASS (target riscv, model riscv, bound 2)"},
		// Power: the graph engine under IMM answers a PASS (immpower.go);
		// a relaxed exchange that a store follows is left to the SMT
		// engine, which finds the load buffering IMM forbids.
		{[]string{"-target", "power", "-stats", "treiber.c"}, exitOK, "answered through IMM: the graph engine under IMM found no failure"},
		{[]string{"-target", "power", "-stats", "immpower/lbrmw.c"}, exitFailed, "IMM shortcut not taken: " + filepath.Join(dir, "immpower", "lbrmw.c") + ":23:11: a read-modify-write"},
		{[]string{"-target", "power", "-json", "immpower/lbrmw_acq.c"}, exitOK, `"via":"the graph engine under IMM`},
		{[]string{"-target", "power", "-engine", "smt", "-stats", "treiber.c"}, exitOK, "SMT engine: "},
		{[]string{"-engine", "both", "-model", "sc", "sb.c"}, exitOK, "sb: PASS"},
		// Under auto, the graph engine refuses mixed sizes and the SMT
		// engine finds only a torn failure: its reason is printed, not
		// the graph engine's "left to the SMT engine".
		{[]string{"-model", "sc", "-D", "BUG", filepath.Join("cw7", "char_view.c")}, exitLimit, "no verdict: the failing execution found reads this mixed-size access torn"},
		{[]string{"-model", "rc11", "bound.c"}, exitLimit, "bound: BOUND"},
		{[]string{"-model", "rc11", "clang_error.c"}, exitBadInput, ""},
		{[]string{"-model", "rc11", "refuse_call.c"}, exitBadInput, ""},
		{[]string{"-model", "rc11", "-liveness", "spin_forever.c"}, exitFailed, "spin_forever: LIVELOCK"},
		{[]string{"-model", "rc11", "-races", "race_plain.c"}, exitFailed, "race_plain: RACE"},
		{[]string{"-model", "rc11", "-races", "-engine", "both", "race_plain.c"}, exitFailed, "DATA RACE (data-race): P1 writes data (plain) at race_plain.c:6\n    and P2 reads data (plain) at race_plain.c:7"},
		{[]string{"-model", "rc11", "-races", "-engine", "both", "race_free.c"}, exitOK, "race_free: PASS"},
		// Races are on by default under the C11 models; not applicable
		// on a hardware target.
		{[]string{"-model", "rc11", "-witness", raceDot, "race_plain.c"}, exitFailed, "race_plain: RACE"},
		{[]string{"-model", "imm", "-engine", "smt", "race_plain.c"}, exitFailed, "P2 reads data (plain) at race_plain.c:7"},
		{[]string{"-model", "rc11", "-races=false", "race_plain.c"}, exitOK, "race_plain: PASS"},
		{[]string{"-target", "aarch64", "race_plain.c"}, exitOK, "race_plain: PASS"},
		{[]string{"-target", "aarch64", "-races", "race_plain.c"}, exitBadInput, ""},
		// -explain in C terms: the execution of a race or a failure,
		// the rejected candidates of a PASS with their cycles.
		{[]string{"-model", "rc11", "-explain", "race_plain.c"}, exitFailed, "    y: R.NA[data]=0 @race_plain.c:7   reads from g (initial value)\n"},
		{[]string{"-model", "rc11", "-explain", "-races=false", "mp_rlx.c"}, exitFailed, "    w: R.A.RLX[flag]=1 @mp_rlx.c:16   reads from t (P1)\n"},
		{[]string{"-model", "rc11", "-explain", "mp_ok.c"}, exitOK, "fails coherence (irreflexive hb ; eco?)\n    cycle: r: W.NA[data]=42 @mp_ok.c:10 -sb-> s: W.A.REL[flag]=1 @mp_ok.c:11 -sw-> "},
		// -I and -D reach clang, a header's position names the header.
		// (The reader reads data whatever the flag says: a data race,
		// reported by default; these rows are about -I and -D.)
		{[]string{"-model", "rc11", "-I", inc, "sem/flags_hdr.c"}, exitFailed, "P2 reads data (plain) at flags_hdr.c:19"},
		{[]string{"-model", "rc11", "-races=false", "-I", inc, "sem/flags_hdr.c"}, exitOK, "flags_hdr: PASS"},
		{[]string{"-model", "rc11", "-I", inc, "-D", "WEAK", "sem/flags_hdr.c"}, exitFailed, "inc/weak.h:14: assertion d == 42 fails"},
		{[]string{"-model", "rc11", "-I", inc, "--", "-DWEAK=1", "sem/flags_hdr.c"}, exitFailed, "inc/weak.h:14: assertion"},
		{[]string{"-model", "rc11", "-std=c11", "-I", inc, "sem/flags_hdr.c"}, exitBadInput, ""}, // typeof is GNU C
		// clang's glued spellings, as the suites' scripts write them.
		{[]string{"-model", "rc11", "-I" + inc, "-DWEAK", "sem/flags_hdr.c"}, exitFailed, "inc/weak.h:14: assertion d == 42 fails"},
		// A compare-and-swap of a word whose halves are written
		// separately (lockref): defined by AArch64's model only.
		{[]string{"-model", "rc11", "sem/splitrmw_small_bug.c"}, exitLimit, "splitrmw_small_bug.c:28:12: unsupported mixed-size access: an atomic read-modify-write of 8 bytes over 2 parts"},
		{[]string{"-target", "aarch64", "-engine", "both", "sem/splitrmw_small_bug.c"}, exitFailed, "splitrmw_small_bug.c:31: assertion v == 6L << 32 fails"},
	} {
		args := append([]string{}, c.args...)
		args[len(args)-1] = filepath.Join(dir, args[len(args)-1])
		var stdout, stderr bytes.Buffer
		code := runCheck(args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stdout.String(), c.out) {
			t.Errorf("check %v: exit %d, want %d; stdout %q, stderr %q", c.args, code, c.code, stdout.String(), stderr.String())
		}
	}
	b, err := os.ReadFile(dot)
	if err != nil || !strings.Contains(string(b), "@mp_rlx.c:") {
		t.Errorf("the witness does not name source lines: %v", err)
	}
	// A race's witness draws the race between its two accesses.
	if b, err := os.ReadFile(raceDot); err != nil || !strings.Contains(string(b), `label="data-race"`) || !strings.Contains(string(b), "W.NA[data]=1 @race_plain.c:6") {
		t.Errorf("the race's witness does not draw the race in C terms (%v):\n%s", err, b)
	}
	// In C terms: the variables' names, never the lowering's.
	for _, llvm := range []string{"%start", "%done", "main.1."} {
		if strings.Contains(string(b), llvm) {
			t.Errorf("the witness names %q:\n%s", llvm, b)
		}
	}
}

// TestCheckCConf checks a C program written with musket/lkmm.h under the
// Linux-kernel model named by herd7's .cfg file (-conf).
func TestCheckCConf(t *testing.T) {
	testcorpus.NeedProgram(t, cfront.Clang)
	cfg := filepath.Join(testcorpus.Dir(t), "cat", "linux", "linux-kernel.cfg")
	var stdout, stderr bytes.Buffer
	code := runCheck([]string{"-conf", cfg, filepath.Join("..", "..", "internal", "cfront", "testdata", "lkmm_mp_bug.c")}, &stdout, &stderr)
	if code != exitFailed || !strings.Contains(stdout.String(), "lkmm_mp_bug.c:26: assertion READ_ONCE(data) == 42 fails") {
		t.Errorf("check -conf: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestCheckCBothUnanswered checks that -engine both says which engines
// gave no answer, where it used to print the one answer as if the
// engines had been compared (an arbitrary value: the explicit and graph
// engines refuse it). The one answer is printed, unconfirmed: exit
// status 3 (robust6).
func TestCheckCBothUnanswered(t *testing.T) {
	testcorpus.NeedProgram(t, cfront.Clang)
	t.Setenv("MUSKET_CACHE_DIR", t.TempDir())
	path := filepath.Join("..", "..", "internal", "cfront", "testdata", "sem", "genmc_api.c")
	var stdout, stderr bytes.Buffer
	code := runCheck([]string{"-model", "sc", "-engine", "both", path}, &stdout, &stderr)
	if code != exitLimit || !strings.Contains(stdout.String(), "genmc_api: FAIL") ||
		!strings.Contains(stderr.String(), "unconfirmed: the other engines did not finish (graph (unsupported), enum (error)); this verdict is one engine's alone") {
		t.Errorf("exit %d; stdout %q; stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestTimeLimitWords: a C program's TIMEOUT says which limit, never Go's
// "context deadline exceeded" (robust6: printed when the compile cache
// was cold); other errors are kept.
func TestTimeLimitWords(t *testing.T) {
	other := errors.New("the solver gave up")
	for _, tc := range []struct {
		r    result.Result
		want string
	}{
		{result.Result{Status: result.Timeout, Err: context.DeadlineExceeded}, "no verdict within the time limit (2s)"},
		{result.Result{Status: result.Timeout, Err: fmt.Errorf("lowering: %w", context.DeadlineExceeded)}, "no verdict within the time limit (2s)"},
		{result.Result{Status: result.Timeout, Err: other}, "the solver gave up"},
		{result.Result{Status: result.Failed, Err: other}, "the solver gave up"},
	} {
		if got := timeLimitWords(&tc.r, 2*time.Second); got == nil || got.Error() != tc.want {
			t.Errorf("%v: %v, want %q", tc.r.Err, got, tc.want)
		}
	}
	if got := timeLimitWords(&result.Result{Status: result.Timeout}, time.Second); got != nil {
		t.Errorf("no error: %v", got)
	}
}
