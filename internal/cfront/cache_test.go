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

// TestCompileCache compiles one program step by step in one cache, each
// step after a change, and checks whether clang ran and whether the IR
// is the previous step's.
func TestCompileCache(t *testing.T) {
	needClang(t)
	src, cache := t.TempDir(), t.TempDir()
	t.Setenv("MUSKET_CACHE_DIR", cache)
	path, hdr := filepath.Join(src, "main.c"), filepath.Join(src, "h.h")
	const mainC = "#include \"h.h\"\nint x;\nint main(void) { x = V + W; return 0; }\n"
	const h1 = "#define V 1\n#ifndef W\n#define W 0\n#endif\n"
	writeOld(t, path, mainC)
	writeOld(t, hdr, h1)
	w3 := ClangOptions{Defines: []string{"W=3"}}
	steps := []struct {
		name   string
		change func(t *testing.T) // before the step's compilation
		opts   ClangOptions
		env    string // MUSKET_CACHE
		rerun  bool   // clang runs
		same   bool   // the IR is the previous step's
		store  bool   // the cache has more entries after the step
	}{
		{name: "first", rerun: true, store: true},
		{name: "hit", same: true},
		{name: "header touched, same content", change: func(t *testing.T) { writeOld(t, hdr, h1) }, same: true},
		{name: "header changed", change: func(t *testing.T) {
			writeOld(t, hdr, "#define V 2\n#ifndef W\n#define W 0\n#endif\n")
		}, rerun: true, store: false}, // the entry is replaced
		{name: "hit after the header change", same: true},
		{name: "define changed", opts: w3, rerun: true, store: true},
		{name: "source changed", change: func(t *testing.T) { writeOld(t, path, mainC+"int y;\n") }, opts: w3, rerun: true, store: true},
		{name: "corrupt entries", change: func(t *testing.T) {
			for _, e := range cacheEntries(t, cache) {
				b, _ := os.ReadFile(e)
				b[len(b)/2] ^= 1
				os.WriteFile(e, b, 0o644)
			}
		}, opts: w3, rerun: true, same: true},
		{name: "hit after the corruption", opts: w3, same: true},
		{name: "MUSKET_CACHE=off", change: func(t *testing.T) { writeOld(t, path, mainC+"int z;\n") }, opts: w3, env: "off", rerun: true},
		{name: "NoCache", change: func(t *testing.T) { writeOld(t, path, mainC+"int u;\n") }, opts: ClangOptions{Defines: w3.Defines, NoCache: true}, rerun: true},
	}
	var prev []byte
	for _, s := range steps {
		t.Setenv("MUSKET_CACHE", s.env)
		if s.change != nil {
			s.change(t)
		}
		n0, r0 := len(cacheEntries(t, cache)), clangRuns.Load()
		ir, err := CompileIR(context.Background(), path, s.opts)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if runs := clangRuns.Load() - r0; (runs == 1) != s.rerun {
			t.Errorf("%s: %d clang runs, want rerun = %v", s.name, runs, s.rerun)
		}
		if eq := bytes.Equal(ir, prev); eq != s.same {
			t.Errorf("%s: IR equal to the previous step's = %v, want %v", s.name, eq, s.same)
		}
		if n := len(cacheEntries(t, cache)); (n > n0) != s.store {
			t.Errorf("%s: %d cache entries after %d, want more = %v", s.name, n, n0, s.store)
		}
		prev = ir
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
