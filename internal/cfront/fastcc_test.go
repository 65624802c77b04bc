package cfront

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// needFastFront skips a test when the fast front is not built, saying
// how to build it.
func needFastFront(t *testing.T) string {
	t.Helper()
	needClang(t)
	p, ok := useFastFront()
	if !ok {
		t.Skipf("the fast front %s is not built or is off (MUSKET_CC): scripts/setup-deps.sh or tools/musket-cc/build.sh builds it; without it, clang-14 compiles every program", FastFrontName)
	}
	return p
}

// compilerRun is what one compiler did with one command line.
type compilerRun struct {
	out, errs []byte
	status    int
}

func runFor(t *testing.T, name string, args []string) compilerRun {
	t.Helper()
	out, errb, err := runCompiler(context.Background(), name, args)
	st := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Errorf("%s: %v", name, err) // not Fatal: bothRuns calls it from a goroutine
			return compilerRun{status: -1}
		}
		st = ee.ExitCode()
	}
	return compilerRun{out: out, errs: errb, status: st}
}

// bothRuns runs the fast front and clang-14 on args side by side.
func bothRuns(t *testing.T, front string, args []string) (fast, slow compilerRun) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fast = runFor(t, front, args)
	}()
	slow = runFor(t, Clang, args)
	<-done
	return fast, slow
}

// identLines are the IR's lines naming the compiler (llvm.ident and the
// debug information's producer), the only ones allowed to differ.
var identLines = regexp.MustCompile(`(?m)^!\d+ = !\{!"[^"]*clang version[^"]*"\}$|producer: "[^"]*"`)

// sameRun reports how the fast front's run differs from clang-14's.
func sameRun(t *testing.T, what string, fast, slow compilerRun) {
	t.Helper()
	if fast.status != slow.status {
		t.Errorf("%s: exit status %d, clang-14's %d (stderr %q)", what, fast.status, slow.status, fast.errs)
	}
	if !bytes.Equal(fast.errs, slow.errs) {
		t.Errorf("%s: messages differ:\n%s\nclang-14's:\n%s", what, fast.errs, slow.errs)
	}
	a := identLines.ReplaceAll(fast.out, nil)
	b := identLines.ReplaceAll(slow.out, nil)
	if !bytes.Equal(a, b) {
		al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
		for i := 0; i < len(al) && i < len(bl); i++ {
			if al[i] != bl[i] {
				t.Errorf("%s: IR differs at line %d:\n  %s\nclang-14's:\n  %s", what, i+1, al[i], bl[i])
				return
			}
		}
		t.Errorf("%s: IR differs in length: %d lines, clang-14's %d", what, len(al), len(bl))
	}
}

