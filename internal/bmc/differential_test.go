package bmc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

const corpus = "../../../shared/corpus"

// diffSuite is a folder both engines run, under one model.
type diffSuite struct {
	dir, arch, model, expect string
	// every: by default only every every-th test runs (a deterministic
	// subset); MUSKET_LONG=1 runs them all.
	every int
	// expectedOnly runs only the tests with a reference verdict (C11's
	// TSan has none: its CAS loops run to the time limit).
	expectedOnly bool
	// name names the subtest when the architecture has several suites.
	name string
}

var diffSuites = []diffSuite{
	{dir: "litmus/X86", arch: "X86", model: "tso", expect: "litmus/expected/TSO.csv", every: 1},
	{dir: "litmus/PPC", arch: "PPC", model: "power", expect: "litmus/expected/PPC.csv", every: 40},
	{dir: "litmus/AARCH64", arch: "AArch64", model: "aarch64", expect: "litmus/expected/ARM8.csv", every: 80},
	// The mixed-size tests: chunked accesses, sm, values cut and assembled.
	{dir: "litmus/AARCH64/mixed", arch: "AArch64", model: "aarch64", expect: "litmus/expected/ARM8.csv", every: 20, name: "AArch64-mixed"},
	{dir: "litmus/RISCV", arch: "RISCV", model: "riscv", expect: "litmus/expected/RISCV.csv", every: 80},
	{dir: "litmus/C11", arch: "C", model: "rc11", expect: "litmus/expected/RC11.csv", every: 1, expectedOnly: true},
}

func stateSet(r *result.Result) string {
	var keys []string
	for _, s := range r.States {
		keys = append(keys, s.Key())
	}
	sort.Strings(keys)
	return strings.Join(keys, " | ")
}

// TestDifferential runs the explicit and the SMT engine on every test of
// the suites and fails on any difference in verdict or in the set of
// final states.
func TestDifferential(t *testing.T) {
	long := os.Getenv("MUSKET_LONG") == "1"
	for _, s := range diffSuites {
		name := s.arch
		if s.name != "" {
			name = s.name
		}
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(corpus, s.dir)
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("corpus not found: %v", err)
			}
			if _, err := litmus.Lookup(s.arch); err != nil {
				t.Skipf("no %s front-end", s.arch)
			}
			files, err := batch.Files([]string{dir})
			if err != nil {
				t.Fatal(err)
			}
			if !long && s.every > 1 {
				var sub []string
				for i := 0; i < len(files); i += s.every {
					sub = append(sub, files[i])
				}
				files = sub
			}
			m, name, err := batch.LoadModel(s.model, nil)
			if err != nil {
				t.Skipf("model %s: %v", s.model, err)
			}
			var table *expect.Table
			if s.expect != "" {
				table, _ = expect.Read(filepath.Join(corpus, s.expect))
			}
			if s.expectedOnly && table != nil {
				var sub []string
				for _, f := range files {
					if _, ok := table.Lookup(f); ok {
						sub = append(sub, f)
					}
				}
				files = sub
			}
			fe, _ := litmus.Lookup(s.arch)
			tags := fe.Tags()
			type outcome struct{ same, agree, compared bool }
			var mu sync.Mutex
			var diffs []string
			same, agree, compared, skipped := 0, 0, 0, 0
			work := make(chan string)
			var wg sync.WaitGroup
			for w := 0; w < 2; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for path := range work {
						lt, err := litmus.ParseFile(path)
						if err != nil {
							mu.Lock()
							skipped++
							mu.Unlock()
							continue
						}
						ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
						a := enum.Run(ctx, lt, m, name, enum.Options{TagNames: tags, Uniproc: lt.Mixed})
						b := bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: tags})
						cancel()
						mu.Lock()
						if a.Status != result.Done {
							skipped++
							mu.Unlock()
							continue
						}
						switch {
						case b.Status != result.Done:
							diffs = append(diffs, fmt.Sprintf("%s: smt %s: %v", path, b.Status, b.Err))
						case a.Ok() != b.Ok() || stateSet(a) != stateSet(b) || fmt.Sprint(a.Flags) != fmt.Sprint(b.Flags):
							diffs = append(diffs, fmt.Sprintf("%s: enum %v {%s} flags %v, smt %v {%s} flags %v", path, a.Ok(), stateSet(a), a.Flags, b.Ok(), stateSet(b), b.Flags))
						default:
							same++
						}
						if table != nil && b.Status == result.Done {
							if want, ok := table.Lookup(path); ok {
								compared++
								if want == b.Ok() {
									agree++
								}
							}
						}
						mu.Unlock()
					}
				}()
			}
			for _, f := range files {
				work <- f
			}
			close(work)
			wg.Wait()
			sort.Strings(diffs)
			for _, d := range diffs {
				t.Error(d)
			}
			t.Logf("%s: %d/%d tests the same under both engines (%d skipped); smt agrees with the expected verdicts on %d/%d", s.arch, same, len(files)-skipped, skipped, agree, compared)
		})
	}
}
