package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/playground"
)

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// answer is the part of a playground.Response the tests read.
type answer struct {
	Status string `json:"status"`
	Output string `json:"output"`
}

// post sends one request and decodes the answer.
func post(t *testing.T, url string, body []byte) (int, *answer) {
	t.Helper()
	r, err := http.Post(url+"/api/run", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return 0, nil
	}
	defer r.Body.Close()
	var resp answer
	if err := json.NewDecoder(r.Body).Decode(&resp); err != nil {
		t.Errorf("status %d: undecodable answer: %v", r.StatusCode, err)
		return r.StatusCode, nil
	}
	return r.StatusCode, &resp
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func TestRequests(t *testing.T) {
	hs := testServer(t, Config{Workers: 1, MaxBody: 64 << 10})
	sb := readFile(t, "../../examples/litmus/SB.litmus")
	for _, c := range []struct {
		name   string
		body   []byte
		code   int
		status string
		want   string
	}{
		{"SB", mustJSON(playground.Request{Name: "SB.litmus", Test: sb}), 200, "done", "Observation SB Sometimes 1 3"},
		{"SB under sc, enum", mustJSON(playground.Request{Name: "SB.litmus", Test: sb, Model: "sc", Engine: "enum"}), 200, "done", "Observation SB Never 0 3"},
		{"a herd7 library name", mustJSON(playground.Request{Name: "SB.litmus", Test: sb, Model: "x86tso.cat"}), 200, "done", "Sometimes"},
		{"a path as model", mustJSON(playground.Request{Name: "SB.litmus", Test: sb, Model: "/etc/x86tso.cat"}), 200, "error", "not a path"},
		{"syntax error", mustJSON(playground.Request{Name: "SB.litmus", Test: strings.Replace(sb, "MOV [x],$1", "MOV [x] $1", 1)}), 200, "error", "SB.litmus:5:"},
		{"include by path", mustJSON(playground.Request{Name: "SB.litmus", Test: sb, Cat: "include \"../secret.cat\"\nacyclic po as x\n"}), 200, "error", "cannot include"},
		{"unknown command", mustJSON(playground.Request{Command: "rm", Name: "SB.litmus", Test: sb}), 200, "error", "unknown command"},
		{"no commands but litmus here", mustJSON(playground.Request{Command: "param", Name: "x.cub", Test: ""}), 200, "error", "litmus tests only"},
		{"not JSON", []byte("{"), 400, "error", "not the playground's JSON"},
		{"negative bound", mustJSON(playground.Request{Name: "SB.litmus", Test: sb, Bound: -5}), 400, "error", "bound -5: want 0"},
		{"too large", mustJSON(playground.Request{Name: "SB.litmus", Test: strings.Repeat("x", 70<<10)}), 413, "error", "larger than the server's limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, resp := post(t, hs.URL, c.body)
			if resp == nil {
				return
			}
			if code != c.code || resp.Status != c.status || !strings.Contains(resp.Output, c.want) {
				t.Errorf("got %d %s %q, want %d %s with %q", code, resp.Status, resp.Output, c.code, c.status, c.want)
			}
		})
	}
}

