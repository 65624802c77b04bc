package smt

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// z3Mapped says whether libz3 is mapped into this process.
func z3Mapped(t *testing.T) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps to look at (%v): the test needs Linux", err)
	}
	return strings.Contains(string(maps), "libz3")
}

// TestZ3LoadedOnFirstUse runs TestZ3LoadChild in a process of its own
// (this one may have loaded libz3 already): libz3 is not loaded at
// start-up, nor by the memory accounting, only by the first context,
// which gets the memory limit set before.
func TestZ3LoadedOnFirstUse(t *testing.T) {
	if _, err := os.ReadFile("/proc/self/maps"); err != nil {
		t.Skipf("no /proc/self/maps to look at (%v): the test needs Linux", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestZ3LoadChild$", "-test.v")
	cmd.Env = append(os.Environ(), "MUSKET_Z3_LOAD_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestZ3LoadChild") {
		t.Fatalf("the child test failed: %v\n%s", err, out)
	}
}

func TestZ3LoadChild(t *testing.T) {
	if os.Getenv("MUSKET_Z3_LOAD_CHILD") == "" {
		t.Skip("run by TestZ3LoadedOnFirstUse in a fresh process")
	}
	if z3Mapped(t) {
		t.Fatal("libz3 is loaded at start-up")
	}
	if n := AllocatedBytes(); n != 0 {
		t.Errorf("AllocatedBytes before any context = %d, want 0", n)
	}
	setZ3MemoryLimit(3 << 30)
	if z3Mapped(t) {
		t.Fatal("libz3 was loaded by the memory accounting")
	}
	c := NewContext()
	defer c.Close()
	if !z3Mapped(t) {
		t.Fatal("libz3 is not loaded after NewContext")
	}
	if got := z3GlobalParam("memory_max_size"); got != "3072" {
		t.Errorf("memory_max_size = %q after loading, want the limit set before (3072)", got)
	}
	if v := Version(); !strings.Contains(v, ".") || strings.Contains(v, "not available") {
		t.Errorf("Version() = %q", v)
	}
}
