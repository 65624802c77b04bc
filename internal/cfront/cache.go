package cfront

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The compile cache keeps clang's IR of a C file on disk, so that a
// second check of an unchanged program does not pay clang's start-up
// (most of the 0.15-0.2 s a compilation costs). It works as ccache's
// "direct mode": an entry is named by a hash of clang's identity (its
// resolved path, size and modification time), every argument passed to
// it, the working folder, the environment variables that change clang's
// header search, and the source file's contents; it holds the IR and the
// files the compilation read (from clang's -MD dependency list) with the
// hash of each. A hit is used only when every recorded file still has its
// hash; otherwise clang runs again and the entry is replaced.
//
// Limits, as ccache's: a header newly created earlier in the search path
// (shadowing one the entry recorded), or one a __has_include looked for
// and did not find, is not noticed (MUSKET_CACHE=off, or -no-cache). Programs using
// __DATE__ or __TIME__ are not cached, nor compilations during which a
// file they read was modified. Failed compilations are never cached.

// cacheMagic starts every entry; a change of format changes it.
const cacheMagic = "MUSKET-CLANG-CACHE 1"

// CacheMaxBytes bounds the cache's size: after a store beyond it, the
// least recently used entries are removed down to three quarters of it.
var CacheMaxBytes int64 = 256 << 20

// clangRuns counts clang's compilations (for tests).
var clangRuns atomic.Int64

// cacheDir returns the cache's folder, or "" when the cache is off:
// ClangOptions.NoCache, MUSKET_CACHE=off (or 0, false, no), or no folder
// to use. MUSKET_CACHE_DIR names the folder; else the user's cache folder
// (os.UserCacheDir) has musket/clang.
func cacheDir(co ClangOptions) string {
	if co.NoCache {
		return ""
	}
	switch strings.ToLower(strings.TrimSpace(os.Getenv("MUSKET_CACHE"))) {
	case "off", "0", "false", "no":
		return ""
	}
	if d := os.Getenv("MUSKET_CACHE_DIR"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil || d == "" {
		return ""
	}
	return filepath.Join(d, "musket", "clang")
}

// clangIDs caches clangIdentity by the name in Clang.
var clangIDs sync.Map

// clangIdentity names the compiler: its resolved path, size and
// modification time ("" if it cannot be found: no caching), and the fast
// front's when it is used (fastcc.go).
func clangIdentity() string {
	if v, ok := clangIDs.Load(Clang); ok {
		return v.(string)
	}
	id := ""
	if p, err := exec.LookPath(Clang); err == nil {
		id = fileIdentity(p)
	}
	if f := fastFrontIdentity(); f != "" && id != "" {
		id += "\x00" + f // the fast front's IR is clang's, but a stale build could differ
	}
	clangIDs.Store(Clang, id)
	return id
}

// clangEnv are the environment variables that change what clang reads.
var clangEnv = []string{"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "SDKROOT", "SOURCE_DATE_EPOCH", "CCC_OVERRIDE_OPTIONS", "COMPILER_PATH", "GCC_EXEC_PREFIX", "LIBRARY_PATH"}

// cacheKey is the hex name of the entry of a compilation, "" when it must
// not be cached.
func cacheKey(args []string, src []byte) string {
	id := clangIdentity()
	if id == "" || usesClock(src) {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	h := sha256.New()
	field := func(s string) {
		fmt.Fprintf(h, "%d:", len(s))
		h.Write([]byte(s))
	}
	field(cacheMagic)
	field(id)
	field(wd)
	for _, e := range clangEnv {
		v, ok := os.LookupEnv(e)
		field(fmt.Sprintf("%s=%v:%s", e, ok, v))
	}
	field(strconv.Itoa(len(args)))
	for _, a := range args {
		field(a)
	}
	field(string(src))
	return hex.EncodeToString(h.Sum(nil))
}

// usesClock says whether C text uses the macros of the compilation's
// date and time, whose IR differs from one run to the next.
func usesClock(b []byte) bool {
	return bytes.Contains(b, []byte("__DATE__")) || bytes.Contains(b, []byte("__TIME__")) || bytes.Contains(b, []byte("__TIMESTAMP__"))
}

// entryPath is the file of key's entry.
func entryPath(dir, key string) string {
	return filepath.Join(dir, key[:2], key[2:])
}

// fileHash is the hex SHA-256 of a file's contents.
func fileHash(path string) (string, []byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), b, nil
}

// An entry reads:
//
//	MUSKET-CLANG-CACHE 1 <deps> <IR bytes> <sha256 of the rest>
//	<sha256 of dep 1> <dep 1's path, Go-quoted>
//	...
//	<the IR>

// cacheLookup returns the IR of key's entry if the entry is whole and
// every file it depends on is unchanged; any fault is a miss.
func cacheLookup(dir, key string) ([]byte, bool) {
	p := entryPath(dir, key)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	ir, deps, ok := parseEntry(b)
	if !ok {
		return nil, false
	}
	for _, d := range deps {
		h, _, err := fileHash(d.path)
		if err != nil || h != d.hash {
			return nil, false
		}
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now) // recently used: kept longest
	return ir, true
}

type cacheDep struct{ hash, path string }

// parseEntry reads an entry, checking its form and checksum.
func parseEntry(b []byte) (ir []byte, deps []cacheDep, ok bool) {
	nl := bytes.IndexByte(b, '\n')
	if nl < 0 {
		return nil, nil, false
	}
	head := strings.Fields(string(b[:nl]))
	rest := b[nl+1:]
	if len(head) != 5 || head[0]+" "+head[1] != cacheMagic {
		return nil, nil, false
	}
	nd, err1 := strconv.Atoi(head[2])
	ni, err2 := strconv.Atoi(head[3])
	if err1 != nil || err2 != nil || nd < 0 || ni < 0 || ni > len(rest) {
		return nil, nil, false
	}
	sum := sha256.Sum256(rest)
	if hex.EncodeToString(sum[:]) != head[4] {
		return nil, nil, false
	}
	for i := 0; i < nd; i++ {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil, nil, false
		}
		line := string(rest[:nl])
		rest = rest[nl+1:]
		sp := strings.IndexByte(line, ' ')
		if sp != 64 {
			return nil, nil, false
		}
		path, err := strconv.Unquote(line[sp+1:])
		if err != nil {
			return nil, nil, false
		}
		deps = append(deps, cacheDep{hash: line[:sp], path: path})
	}
	if len(rest) != ni {
		return nil, nil, false
	}
	return rest, deps, true
}

// cacheStore writes the entry of a compilation that started at start,
// whose dependency list clang wrote to depFile. Any fault (no dependency
// list, a file changed during the compilation, a read-only folder, a full
// disk) leaves the cache as it was.
func cacheStore(dir, key, depFile string, start time.Time, ir []byte) {
	d, err := os.ReadFile(depFile)
	if err != nil {
		return
	}
	paths, ok := parseDeps(d)
	if !ok || len(paths) == 0 {
		return
	}
	var body bytes.Buffer
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() || st.ModTime().After(start.Add(-time.Second)) {
			// Missing, or modified around the compilation: which
			// version clang read is unsure.
			return
		}
		h, b, err := fileHash(p)
		if err != nil || usesClock(b) {
			return
		}
		fmt.Fprintf(&body, "%s %s\n", h, strconv.Quote(p))
	}
	body.Write(ir)
	sum := sha256.Sum256(body.Bytes())
	head := fmt.Sprintf("%s %d %d %x\n", cacheMagic, len(paths), len(ir), sum[:])
	dst := entryPath(dir, key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(dst), ".tmp-*")
	if err != nil {
		return
	}
	_, err1 := f.WriteString(head)
	_, err2 := f.Write(body.Bytes())
	err3 := f.Close()
	if err1 != nil || err2 != nil || err3 != nil {
		os.Remove(f.Name())
		return
	}
	if err := os.Rename(f.Name(), dst); err != nil {
		os.Remove(f.Name())
		return
	}
	cachePrune(dir)
}

