package bmc_test

import (
	"context"
	"github.com/musket-verify/musket/internal/driver"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestMutexUnreachable: the seven mutual-exclusion programs of Ponce-de-León
// et al., "BMC with Memory Models as Modules" (FMCAD 2018)
// are built so that their condition is unreachable; under each target of
// Table II (x86-TSO, Power, ARMv7) at bound 2 the engine must explore
// everything and say so, within the 5 s per program (checked
// against a loose limit here, for a loaded machine; the timings are
// BenchmarkMutex's).
func TestMutexUnreachable(t *testing.T) {
	testcorpus.Dir(t)
	files, _ := filepath.Glob(filepath.Join(corpus, "mutex", "pts", "*.pts"))
	if len(files) != 7 {
		t.Fatalf("want the seven mutex programs of the FMCAD 2018 paper in %s, found %d", filepath.Join(corpus, "mutex", "pts"), len(files))
	}
	for _, target := range []string{"x86", "power", "armv7"} {
		m, name, err := driver.Models{}.ForTarget(target)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			t.Run(target+"/"+filepath.Base(f), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				pr, err := bmc.CheckProgram(ctx, f, m, name, bmc.ProgramOptions{Target: target, Bound: 2})
				if err != nil {
					t.Fatal(err)
				}
				if pr.Result.Status != result.Done {
					// The 60 s limit is the wall-clock guard (the 5 s target
					// is BenchmarkMutex's); a timeout is not UNREACHABLE.
					t.Fatalf("%s: %v", pr.Result.Status, pr.Result.Err)
				}
				if pr.Reachable {
					t.Errorf("%s: REACHABLE under %s, want UNREACHABLE", pr.Name, target)
				}
				if !pr.Result.Bounded {
					t.Errorf("%s: not marked bounded", pr.Name)
				}
				s := pr.Report.Stats
				t.Logf("%s %s: %.3fs (encode %.3fs, solve %.3fs); %d events, %d vars, %d constraints, may %d must %d",
					pr.Name, target, pr.Result.Time.Seconds(), pr.Report.Encode.Seconds(), pr.Report.Solve.Seconds(), s.Events, s.Vars(), s.Constraints, s.RelPairs, s.MustPairs)
			})
		}
	}
}

// TestMutexU2: the unrolled C versions, run as litmus tests under x86-TSO
// (plain accesses: what the x86 mapping of relaxed accesses gives), are
// unreachable too; on the small ones the final states match the explicit
// engine.
func TestMutexU2(t *testing.T) {
	if _, err := litmus.Lookup("C"); err != nil {
		t.Skip("no C front-end")
	}
	testcorpus.Dir(t)
	files, _ := filepath.Glob(filepath.Join(corpus, "mutex", "litmus", "*U2.litmus"))
	if len(files) == 0 {
		t.Fatal("no mutex litmus tests in the corpus")
	}
	m, err := cat.LoadBuiltin("tso")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("C")
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		r := bmc.Run(ctx, lt, m, "tso", bmc.Options{TagNames: fe.Tags()})
		cancel()
		if r.Status != result.Done || r.Ok() {
			t.Errorf("%s: %s %v Ok=%v, want No", lt.Name, r.Status, r.Err, r.Ok())
			continue
		}
		if lt.Name == "Parker" || lt.Name == "Peterson" {
			a := enum.Run(context.Background(), lt, m, "tso", enum.Options{TagNames: fe.Tags()})
			if stateSet(a) != stateSet(r) {
				t.Errorf("%s: enum {%s}, smt {%s}", lt.Name, stateSet(a), stateSet(r))
			}
		}
	}
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

// BenchmarkMutex is a cell of Table II of "BMC with Memory Models as Modules" (FMCAD 2018) per target, for
// profiling: go test -run X -bench Mutex/power/Szymanski -cpuprofile cpu.out
func BenchmarkMutex(b *testing.B) {
	testcorpus.Dir(b)
	files, _ := filepath.Glob(filepath.Join(corpus, "mutex", "pts", "*.pts"))
	for _, target := range []string{"x86", "power", "armv7"} {
		m, name, err := driver.Models{}.ForTarget(target)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			b.Run(target+"/"+strings.TrimSuffix(filepath.Base(f), ".pts"), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					pr, err := bmc.CheckProgram(context.Background(), f, m, name, bmc.ProgramOptions{Target: target, Bound: 2})
					if err != nil {
						b.Fatal(err)
					}
					if pr.Reachable {
						b.Fatalf("%s: REACHABLE", pr.Name)
					}
				}
			})
		}
	}
}
