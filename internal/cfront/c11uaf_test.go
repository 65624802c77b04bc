package cfront

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
)

// TestUseAfterFreeC11 checks the SMT engine's use-after-free and
// lifetime decision under c11 (bmc's uaf.go: C11's own happens-before,
// in its hb-acyclic check) against its decision under rc11 on the
// programs of testdata/uaf, testdata/lifetime and cw11's two lifetime
// programs: on these the two models agree (each file's comment argues
// its verdict from happens-before, which c11 and rc11 build alike for
// the release/acquire, SC and relaxed accesses, fences and
// read-modify-writes they use), so c11 must give rc11's verdict and
// failure text (thread names aside: either thread's copy may be named).
// Before, c11 answered UNSUPPORTED wherever rc11 answers PASS. The rows
// marked long take seconds of CPU, or are lifetime programs that
// TestLifetimes checks under the other models (three of them stay in
// the default run): MUSKET_LONG=1 runs them.
func TestUseAfterFreeC11(t *testing.T) {
	needClang(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	thread := regexp.MustCompile(`thread P[0-9]+`)
	for _, c := range []struct {
		file   string
		define string
		long   bool
	}{
		{file: "uaf/handoff.c"}, {file: "uaf/handoff.c", define: "BUG"},
		{file: "uaf/early_free.c", long: true}, {file: "uaf/early_free.c", define: "BUG"},
		{file: "uaf/mp_free.c"}, {file: "uaf/mp_free.c", define: "RLX"},
		{file: "uaf/treiber_free.c", long: true},
		{file: "uaf/hazard.c", long: true}, {file: "uaf/hazard.c", define: "BUG"},
		{file: "uaf/refcount_free.c", long: true}, {file: "uaf/refcount_free.c", define: "BUG"},
		{file: "uaf/bad_free.c"},
		{file: "uaf/realloc.c", long: true}, {file: "uaf/realloc.c", define: "BUG", long: true},
		{file: "uaf/join_free.c"}, {file: "uaf/join_free.c", define: "BUG"},
		{file: "uaf/flag_free.c"}, {file: "uaf/flag_free.c", define: "RLX"}, {file: "uaf/flag_free.c", define: "BUG"},
		{file: "uaf/owner_xchg.c"}, {file: "uaf/owner_xchg.c", define: "BUG"},
		{file: "cw11/local_escape.c"}, {file: "cw11/local_escape.c", define: "BUG"},
		{file: "cw11/tls_after_exit.c"}, {file: "cw11/tls_after_exit.c", define: "BUG"},
		{file: "lifetime/lt_return.c"}, {file: "lifetime/lt_return.c", define: "BUG"},
		{file: "lifetime/lt_block.c", long: true}, {file: "lifetime/lt_block.c", define: "BUG", long: true},
		{file: "lifetime/lt_thread_exit.c"}, {file: "lifetime/lt_thread_exit.c", define: "BUG"},
		{file: "lifetime/lt_scope_exit.c", long: true}, {file: "lifetime/lt_scope_exit.c", define: "BUG", long: true},
		{file: "lifetime/lt_main_exit.c", long: true}, {file: "lifetime/lt_main_exit.c", define: "BUG", long: true},
		{file: "lifetime/lt_main_return.c", long: true}, {file: "lifetime/lt_main_return.c", define: "BUG", long: true},
		{file: "lifetime/lt_static.c", long: true}, {file: "lifetime/lt_static.c", define: "BUG", long: true},
		{file: "lifetime/lt_noderef.c", long: true}, {file: "lifetime/lt_noderef.c", define: "BUG", long: true},
		{file: "lifetime/lt_joined.c", long: true}, {file: "lifetime/lt_joined.c", define: "BUG", long: true},
		{file: "lifetime/lt_tls.c"}, {file: "lifetime/lt_tls.c", define: "BUG"},
	} {
		if c.long && !long {
			continue
		}
		t.Run(strings.TrimSuffix(c.file, ".c")+"/"+c.define, func(t *testing.T) {
			var defines []string
			if c.define != "" {
				defines = []string{c.define}
			}
			bound := 2
			if !strings.HasPrefix(c.file, "uaf/") {
				bound = 4 // as TestLifetimes
			}
			check := func(m string) *Result {
				r, err := Check(context.Background(), filepath.Join("testdata", c.file), CheckOptions{Bound: bound, Engine: "smt",
					Model: model(t, m), ModelName: m, Clang: ClangOptions{Defines: defines}})
				if err != nil {
					t.Fatalf("%s: %v", m, err)
				}
				return r
			}
			want, got := check("rc11"), check("c11")
			if got.Verdict != want.Verdict {
				t.Fatalf("c11: %v (%v), rc11: %v", got.Verdict, got.Result.Err, want.Verdict)
			}
			if want.Failed == nil {
				return
			}
			if got.Failed == nil || thread.ReplaceAllString(got.Failed.Text, "thread P") != thread.ReplaceAllString(want.Failed.Text, "thread P") {
				t.Errorf("c11: failure %v, rc11: %v", got.Failed, want.Failed)
			}
		})
	}
}

// TestLifetimeUserModel: under a model read from a file (here a copy of
// c11.cat) the SMT engine decides a program whose tracked locals are
// accessed only before their end in their own thread's program order
// (bmc's uaf.go: that needs no model; rc11 gives the same PASS), and
// refuses, saying why, one where another access is made, as before.
func TestLifetimeUserModel(t *testing.T) {
	needClang(t)
	src, err := os.ReadFile(filepath.Join("..", "cat", "models", "c11.cat"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mine.cat")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := cat.Load(path, cat.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, define string
		want         Verdict
	}{
		{file: "lt_static.c", want: Safe},
		{file: "lt_block.c", want: Unknown},
		{file: "lt_static.c", define: "BUG", want: Unknown},
	} {
		t.Run(c.file+"/"+c.define, func(t *testing.T) {
			var defines []string
			if c.define != "" {
				defines = []string{c.define}
			}
			check := func(m *cat.Model, name string) *Result {
				r, err := Check(context.Background(), filepath.Join("testdata", "lifetime", c.file), CheckOptions{Bound: 4, Engine: "smt",
					Model: m, ModelName: name, Clang: ClangOptions{Defines: defines}})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			r := check(m, path)
			if r.Verdict != c.want {
				t.Fatalf("%v (%v), want %v", r.Verdict, r.Result.Err, c.want)
			}
			if c.want == Unknown && (r.Result.Err == nil || !strings.Contains(r.Result.Err.Error(), "a model read from a file names no order")) {
				t.Errorf("refusal %v, want the reason", r.Result.Err)
			}
			if c.want == Safe {
				if rc := check(model(t, "rc11"), "rc11"); rc.Verdict != Safe {
					t.Errorf("rc11: %v, want the same PASS", rc.Verdict)
				}
			}
		})
	}
}
