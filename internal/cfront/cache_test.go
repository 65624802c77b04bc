package cfront

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMain gives the package's tests a compile cache of their own, so
// that go test leaves the user's cache folder alone.
func TestMain(m *testing.M) {
	if os.Getenv("MUSKET_CACHE_DIR") != "" {
		os.Exit(m.Run())
	}
	d, err := os.MkdirTemp("", "musket-cache-test-")
	if err == nil {
		os.Setenv("MUSKET_CACHE_DIR", d)
	}
	code := m.Run()
	if err == nil {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// writeOld writes a file dated an hour ago, as a file edited before the
// compilation (the cache refuses files modified during it).
func writeOld(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// cacheEntries lists the entries of a cache folder.
func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var es []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			es = append(es, p)
		}
		return nil
	})
	return es
}

func TestCompileCache(t *testing.T) {
	needClang(t)
	const mainC = "#include \"h.h\"\nint x;\nint main(void) { x = V + W; return 0; }\n"
	cases := []struct {
		name    string
		change  func(t *testing.T, src, cache string) // between the two compilations
		second  ClangOptions                          // options of the second compilation
		env     string                                // MUSKET_CACHE
		noCache bool
		rerun   bool // the second compilation runs clang
		same    bool // the second IR equals the first
		files   bool // the cache holds entries at the end
	}{
		{name: "hit", rerun: false, same: true, files: true},
		{name: "source changed", change: func(t *testing.T, src, _ string) {
			writeOld(t, filepath.Join(src, "main.c"), mainC+"int y;\n")
		}, rerun: true, same: false, files: true},
		{name: "define changed", second: ClangOptions{Defines: []string{"W=3"}}, rerun: true, same: false, files: true},
		{name: "header changed", change: func(t *testing.T, src, _ string) {
			writeOld(t, filepath.Join(src, "h.h"), "#define V 2\n#ifndef W\n#define W 0\n#endif\n")
		}, rerun: true, same: false, files: true},
		{name: "header touched, same content", change: func(t *testing.T, src, _ string) {
			writeOld(t, filepath.Join(src, "h.h"), "#define V 1\n#ifndef W\n#define W 0\n#endif\n")
		}, rerun: false, same: true, files: true},
		{name: "corrupt entry", change: func(t *testing.T, _, cache string) {
			for _, e := range cacheEntries(t, cache) {
				b, _ := os.ReadFile(e)
				b[len(b)/2] ^= 1
				os.WriteFile(e, b, 0o644)
			}
		}, rerun: true, same: true, files: true},
		{name: "MUSKET_CACHE=off", env: "off", rerun: true, same: true, files: false},
		{name: "NoCache", noCache: true, rerun: true, same: true, files: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, cache := t.TempDir(), t.TempDir()
			t.Setenv("MUSKET_CACHE_DIR", cache)
			t.Setenv("MUSKET_CACHE", c.env)
			writeOld(t, filepath.Join(src, "main.c"), mainC)
			writeOld(t, filepath.Join(src, "h.h"), "#define V 1\n#ifndef W\n#define W 0\n#endif\n")
			path := filepath.Join(src, "main.c")
			first := ClangOptions{NoCache: c.noCache}
			second := c.second
			second.NoCache = c.noCache
			ctx := context.Background()
			r0 := clangRuns.Load()
			ir1, err := CompileIR(ctx, path, first)
			if err != nil {
				t.Fatal(err)
			}
			if c.change != nil {
				c.change(t, src, cache)
			}
			r1 := clangRuns.Load()
			ir2, err := CompileIR(ctx, path, second)
			if err != nil {
				t.Fatal(err)
			}
			r2 := clangRuns.Load()
			if r1-r0 != 1 {
				t.Errorf("first compilation: %d clang runs, want 1", r1-r0)
			}
			if got := r2 - r1; (got == 1) != c.rerun {
				t.Errorf("second compilation: %d clang runs, want rerun=%v", got, c.rerun)
			}
			if bytes.Equal(ir1, ir2) != c.same {
				t.Errorf("IR equal = %v, want %v", bytes.Equal(ir1, ir2), c.same)
			}
			if es := cacheEntries(t, cache); (len(es) > 0) != c.files {
				t.Errorf("cache files %v, want some = %v", es, c.files)
			}
			if !c.files {
				return
			}
			// A third compilation under the second's options is a hit.
			ir3, err := CompileIR(ctx, path, second)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(ir2, ir3) {
				t.Errorf("third IR differs from the second")
			}
			if got := clangRuns.Load() - r2; got != 0 {
				t.Errorf("third compilation: %d clang runs, want a hit", got)
			}
		})
	}
}