// TestConcurrent sends 50 requests at once to a server with two workers
// and a queue of four: each is answered (a verdict or a time limit) or
// refused with 503 and a message saying the server is busy; nothing
// else, and the heap stays bounded.
func TestConcurrent(t *testing.T) {
	hs := testServer(t, Config{Workers: 2, Queue: 4, Timeout: 300 * time.Millisecond})
	long := mustJSON(playground.Request{Name: "W4x8.litmus", Test: readFile(t, "../enum/testdata/W4x8.litmus"), Engine: "enum"})
	short := mustJSON(playground.Request{Name: "SB.litmus", Test: readFile(t, "../../examples/litmus/SB.litmus"), Engine: "enum"})
	var peak uint64
	stop, stopped := make(chan bool), make(chan bool)
	go func() {
		defer close(stopped)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
		}
	}()
	var mu sync.Mutex
	counts := map[string]int{}
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body := short
			if i%2 == 0 {
				body = long
			}
			code, resp := post(t, hs.URL, body)
			if resp == nil {
				return
			}
			key := fmt.Sprintf("%d %s", code, resp.Status)
			switch key {
			case "200 done", "200 limit":
			case "503 busy":
				if !strings.Contains(resp.Output, "the server is busy") {
					t.Errorf("503 without the reason: %q", resp.Output)
				}
			default:
				t.Errorf("unexpected answer %s: %s", key, resp.Output)
			}
			mu.Lock()
			counts[key]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	close(stop)
	<-stopped
	elapsed := time.Since(start)
	if counts["503 busy"] == 0 || counts["200 done"]+counts["200 limit"] == 0 {
		t.Errorf("answers %v: want some run and some refused", counts)
	}
	if n := counts["200 done"] + counts["200 limit"] + counts["503 busy"]; n != 50 {
		t.Errorf("%d of 50 answered: %v", n, counts)
	}
	runtime.GC()
	t.Logf("50 concurrent requests in %v: %v; peak heap %.1f MiB", elapsed, counts, float64(peak)/(1<<20))
	if peak > 512<<20 {
		t.Errorf("peak heap %d MiB", peak>>20)
	}
	// The server still answers.
	if _, resp := post(t, hs.URL, short); resp == nil || resp.Status != "done" {
		t.Errorf("after the burst: %+v", resp)
	}
}

// TestMemoryLimit: a run over the memory limit is stopped and said to be.
func TestMemoryLimit(t *testing.T) {
	hs := testServer(t, Config{Workers: 1, MemLimit: 1, MemBase: -1, Timeout: 2 * time.Minute}) // the watchdog, not the time limit, must stop W4x8, however loaded the machine
	code, resp := post(t, hs.URL, mustJSON(playground.Request{Name: "W4x8.litmus", Test: readFile(t, "../enum/testdata/W4x8.litmus"), Engine: "enum"}))
	if resp == nil {
		return
	}
	if code != 200 || resp.Status != "limit" || !strings.Contains(resp.Output, "memory limit") {
		t.Errorf("got %d %s %q, want the memory limit", code, resp.Status, resp.Output)
	}
}

// TestInfoQueue: /api/info says how many runs the server holds, running
// and waiting for a worker.
func TestInfoQueue(t *testing.T) {
	hs := testServer(t, Config{Workers: 1, Timeout: 30 * time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	long := mustJSON(playground.Request{Name: "W4x8.litmus", Test: readFile(t, "../enum/testdata/W4x8.litmus"), Engine: "enum"})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, "POST", hs.URL+"/api/run", bytes.NewReader(long))
			if r, err := http.DefaultClient.Do(req); err == nil {
				r.Body.Close()
			}
		}()
	}
	defer func() { cancel(); wg.Wait() }()
	// One runs, one waits: polled until so (the guard is the test's
	// deadline).
	for {
		r, err := http.Get(hs.URL + "/api/info")
		if err != nil {
			t.Fatal(err)
		}
		var in Info
		json.NewDecoder(r.Body).Decode(&in)
		r.Body.Close()
		if in.Running == 1 && in.Waiting == 1 {
			return
		}
		if in.Running > 1 || in.Waiting > 1 {
			t.Fatalf("running %d, waiting %d: want at most 1 and 1", in.Running, in.Waiting)
		}
		runtime.Gosched()
	}
}

