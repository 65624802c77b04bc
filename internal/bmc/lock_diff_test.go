package bmc_test

import (
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/spec"
	"os"
	"path/filepath"
	"sort"
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

// corpus is the shared corpus: tests that read it call testcorpus.Dir
// first (which skips them when it is missing, or fails them under CI).
var corpus = testcorpus.Path()

func stateSet(r *result.Result) string {
	var keys []string
	for _, s := range r.States {
		keys = append(keys, s.Key())
	}
	sort.Strings(keys)
	return strings.Join(keys, " | ")
}

// kernelModel loads the Linux kernel's model as linux-kernel.cfg names
// it, with herd7's library files (cos-opt.cat, cross.cat) on the include
// path, and the C front-end with the kernel's macros.
func kernelModel(t *testing.T) (*cat.Model, litmus.Frontend, map[string]bool) {
	t.Helper()
	testcorpus.Dir(t)
	dir := corpus + "/cat/linux/"
	m, err := cat.Load(dir+"linux-kernel.cat", cat.LoadOptions{Bell: dir + "linux-kernel.bell", IncludeDirs: []string{corpus + "/cat/herd"}})
	if err != nil {
		t.Fatal(err)
	}
	mac, err := litmus.ReadMacros(dir + "linux-kernel.def")
	if err != nil {
		t.Fatal(err)
	}
	return m, litmus.NewCFrontend(mac), map[string]bool{"lkmmv2": true}
}

// sameUnderBoth runs both engines on a test and reports how they differ
// ("" when they give the same verdict, final states and flags); skip is
// true when the explicit engine did not finish.
func sameUnderBoth(lt *spec.Test, m *cat.Model, fe litmus.Frontend, variants map[string]bool) (diff string, smt *result.Result, skip bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a := enum.Run(ctx, lt, m, "lkmm", enum.Options{Variants: variants, TagNames: fe.Tags()})
	b := bmc.Run(ctx, lt, m, "lkmm", bmc.Options{Variants: variants, TagNames: fe.Tags()})
	switch {
	case a.Status != result.Done:
		return "", b, true
	case b.Status != result.Done:
		return fmt.Sprintf("smt %s: %v", b.Status, b.Err), b, false
	case a.Ok() != b.Ok() || stateSet(a) != stateSet(b) || fmt.Sprint(a.Flags) != fmt.Sprint(b.Flags):
		return fmt.Sprintf("enum %v {%s} flags %v, smt %v {%s} flags %v", a.Ok(), stateSet(a), a.Flags, b.Ok(), stateSet(b), b.Flags), b, false
	}
	return "", b, false
}

// TestLocksDifferential compares the engines on spin_trylock and
// spin_is_locked (whose outcomes are choices lock.cat filters), which
// the corpus does not use, and on small lock and SRCU shapes.
func TestLocksDifferential(t *testing.T) {
	m, fe, variants := kernelModel(t)
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"MP through a lock", `C t
{}
P0(int *buf, int *flag, spinlock_t *l) { WRITE_ONCE(*buf, 1); spin_lock(l); WRITE_ONCE(*flag, 1); spin_unlock(l); }
P1(int *buf, int *flag, spinlock_t *l) { int r0; int r1; spin_lock(l); r0 = READ_ONCE(*flag); spin_unlock(l); r1 = READ_ONCE(*buf); }
exists (1:r0=1 /\ 1:r1=0)`, false},
		{"uncontended trylock", `C t
{}
P0(spinlock_t *l) { int r0; r0 = spin_trylock(l); }
exists (0:r0=0)`, false},
		{"contended trylock", `C t
{}
P0(int *x, spinlock_t *l) { spin_lock(l); WRITE_ONCE(*x, 1); spin_unlock(l); }
P1(int *x, spinlock_t *l) { int r0; int r1 = 2; r0 = spin_trylock(l); if (r0) { r1 = READ_ONCE(*x); spin_unlock(l); } }
exists (1:r0=0)`, true},
		{"trylock then lock", `C t
{}
P0(int *x, spinlock_t *l) { int r0; spin_lock(l); r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
P1(int *x, spinlock_t *l) { int r0; int r1 = 0; r0 = spin_trylock(l); if (r0) { r1 = READ_ONCE(*x); WRITE_ONCE(*x, r1 + 1); spin_unlock(l); } }
exists (x=1 /\ 1:r0=1)`, false},
		{"is_locked while another thread holds the lock", `C t
{}
P0(spinlock_t *l, int *x) { spin_lock(l); WRITE_ONCE(*x, 1); spin_unlock(l); }
P1(spinlock_t *l, int *x) { int r0; int r1; r1 = READ_ONCE(*x); r0 = spin_is_locked(l); }
exists (1:r0=1)`, true},
		{"is_locked in a critical section", `C t
{}
P0(spinlock_t *l) { int r0; spin_lock(l); r0 = spin_is_locked(l); spin_unlock(l); }
exists (0:r0=0)`, false},
		{"is_locked after an unlock", `C t
{}
P0(spinlock_t *l, int *x) { int r0; spin_lock(l); spin_unlock(l); r0 = spin_is_locked(l); }
P1(spinlock_t *l, int *x) { spin_lock(l); WRITE_ONCE(*x, 1); spin_unlock(l); }
exists (0:r0=0)`, true},
		{"synchronize_srcu", `C t
{}
P0(int *x, int *y, struct srcu_struct *s) { int r1; int r2; int r3; r3 = srcu_read_lock(s); r1 = READ_ONCE(*x); r2 = READ_ONCE(*y); srcu_read_unlock(s, r3); }
P1(int *x, int *y, struct srcu_struct *s) { WRITE_ONCE(*y, 1); synchronize_srcu(s); WRITE_ONCE(*x, 1); }
exists (0:r1=1 /\ 0:r2=0)`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantBothOk(t, tc.src, m, fe, variants, tc.ok) })
	}
}

