package cfront

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestPOSIXSync checks the synchronisation primitives of condvar.go and
// posixsync.go (condition variables, barriers, C11 <threads.h>,
// read-write locks, semaphores, once-calls), each program with its bug
// variants (-D), under sc, rc11, imm and aarch64. Every configuration
// runs on the graph engine (the C-level models) and the SMT engine, and
// the two must give the same verdict; the default run takes the graph
// engine under the core models only (MUSKET_LONG=1: all, and the
// programs whose native run shows their verdict run natively too).
func TestPOSIXSync(t *testing.T) {
	needClang(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	type want struct {
		v    Verdict
		line int
	}
	for _, c := range []struct {
		file, def string
		live      bool            // -liveness
		want      Verdict         // under every model but those of per
		line      int             // the failing assertion's or the wait's line
		per       map[string]want // "rc11": the verdict under rc11 (a race)
		native    Verdict         // Unknown: no native run shows it (or it hangs)
		core      []string        // the default run's models (none: MUSKET_LONG=1 only)
		graphOnly bool            // the SMT engine takes minutes: sc on the graph engine only
	}{
		// A correct bounded buffer: while-loop waits end (was refused).
		{file: "cv_pc.c", want: Safe, native: Safe, core: []string{"rc11"}},
		// if instead of while: a spurious wake-up reads too early.
		{file: "cv_if.c", want: Violation, line: 24, native: Safe, core: []string{"sc"}},
		// Two consumers, if-waits, broadcast: one finds the item taken.
		{file: "cv_if2.c", want: Violation, line: 25, native: Unknown},
		// The flag published before the data, in separate sections.
		{file: "cv_order.c", want: Violation, line: 28, native: Unknown},
		// The predicate is never set: safe, blocked; LIVELOCK with -liveness.
		{file: "cv_never.c", want: Safe, native: Unknown},
		{file: "cv_never.c", live: true, want: Livelock, line: 25, native: Unknown, core: []string{"rc11"}},
		// Lost wake-ups: no signal, a signal before the flag; and a good one.
		{file: "cv_lost.c", live: true, want: Livelock, line: 33, native: Unknown, core: []string{"rc11"}},
		{file: "cv_lost.c", def: "EARLY", live: true, want: Livelock, line: 33, native: Unknown},
		{file: "cv_lost.c", def: "GOOD", live: true, want: Safe, native: Safe},
		// C11 threads, mutexes, condition variables, call_once.
		{file: "c11_threads.c", want: Safe, native: Safe},
		{file: "c11_threads.c", def: "BUG", want: Violation, line: 40, native: Violation, core: []string{"sc"}},
		// A barrier used twice; the serial thread once per round.
		{file: "barrier.c", want: Safe, native: Safe, core: []string{"rc11"}},
		{file: "barrier.c", def: "BUG", want: Violation, line: 17, per: map[string]want{"rc11": {Race, 0}, "imm": {Race, 0}}, native: Unknown},
		// The program's own sem_wait/sem_post (a lost post: main's second
		// wait spins): checked as written, never as POSIX's.
		{file: "own_sem.c", want: BoundHit, native: Unknown, core: []string{"sc"}, graphOnly: true},
		// Timed forms: a cond wait that may time out, a timed lock that
		// may fail while the mutex is held (one attempt).
		{file: "timed.c", want: Safe, native: Safe},
		{file: "timed.c", def: "BUG", want: Violation, line: 31, native: Unknown},
		{file: "timed.c", def: "BUGLOCK", want: Violation, line: 36, native: Unknown, core: []string{"rc11"}},
		// A read-write lock and two semaphores.
		{file: "rwlock_sem.c", want: Safe, native: Safe},
		{file: "rwlock_sem.c", def: "BUG", want: Violation, line: 26, per: map[string]want{"rc11": {Race, 0}, "imm": {Race, 0}}, native: Unknown, core: []string{"sc"}},
		{file: "rwlock_sem.c", def: "BUGSEM", want: Violation, line: 57, per: map[string]want{"rc11": {Race, 0}, "imm": {Race, 0}}, native: Unknown},
	} {
		path := filepath.Join("testdata", "sem", c.file)
		name := c.file
		var defs []string
		if c.def != "" {
			name += "-D" + c.def
			defs = []string{c.def}
		}
		if c.live {
			name += "-liveness"
		}
		t.Run(name, func(t *testing.T) {
			if !long && len(c.core) == 0 {
				t.Skip("MUSKET_LONG=1 runs it (the default run checks a few programs of the table)")
			}
			if long && c.native != Unknown {
				bin := filepath.Join(t.TempDir(), "a.out")
				args := []string{"-O0", "-pthread", "-w", "-o", bin, path}
				if c.def != "" {
					args = append(args, "-D"+c.def)
				}
				if out, err := exec.Command(Clang, args...).CombinedOutput(); err != nil {
					t.Fatalf("native compile: %v\n%s", err, out)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
				defer cancel()
				got := Safe
				if err := exec.CommandContext(ctx, bin).Run(); ctx.Err() != nil {
					t.Fatalf("native run: no end in 2 minutes")
				} else if err != nil {
					got = Violation
				}
				if got != c.native {
					t.Fatalf("native run: %v, want %v", got, c.native)
				}
			}
			for _, mt := range []struct{ model, target string }{{"sc", ""}, {"rc11", ""}, {"imm", ""}, {"aarch64", "aarch64"}} {
				if (!long || c.graphOnly) && !slices.Contains(c.core, mt.model) {
					continue
				}
				w := want{c.want, c.line}
				if p, ok := c.per[mt.model]; ok {
					w = p
				}
				engines := []string{"graph", "smt"}
				if mt.target != "" {
					engines = []string{"smt"}
				} else if !long || c.graphOnly {
					engines = []string{"graph"}
				}
				for _, e := range engines {
					r, err := Check(context.Background(), path, CheckOptions{Bound: 2, Target: mt.target, Model: model(t, mt.model), ModelName: mt.model,
						Engine: e, Races: mt.model == "rc11" || mt.model == "imm", Liveness: c.live, Clang: ClangOptions{Defines: defs}})
					if err != nil {
						t.Fatalf("%s %s: %v", mt.model, e, err)
					}
					if r.Verdict != w.v {
						t.Fatalf("%s %s: verdict %v (%v), want %v", mt.model, e, r.Verdict, r.Result.Err, w.v)
					}
					if (w.v == Violation || w.v == Livelock) && (r.Failed == nil || r.Failed.Pos.Line != w.line) {
						t.Errorf("%s %s: at %v, want line %d", mt.model, e, r.Failed, w.line)
					}
				}
			}
		})
	}
}