// parseDeps reads the make rule clang's -MD -MT musket-target writes:
// "musket-target: FILE FILE \<newline> FILE ...", a space in a name
// written "\ ", '#' as "\#" and '$' as "$$".
func parseDeps(d []byte) ([]string, bool) {
	s := string(d)
	const target = "musket-target:"
	if !strings.HasPrefix(s, target) {
		return nil, false
	}
	s = s[len(target):]
	var paths []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			paths = append(paths, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && (s[i+1] == '\n' || s[i+1] == '\r'):
			flush()
			i++
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case c == '\\' && i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '#' || s[i+1] == '\t'):
			cur.WriteByte(s[i+1])
			i++
		case c == '$' && i+1 < len(s) && s[i+1] == '$':
			cur.WriteByte('$')
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	// Relative names are the working folder's, as the key records it.
	for i, p := range paths {
		if a, err := filepath.Abs(p); err == nil {
			paths[i] = a
		}
	}
	return paths, true
}

// cachePrune removes the least recently used entries when the cache is
// above CacheMaxBytes, down to three quarters of it, and temporary files
// left by interrupted writes an hour old.
func cachePrune(dir string) {
	type ent struct {
		path string
		size int64
		mod  time.Time
	}
	var ents []ent
	var total int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if time.Since(info.ModTime()) > time.Hour {
				os.Remove(p)
			}
			return nil
		}
		ents = append(ents, ent{p, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if total <= CacheMaxBytes {
		return
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].mod.Before(ents[j].mod) })
	for _, e := range ents {
		if total <= CacheMaxBytes*3/4 {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
		}
	}
}