// wantBothOk parses the kernel litmus test src and fails t unless both
// engines give the same answer and its verdict is ok.
func wantBothOk(t *testing.T, src string, m *cat.Model, fe litmus.Frontend, variants map[string]bool, ok bool) {
	t.Helper()
	lt, err := litmus.ParseWith("t.litmus", []byte(src), fe)
	if err != nil {
		t.Fatal(err)
	}
	diff, b, skip := sameUnderBoth(lt, m, fe, variants)
	if skip {
		t.Fatal("the explicit engine did not finish")
	}
	if diff != "" {
		t.Fatal(diff)
	}
	if b.Ok() != ok {
		t.Errorf("Ok %v, want %v", b.Ok(), ok)
	}
}

// TestLocksDifferentialCorpus runs both engines on the LKMM tests that
// use spin locks or synchronize_srcu (every 12th by default, all with
// MUSKET_LONG=1) and fails on any difference.
func TestLocksDifferentialCorpus(t *testing.T) {
	m, fe, variants := kernelModel(t)
	files, err := driver.Files([]string{filepath.Join(corpus, "litmus/LKMM")})
	if err != nil {
		t.Fatal(err)
	}
	var locks []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err == nil && (strings.Contains(string(src), "spin_") || strings.Contains(string(src), "synchronize_srcu")) {
			locks = append(locks, f)
		}
	}
	if len(locks) < 100 {
		t.Fatalf("only %d lock tests in the corpus", len(locks))
	}
	if os.Getenv("MUSKET_LONG") != "1" {
		var sub []string
		for i := 0; i < len(locks); i += 12 {
			sub = append(sub, locks[i])
		}
		locks = sub
	}
	diffs, same, skipped := diffKernelFiles(t, m, fe, variants, locks, nil)
	for _, d := range diffs {
		t.Error(d)
	}
	t.Logf("%d/%d lock and SRCU tests the same under both engines (%d skipped)", same, len(locks)-skipped, skipped)
}