// TestCompileCacheErrors: a rejected program is not cached and fails the
// same way each time; an unwritable cache folder compiles as without one.
func TestCompileCacheErrors(t *testing.T) {
	needClang(t)
	src, cache := t.TempDir(), t.TempDir()
	t.Setenv("MUSKET_CACHE_DIR", cache)
	t.Setenv("MUSKET_CACHE", "")
	bad := filepath.Join(src, "bad.c")
	writeOld(t, bad, "int main(void) { return y; }\n")
	for i := 0; i < 2; i++ {
		r0 := clangRuns.Load()
		_, err := CompileIR(context.Background(), bad, ClangOptions{})
		var ce *ClangError
		if !errors.As(err, &ce) {
			t.Fatalf("run %d: %v, want a ClangError", i, err)
		}
		if clangRuns.Load()-r0 != 1 {
			t.Errorf("run %d: a rejected program did not run clang", i)
		}
	}
	if es := cacheEntries(t, cache); len(es) != 0 {
		t.Errorf("a rejected program was cached: %v", es)
	}
	// A cache folder that cannot be made (a file is in the way).
	blocked := filepath.Join(src, "file")
	writeOld(t, blocked, "")
	t.Setenv("MUSKET_CACHE_DIR", filepath.Join(blocked, "cache"))
	good := filepath.Join(src, "good.c")
	writeOld(t, good, "int main(void) { return 0; }\n")
	if _, err := CompileIR(context.Background(), good, ClangOptions{}); err != nil {
		t.Fatalf("with an unusable cache: %v", err)
	}
}

// TestParseEntry: every truncation and every flipped byte of an entry is
// refused (a miss), never a panic.
func TestParseEntry(t *testing.T) {
	dir := t.TempDir()
	dep := filepath.Join(dir, "a b#$.h")
	writeOld(t, dep, "int v;\n")
	dfile := filepath.Join(dir, "x.d")
	os.WriteFile(dfile, []byte("musket-target: "+filepath.Join(dir, `a\ b\#$$.h`)+" \\\n  "+dep[:0]+"\n"), 0o644)
	ir := []byte("; ModuleID = 'x'\n")
	key := "ab0123456789"
	cacheStore(dir, key, dfile, time.Now(), ir)
	b, err := os.ReadFile(entryPath(dir, key))
	if err != nil {
		t.Fatalf("no entry written: %v", err)
	}
	got, deps, ok := parseEntry(b)
	if !ok || !bytes.Equal(got, ir) || len(deps) != 1 || deps[0].path != dep {
		t.Fatalf("parseEntry = %q %v %v", got, deps, ok)
	}
	if got, ok := cacheLookup(dir, key); !ok || !bytes.Equal(got, ir) {
		t.Fatalf("cacheLookup = %q %v", got, ok)
	}
	for n := 0; n < len(b); n++ {
		if _, _, ok := parseEntry(b[:n]); ok {
			t.Errorf("truncation to %d bytes accepted", n)
		}
		c := append([]byte(nil), b...)
		c[n] ^= 0x20
		if _, _, ok := parseEntry(c); ok {
			t.Errorf("flipped byte %d accepted", n)
		}
	}
}

// TestCachePrune: beyond CacheMaxBytes the least recently used entries go,
// down to three quarters of the bound.
func TestCachePrune(t *testing.T) {
	dir := t.TempDir()
	defer func(n int64) { CacheMaxBytes = n }(CacheMaxBytes)
	CacheMaxBytes = 10000
	for i := 0; i < 30; i++ {
		p := filepath.Join(dir, "ab", "entry"+string(rune('a'+i)))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, make([]byte, 1000), 0o644)
		old := time.Now().Add(time.Duration(i-100) * time.Minute)
		os.Chtimes(p, old, old)
	}
	cachePrune(dir)
	es := cacheEntries(t, dir)
	if len(es) != 7 {
		t.Fatalf("%d entries left, want 7 (the newest)", len(es))
	}
	for _, e := range es {
		if filepath.Base(e) < "entry"+string(rune('a'+23)) {
			t.Errorf("%s kept, an older entry", e)
		}
	}
}