// everyCFile lists the C files of examples/c, of cfront's testdata (with
// its sub-folders) and of the other packages' testdata.
func everyCFile(t *testing.T) []string {
	var files []string
	for _, root := range []string{"../../examples/c", "testdata", "../../cmd/musket/testdata", "../fix/testdata"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".c") && !strings.Contains(p, "/fuzz/") {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	if len(files) < 50 {
		t.Fatalf("only %d C files found", len(files))
	}
	return files
}

// TestFastFrontSameIR compiles C files with the fast front and with
// clang-14, with the arguments CompileIR passes, and checks that both
// write the same IR (but for the compiler's name), the same messages and
// the same exit status. By default a sample (a program of examples/c,
// one with debug names of every kind, one clang rejects, one with a
// header of its own); with MUSKET_LONG=1 every C file of the repository.
func TestFastFrontSameIR(t *testing.T) {
	front := needFastFront(t)
	files := []string{"../../examples/c/mcs.c", "testdata/cnames.c", "testdata/clang_error.c", "testdata/sem/flags_hdr.c"}
	if os.Getenv("MUSKET_LONG") != "" {
		files = everyCFile(t)
	}
	for _, f := range files {
		args := clangArgs(f, ClangOptions{})
		fast, slow := bothRuns(t, front, args)
		sameRun(t, f, fast, slow)
	}
}

// TestFastFrontFlags checks the fast front against clang-14 on the flags
// users give (-I, -D, -std, flags after --), on errors in them and in
// headers, and on clang's dependency list (the compile cache's).
func TestFastFrontFlags(t *testing.T) {
	front := needFastFront(t)
	dir := t.TempDir()
	writeOld(t, filepath.Join(dir, "cfg.h"), "#define N 3\nint fromhdr;\n")
	prog := filepath.Join(dir, "p.c")
	writeOld(t, prog, "#include \"cfg.h\"\n#include <stdatomic.h>\n#include <pthread.h>\natomic_int x;\nint main(void) { int a[N]; a[0] = W; atomic_store(&x, a[0]); return fromhdr; }\n")
	bad := filepath.Join(dir, "bad.c")
	writeOld(t, bad, "#include \"missing.h\"\nint main(void) { return y; }\n")
	warn := filepath.Join(dir, "warn.c")
	writeOld(t, warn, "int main(void) { int u; return u; }\n")
	for _, c := range []struct {
		name string
		file string
		co   ClangOptions
	}{
		{"defines and includes", prog, ClangOptions{Includes: []string{dir}, Defines: []string{"W=2"}}},
		{"std c11", prog, ClangOptions{Includes: []string{dir}, Defines: []string{"W=2"}, Std: "c11"}},
		{"bad std", prog, ClangOptions{Includes: []string{dir}, Defines: []string{"W=2"}, Std: "c99x"}},
		{"undefined macro", prog, ClangOptions{Includes: []string{dir}}},
		{"missing header", bad, ClangOptions{}},
		{"warnings after --", warn, ClangOptions{Extra: []string{"-Wall", "-Wuninitialized"}}},
		{"unknown flag after --", warn, ClangOptions{Extra: []string{"-fno-such-flag"}}},
		{"-include after --", warn, ClangOptions{Includes: []string{dir}, Extra: []string{"-include", "cfg.h", "-m32"}}},
	} {
		args := clangArgs(c.file, c.co)
		fast, slow := bothRuns(t, front, args)
		sameRun(t, c.name, fast, slow)
	}
	// The dependency list.
	deps := func(name string) []byte {
		d := filepath.Join(dir, name+".d")
		args := append([]string{"-MD", "-MF", d, "-MT", "musket-target"}, clangArgs(prog, ClangOptions{Includes: []string{dir}, Defines: []string{"W=2"}})...)
		runFor(t, map[string]string{"fast": front, "clang": Clang}[name], args)
		b, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if a, b := deps("fast"), deps("clang"); !bytes.Equal(a, b) {
		t.Errorf("dependency lists differ:\n%s\nclang-14's:\n%s", a, b)
	}
}

// TestFastFrontRefuses checks that what the fast front does not do
// (another target, a response file, an option of a back end it does not
// have) is refused, and that CompileIR then
// gives clang-14's answer.
func TestFastFrontRefuses(t *testing.T) {
	front := needFastFront(t)
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.c")
	writeOld(t, prog, "int x;\nint main(void) { return x; }\n")
	rsp := filepath.Join(dir, "flags.rsp")
	writeOld(t, rsp, "-DZ=1\n")
	for _, extra := range [][]string{{"-target", "aarch64-linux-gnu"}, {"@" + rsp}, {"-mllvm", "-aarch64-enable-ccmp"}} {
		args := clangArgs(prog, ClangOptions{Extra: extra})
		if r := runFor(t, front, args); r.status != fastRefused {
			t.Errorf("%v: status %d, want %d (refused)", extra, r.status, fastRefused)
		}
		f0 := fastFallbacks.Load()
		out, errb, err := runClang(context.Background(), args)
		if fastFallbacks.Load() != f0+1 {
			t.Errorf("%v: clang-14 was not run", extra)
		}
		want := runFor(t, Clang, args)
		if err != nil || !bytes.Equal(out, want.out) || !bytes.Equal(errb, want.errs) {
			t.Errorf("%v: runClang's answer is not clang-14's: %v %q", extra, err, errb)
		}
	}
}
