package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// expiredLimit replaces cLimitContext: the C program's time limit is
// already past when its check begins, while the run itself (SIGINT,
// SIGTERM) goes on. A time-out without the clock.
func expiredLimit(t *testing.T) {
	t.Helper()
	old := cLimitContext
	cLimitContext = func(ctx context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
		return context.WithDeadline(ctx, time.Unix(0, 0))
	}
	t.Cleanup(func() { cLimitContext = old })
}

// TestCheckCTimeoutInSummary injects a C time-out into check and bench c.
// It must be in the summary's time-outs, text and JSON, with exit status
// 3, and a bench c cell must say "timeout". With a cold compile cache the
// time limit stops clang: that case was missing from the summary
// ("timeouts":[] with exit status 3), its JSON status was "limit" and bench
// c's cell a mere limit (robust7).
func TestCheckCTimeoutInSummary(t *testing.T) {
	testcorpus.NeedProgram(t, cfront.Clang)
	prog := filepath.Join("..", "..", "examples", "c", "chase-lev-bug.c")
	warm := t.TempDir()
	t.Setenv("MUSKET_CACHE_DIR", warm)
	var out, errOut bytes.Buffer
	if code := runCheck([]string{"-model", "sc", prog}, &out, &errOut); code != exitOK {
		t.Fatalf("the check without a time-out: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	expiredLimit(t)
	for _, cache := range []string{"warm", "cold"} {
		for _, engine := range []string{"auto", "smt", "graph", "enum", "both"} {
			for _, asJSON := range []bool{false, true} {
				dir := warm
				if cache == "cold" {
					dir = t.TempDir()
				}
				t.Setenv("MUSKET_CACHE_DIR", dir)
				args := []string{"-model", "sc", "-engine", engine, "-timeout", "5s", prog}
				if asJSON {
					args = append([]string{"-json"}, args...)
				}
				out.Reset()
				errOut.Reset()
				code := runCheck(args, &out, &errOut)
				where := cache + " " + strings.Join(args, " ")
				if code != exitLimit {
					t.Errorf("%s: exit %d, want %d\n%s%s", where, code, exitLimit, out.String(), errOut.String())
				}
				if !asJSON {
					if !strings.Contains(errOut.String(), "timed out (limit 5s each): chase-lev-bug") {
						t.Errorf("%s: no time-out in the summary:\n%s%s", where, out.String(), errOut.String())
					}
					continue
				}
				lines := strings.Split(strings.TrimSpace(out.String()), "\n")
				var one struct {
					Status  string `json:"status"`
					Verdict string `json:"verdict"`
				}
				var sum struct {
					Summary checkSummary `json:"summary"`
				}
				if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &one) != nil || json.Unmarshal([]byte(lines[1]), &sum) != nil {
					t.Errorf("%s: not two JSON lines:\n%s", where, out.String())
					continue
				}
				if one.Status != "timeout" || strings.Join(sum.Summary.Timeouts, ",") != "chase-lev-bug" || sum.Summary.ExitStatus != exitLimit {
					t.Errorf("%s: status %q, summary %+v; want timeout, [chase-lev-bug], 3", where, one.Status, sum.Summary)
				}
			}
		}
	}
	// bench c's cell, in this process (where the injection applies).
	t.Setenv("MUSKET_CACHE_DIR", t.TempDir())
	for _, engine := range []string{"auto", "smt"} {
		c := benchCInProcess(prog, cColumns[0], cCheckOptions{bound: 2, timeout: 5 * time.Second, engine: engine, inProcess: true})
		if c.Verdict != cTimeout {
			t.Errorf("bench c, engine %s: %+v, want %s", engine, c, cTimeout)
		}
	}
}
