package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestLKMMFamilyVerdicts generates classic tests of the Linux kernel's
// model, checks their names and runs them under the kernel's model
// (linux-kernel.cfg) with both engines (a disagreement fails), against
// the verdicts the kernel's own litmus tests give them
// (tools/memory-model/litmus-tests of the kernel, "Never" or
// "Sometimes") and those of Alglave, Maranget, McKenney, Parri and
// Stern, "Frightening Small Children and Disconcerting Grown-ups:
// Concurrency in the Linux Kernel" (ASPLOS 2018).
func TestLKMMFamilyVerdicts(t *testing.T) {
	tests := []struct {
		cycle, name string
		ok          bool // the condition is reachable
	}{
		{"PodWWOnceOnce RfeOnceOnce PodRROnceOnce FreOnceOnce", "C-MP+poonceonces", true},
		{"FenceWmbdWWOnceOnce RfeOnceOnce FenceRmbdRROnceOnce FreOnceOnce", "C-MP+fencewmbonceonce+fencermbonceonce", false},
		{"PodWWOnceRelease RfeReleaseAcquire PodRRAcquireOnce FreOnceOnce", "C-MP+pooncerelease+poacquireonce", false},
		{"PodWROnceOnce FreOnceOnce PodWROnceOnce FreOnceOnce", "C-SB+poonceonces", true},
		{"FenceMbdWROnceOnce FreOnceOnce FenceMbdWROnceOnce FreOnceOnce", "C-SB+fencembonceonces", false},
		{"PodRWOnceOnce RfeOnceOnce PodRWOnceOnce RfeOnceOnce", "C-LB+poonceonces", true},
		{"FenceMbdRWOnceOnce RfeOnceOnce DpCtrldWOnceOnce RfeOnceOnce", "C-LB+fencembonceonce+ctrlonceonce", false},
		{"PodRWAcquireOnce RfeOnceOnce PodRWOnceRelease RfeReleaseAcquire", "C-LB+poacquireonce+pooncerelease", false},
		{"DpDatadWOnceOnce RfeOnceOnce DpDatadWOnceOnce RfeOnceOnce", "C-LB+dataonceonces", false},
		{"FenceMbdWWOnceOnce WseOnceOnce FenceMbdWROnceOnce FreOnceOnce", "C-R+fencembonceonces", false},
		{"PodWWOnceOnce WseOnceOnce PodWROnceOnce FreOnceOnce", "C-R+poonceonces", true},
		{"FenceWmbdWWOnceOnce RfeOnceAcquire PodRWAcquireOnce WseOnceOnce", "C-S+fencewmbonceonce+poacquireonce", false},
		{"RfeOnceOnce PodRROnceOnce FreOnceOnce RfeOnceOnce PodRROnceOnce FreOnceOnce", "C-IRIW+poonceonces+OnceOnce", true},
		{"RfeOnceOnce FenceMbdRROnceOnce FreOnceOnce RfeOnceOnce FenceMbdRROnceOnce FreOnceOnce", "C-IRIW+fencembonceonces+OnceOnce", false},
		{"RfeOnceOnce PodRWOnceRelease RfeReleaseOnce FenceRmbdRROnceOnce FreOnceOnce", "C-WRC+pooncerelease+fencermbonceonce+Once", false},
		{"RfeOnceOnce PodRWOnceOnce RfeOnceOnce PodRROnceOnce FreOnceOnce", "C-WRC+poonceonces+Once", true},
		{"PodWWOnceRelease RfeReleaseAcquire PodRWAcquireRelease RfeReleaseAcquire PodRRAcquireOnce FreOnceOnce", "C-ISA2+pooncerelease+poacquirerelease+poacquireonce", false},
		// Release-acquire is not transitive through a write in
		// coherence (Z6.0, "Frightening Small Children", section 3).
		{"PodWWOnceRelease RfeReleaseAcquire PodRWAcquireOnce WseOnceOnce FenceMbdWROnceOnce FreOnceOnce", "C-Z6.0+pooncerelease+poacquireonce+fencembonceonce", true},
		// Exchanges: xchg() is a full barrier, xchg_relaxed() none.
		{"RmwMbMb PodWR Hat RmwMbMb PodWR Hat", "C-RR+RR+rmwmbmb-pos", false},
		{"RmwOnceOnce PodWR Hat RmwOnceOnce PodWR Hat", "C-RR+RR+rmwonceonce-pos", true},
		{"PodWWOnceRelease RfeReleaseAcquire RmwAcquireAcquire PodWR Fre", "C-MP+pooncerelease+rmwacquireacquire-po", false},
		{"PodWW Rfe RmwReleaseRelease PodWR Fre", "C-MP+po+rmwreleaserelease-po", true},
	}
	corpus := testcorpus.Dir(t)
	a, err := LookupArch("LKMM")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	want := map[string]bool{}
	for _, c := range tests {
		es, err := a.ParseCycle([]string{c.cycle})
		if err != nil {
			t.Fatalf("%q: %v", c.cycle, err)
		}
		tt, err := Build(a, es)
		if err != nil {
			t.Fatalf("%q: %v", c.cycle, err)
		}
		if tt.Name() != c.name {
			t.Errorf("%q: named %s, want %s", c.cycle, tt.Name(), c.name)
		}
		text := testText(t, tt)
		p := filepath.Join(dir, strings.ReplaceAll(tt.Name(), "+", "_")+".litmus")
		if want[p] {
			t.Fatalf("two tests named %s", p)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		want[p] = c.ok
	}
	checkVerdicts(t, files, lkmmOptions(corpus, "both"), want, "the kernel's verdicts")
}
