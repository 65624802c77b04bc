package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoMemoryLimit: fix and gen watch -memory (robust5: they did not,
// and fix went past -memory 64M to 210 MB instead of stopping with exit
// status 3). The inputs take far longer than the watcher's period, and
// the test process's own heap passes 16 MiB.
func TestGoMemoryLimit(t *testing.T) {
	t.Cleanup(applyResourceDefaults) // -memory sets the process's limit
	var b strings.Builder
	b.WriteString("X86 big\n{ x=0; y=0; }\n P0 | P1 ;\n")
	for i := 0; i < 20000; i++ {
		b.WriteString(" MOV [x],$1 | MOV [y],$1 ;\n")
	}
	b.WriteString(" MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n")
	dir := t.TempDir()
	big := filepath.Join(dir, "big.litmus")
	if err := os.WriteFile(big, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fix", "-memory", "16M", big}, "memory limit reached"},
		{[]string{"gen", "-memory", "16M", "-arch", "X86", "-relax", "Rfe PodRR Fre PodWW PodWR PodRW Wse Coe", "-size", "40", "-o", filepath.Join(dir, "gen")}, "memory limit reached"},
	} {
		var out, errOut strings.Builder
		code := dispatch(tc.args, &out, &errOut)
		applyResourceDefaults()
		if code != exitLimit || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: exit %d, want %d and %q in\n%s%s", tc.args, code, exitLimit, tc.want, out.String(), errOut.String())
		}
	}
}