// TestMemoryLimitExternal: the memory of the C libraries (Z3's, outside
// the Go heap) counts against the limit too.
func TestMemoryLimitExternal(t *testing.T) {
	hs := testServer(t, Config{Workers: 1, MemBase: -1, Timeout: 2 * time.Minute, External: func() uint64 { return 2 << 30 }})
	code, resp := post(t, hs.URL, mustJSON(playground.Request{Name: "W4x8.litmus", Test: readFile(t, "../enum/testdata/W4x8.litmus"), Engine: "enum"}))
	if resp == nil {
		return
	}
	if code != 200 || resp.Status != "limit" || !strings.Contains(resp.Output, "memory limit") {
		t.Errorf("got %d %s %q, want the memory limit", code, resp.Status, resp.Output)
	}
}

func TestCIncludes(t *testing.T) {
	for _, c := range []struct {
		src string
		ok  bool
	}{
		{"#include <stdatomic.h>\n#include <pthread.h>\nint x;", true},
		{"#include \"musket/lkmm.h\"\n", true},
		{"#include \"/etc/passwd\"\n", false},
		{"#include <../../etc/passwd>\n", false},
		{"  #  include <sys/socket.h>\n", false},
		{"#define F \"/etc/passwd\"\n#include F\n", false},
		{"%:include \"/etc/passwd\"\n", false},
		{"#inc\\\nlude \"/etc/passwd\"\n", false},
		{"#include_next <x.h>\n", false},
		{"#embed \"/etc/passwd\"\n", false},
		// A comment before the directive, or over a line end in it: the
		// preprocessor sees the directive (clang read /etc/passwd).
		{"#include <stdatomic.h>\n/* x */ #include \"/etc/passwd\"\n", false},
		{"/* a\n b */ # include </etc/passwd>\n", false},
		{"#/**/include \"/etc/passwd\"\n", false},
		{"#include /*\n*/ \"/etc/passwd\"\n", false},
		{"#include <stdatomic.h> // the atomics\n#include <pthread.h> /* threads */\n", true},
		{"// #include \"/etc/passwd\"\nint x;\n", true},
		{"/* #include \"/etc/passwd\" */\nint x;\n", true},
		{"const char *s = \"#include /etc/passwd ## __has_include\";\nchar c = '\\'';\n", true},
		// Asking whether a file exists, directly or through a pasted name.
		{"#if __has_include(\"/etc/passwd\")\n#endif\n", false},
		{"#define C(a,b) a##b\n#if C(__has_,include)(\"/etc/passwd\")\n#endif\n", false},
		{"#define C(a,b) a%:%:b\n", false},
		{"#pragma GCC dependency \"/etc/passwd\"\n", false},
		{"_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n", false},
		{"#pragma once\nint x;\n", true},
		{"??=include \"/etc/passwd\"\n", false},
	} {
		if err := checkCIncludes(c.src); (err == nil) != c.ok {
			t.Errorf("%q: %v", c.src, err)
		}
	}
}

// TestCIncludeLines: an error names the line of the directive, splices
// and block comments counted.
func TestCIncludeLines(t *testing.T) {
	for _, c := range []struct {
		src  string
		line string
	}{
		{"int x;\n#include \"/etc/passwd\"\n", "2:1:"},
		{"/* one\ntwo */\n#include \"/etc/passwd\"\n", "3:1:"},
		{"int x = \\\n1;\n#include \"/etc/passwd\"\n", "3:1:"},
		{"int x;\n/* a */ #inc\\\nlude \"/etc/passwd\"\n", "2:1:"},
	} {
		err := checkCIncludes(c.src)
		if err == nil || !strings.HasPrefix(err.Error(), c.line) {
			t.Errorf("%q: %v, want an error at %s", c.src, err, c.line)
		}
	}
}

