package cfront

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// semTargets are the models and targets every semantic test runs under:
// C-level models as they are, hardware targets through the C11 mappings.
var semTargets = []struct{ model, target string }{
	{"sc", ""}, {"rc11", ""}, {"tso", "x86"}, {"aarch64", "aarch64"}, {"power", "power"}, {"riscv", "riscv"},
}

// runNative compiles a C test with clang-14 and runs it: the verdict of
// a sequential or deterministic program on this machine (x86-64, little
// endian). An assertion that fails aborts the program.
func runNative(t *testing.T, file string, extra ...string) Verdict {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "a.out")
	args := append([]string{"-O1", "-pthread", "-w", "-o", bin, file}, extra...)
	if out, err := exec.Command(Clang, args...).CombinedOutput(); err != nil {
		t.Fatalf("native compile of %s: %v\n%s", file, err, out)
	}
	if err := exec.Command(bin).Run(); err != nil {
		return Violation
	}
	return Safe
}

// TestSemantics checks plain C semantics (thread-local variables,
// mixed-size accesses, store forwarding, builtins) under every model and
// target: a sequential or deterministic program has the same verdict on
// all of them, the one its native run gives.
func TestSemantics(t *testing.T) {
	needClang(t)
	for _, c := range []struct {
		file   string
		want   Verdict
		line   int  // the failing assertion's line (Violation)
		native bool // deterministic: a native run gives the verdict too
		bound  int
	}{
		{"tls.c", Safe, 0, true, 2},
		{"tls_bug.c", Violation, 17, true, 2},
	} {
		path := filepath.Join("testdata", "sem", c.file)
		t.Run(strings.TrimSuffix(c.file, ".c"), func(t *testing.T) {
			if c.native {
				if got := runNative(t, path); got != c.want {
					t.Fatalf("native run: %v, want %v (the test's expectation is wrong)", got, c.want)
				}
			}
			for _, mt := range semTargets {
				r, err := Check(context.Background(), path, CheckOptions{Bound: c.bound, Target: mt.target, Model: model(t, mt.model), ModelName: mt.model})
				if err != nil {
					t.Fatalf("%s: %v", mt.model, err)
				}
				if r.Verdict != c.want {
					t.Fatalf("%s: verdict %v (%v), want %v", mt.model, r.Verdict, r.Result.Err, c.want)
				}
				if c.want == Violation && (r.Failed == nil || r.Failed.Pos.Line != c.line) {
					t.Errorf("%s: failed assertion %v, want line %d", mt.model, r.Failed, c.line)
				}
			}
		})
	}
}
