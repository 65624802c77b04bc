package cfront

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRaceGuardLocalsLeftOut checks addDerived's shortcut: raceGuard
// leaving local addresses out of its sets rewrites the front end's IR
// exactly as keeping them does, on C programs of the repository (every
// one under MUSKET_LONG=1) and on a chain of atomic loads through one
// local (quadratic with them kept).
func TestRaceGuardLocalsLeftOut(t *testing.T) {
	needClang(t)
	files, _ := filepath.Glob("testdata/racecc/*.c")
	for i, f := range allCPrograms() {
		if i%12 == 0 || os.Getenv("MUSKET_LONG") != "" {
			files = append(files, f)
		}
	}
	var chain strings.Builder
	chain.WriteString("#include <stdatomic.h>\nstatic atomic_int x; int a[8], g;\nint main(void) {\n  int s = g;\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&chain, "  s += atomic_load_explicit(&x, memory_order_relaxed) * %d; a[%d] = s; g = g;\n", i%7+1, i%8)
	}
	chain.WriteString("  return s;\n}\n")
	cf := filepath.Join(t.TempDir(), "chain.c")
	if err := os.WriteFile(cf, []byte(chain.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, cf)
	defer func() { keepLocalDerived = false }()
	for _, f := range files {
		fe, _, err := runClang(context.Background(), clangArgs(f, ClangOptions{}))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, asWritten := range []bool{false, true} {
			keepLocalDerived = false
			got := raceGuard(fe, asWritten)
			keepLocalDerived = true
			want := raceGuard(fe, asWritten)
			if !bytes.Equal(got, want) {
				t.Errorf("%s (as written %v): the rewriting differs with the locals left out", f, asWritten)
			}
		}
	}
	// An ended context stops the rewriting with its error.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := raceGuardCtx(done, []byte("define void @f() {\n  ret void\n}\n"), true); err == nil || out != nil {
		t.Errorf("raceGuardCtx under an ended context: %q, %v; want its error", out, err)
	}
}