// TestCommandFiles: the files of a model sent with a C program go into
// the folder the compiler runs in only if they are CAT files, so that no
// header there (stdatomic.h) replaces the C library's, unchecked, and
// no file replaces the test.
func TestCommandFiles(t *testing.T) {
	ran := false
	s := New(Config{Workers: 1, Command: func(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
		ran = true
		return 0
	}})
	prog := "#include \"stdatomic.h\"\nint main(void) { return 0; }\n"
	for _, c := range []struct {
		files map[string]string
		ok    bool
	}{
		{map[string]string{"lib.cat": "let x = po"}, true},
		{map[string]string{"lib.cat": "let x = po", "stdatomic.h": "#include </etc/passwd>\n"}, false},
		{map[string]string{"lib.cat": "let x = po", "p.c": "#include </etc/passwd>\n"}, false},
		{map[string]string{"sub/p.c": "#include </etc/passwd>\n"}, false},
		// An include of a path in the model, however written.
		{map[string]string{"lib.cat": "include (* x *) \"/etc/passwd\"\n"}, false},
		{map[string]string{"lib.cat": "include \"../../etc/passwd\"\n"}, false},
		{map[string]string{"lib.cat": "include \"nowhere.cat\"\n"}, false},
	} {
		ran = false
		resp := s.dispatch(context.Background(), &playground.Request{Command: "check", Name: "p.c", Test: prog, Cat: "include \"lib.cat\"\nacyclic po | rf | co | fr", Files: c.files})
		if ran != c.ok || (resp.Status == "error") == c.ok {
			t.Errorf("files %v: ran %v, status %s: %s", c.files, ran, resp.Status, resp.Output)
		}
	}
}

// TestCIncludesExamples: the check refuses none of the C examples the
// page offers.
func TestCIncludesExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/c/*.c")
	if len(files) == 0 {
		t.Fatal("no examples/c/*.c")
	}
	for _, f := range files {
		if err := checkCIncludes(readFile(t, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestModelNames: a model named by the client is a built-in model, a
// herd7 library name Musket answers, or a file of the operator's library
// folders; a bare .cat name is not read from the server's folder (the
// command line reads one from the current folder), a path never.
func TestModelNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.cat"), []byte("acyclic po | rf | co | fr\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(Config{Workers: 1, LibDirs: []string{dir}, Command: func(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int { return 0 }})
	for _, c := range []struct {
		flag, value string
		ok          bool
	}{
		{"model", "", true},
		{"model", "tso", true},
		{"model", "x86tso.cat", true},
		{"model", "mine.cat", true},
		{"source", "power:mine.cat", true},
		{"model", "secret.cat", false},
		{"source", "secret.cat", false},
		{"target", "power:secret.cat", false},
		{"target", "power:/etc/passwd", false},
		{"model", "../x.cat", false},
	} {
		if err := s.checkModelNames(c.flag, c.value); (err == nil) != c.ok {
			t.Errorf("%s %q: %v", c.flag, c.value, err)
		}
	}
	// The litmus command too.
	resp := s.dispatch(context.Background(), &playground.Request{Name: "SB.litmus", Test: readFile(t, "../../examples/litmus/SB.litmus"), Model: "secret.cat"})
	if resp.Status != "error" || !strings.Contains(resp.Output, "secret.cat") {
		t.Errorf("litmus under secret.cat: %s %q", resp.Status, resp.Output)
	}
}

// TestSlowBody: a request whose body does not come within bodyTime is
// refused (408), and its handler ends (robust5: a client sending its body
// a byte at a time held the handler for good). The time is negative: the
// deadline has passed before the first read.
func TestSlowBody(t *testing.T) {
	defer func(d time.Duration) { bodyTime = d }(bodyTime)
	bodyTime = -time.Second
	hs := testServer(t, Config{Workers: 1})
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write([]byte(`{"name":"SB.litmus","test":"X86`)) // and nothing more
	r, err := http.Post(hs.URL+"/api/run", "application/json", pr)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var resp answer
	if err := json.NewDecoder(r.Body).Decode(&resp); err != nil || r.StatusCode != http.StatusRequestTimeout || !strings.Contains(resp.Output, "did not come within") {
		t.Errorf("status %d, %+v, %v; want 408", r.StatusCode, resp, err)
	}
}
