package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/musket-verify/musket/internal/playground"
	"github.com/musket-verify/musket/internal/playground/web"
)

// The browser tests drive Debian's chromium (scripts/setup-deps.sh
// installs it) with chromedp: the page as musket serve gives it, and the
// static site with the WebAssembly engine. A short smoke test runs by
// default; the rest with MUSKET_LONG=1.

// chromium finds the browser; without one the tests are skipped, except
// in CI where they must run.
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set and no chromium is installed: scripts/setup-deps.sh installs Debian's chromium for the browser tests")
	}
	t.Skip("no chromium on this machine (scripts/setup-deps.sh installs Debian's chromium package); the browser tests need a real browser")
	return ""
}

// browser starts a fresh headless chromium and returns a tab's context.
func browser(t testing.TB, limit time.Duration) context.Context {
	t.Helper()
	return browserIn(t, limit, t.TempDir())
}

// browserIn starts a headless chromium on the profile folder profile (its
// caches: a browser started again on the same folder is a user coming
// back after closing the browser) and returns a tab's context;
// chromedp.Cancel on it closes the browser.
func browserIn(t testing.TB, limit time.Duration, profile string) context.Context {
	t.Helper()
	// chromedp's defaults (headless, no first run, no background
	// networking, no extensions, no sync, ...) and what a root user in a
	// container needs: no sandbox, no GPU, no component updates, a fresh
	// profile.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile), chromedp.WindowSize(1400, 1200),
	)
	// MUSKET_JS_FLAGS passes V8 flags to the browser, to profile the
	// page's engine (e.g. --trace-wasm-compilation-times; V8 prints to
	// the browser's standard output, which MUSKET_BROWSER_LOG names a
	// file for).
	if f := os.Getenv("MUSKET_JS_FLAGS"); f != "" {
		opts = append(opts, chromedp.Flag("js-flags", f))
	}
	if f := os.Getenv("MUSKET_BROWSER_LOG"); f != "" {
		w, err := os.OpenFile(f, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		opts = append(opts, chromedp.CombinedOutput(w))
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, limit)
	t.Cleanup(func() { cancelC(); cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// page is one open playground page.
type page struct {
	t   testing.TB
	ctx context.Context
}

func open(t testing.TB, ctx context.Context, url string) *page {
	t.Helper()
	p := &page{t, ctx}
	p.do(chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`)))
	return p
}

// loadStats says how long the page took to be ready to run (the engine
// loaded: the WebAssembly worker on the static site) and how many bytes
// it fetched (as transferred, compressed when served so).
func (p *page) loadStats() string {
	p.t.Helper()
	return eval[string](p, `(() => {
		const nav = performance.getEntriesByType("navigation")[0];
		const res = performance.getEntriesByType("resource");
		let bytes = nav.transferSize, body = nav.decodedBodySize;
		for (const r of res) { bytes += r.transferSize; body += r.decodedBodySize; }
		return "load event " + nav.loadEventEnd.toFixed(0) + " ms, ready to run " + window.readyAt.toFixed(0) + " ms, " +
			(bytes / 1024).toFixed(0) + " KiB transferred (" + (body / 1024).toFixed(0) + " KiB decoded) in " + (res.length + 1) + " files";
	})()`)
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

// eval evaluates js in the page (awaiting a promise) as a T.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	return v
}

func (p *page) example(key string) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => { const s = document.getElementById("examples"); s.value = %q; s.dispatchEvent(new Event("change")); return s.value === %q; })()`, key, key))
	if !ok {
		p.t.Fatalf("no example %s in the menu", key)
	}
}

// run presses Run and waits for a status other than running. The
// status of the run before is cleared first: a status read before the
// page took the click would be that run's.
func (p *page) run() string {
	p.t.Helper()
	p.clearStatus()
	p.do(chromedp.Click(chromedp.CSS("#run")))
	return p.wait(func(s string) bool { return s != "" && s != "running" })
}

// start presses Run and waits until the page says running.
func (p *page) start() {
	p.t.Helper()
	p.clearStatus()
	p.do(chromedp.Click(chromedp.CSS("#run")))
	p.wait(func(s string) bool { return s == "running" })
}

func (p *page) clearStatus() {
	p.t.Helper()
	eval[bool](p, `(delete document.body.dataset.status, true)`)
}

// until polls cond until it holds; it fails the test, saying what it
// waited for, when the page's deadline passes first.
func (p *page) until(what string, cond func() bool) {
	p.t.Helper()
	for !cond() {
		select {
		case <-p.ctx.Done():
			p.t.Fatalf("waiting for %s: %v", what, p.ctx.Err())
		case <-time.After(30 * time.Millisecond):
		}
	}
}

// wait polls the page's status until ok accepts it.
func (p *page) wait(ok func(string) bool) string {
	p.t.Helper()
	for {
		s := eval[string](p, `document.body.dataset.status || ""`)
		if ok(s) {
			return s
		}
		select {
		case <-p.ctx.Done():
			p.t.Fatalf("waiting for the page: %v (status %q)", p.ctx.Err(), s)
		case <-time.After(30 * time.Millisecond):
		}
	}
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`document.querySelector(%q).innerText`, sel))
}

func (p *page) count(sel string) int {
	p.t.Helper()
	return eval[int](p, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
}

// testServer serves the page and its API on a loopback port.
func testServer(t *testing.T, cfg Config) *httptest.Server {
	t.Helper()
	_, hs := testServerOf(t, cfg)
	return hs
}

// testServerOf is testServer, with the server (to see its runs).
func testServerOf(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	cfg.Assets = web.Assets()
	s := New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	go s.Watch(ctx)
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() { hs.Close(); cancel() })
	return s, hs
}

// busyWorkers is how many of the server's workers hold a run.
func (s *Server) busyWorkers() int { return len(s.slots) }

// TestBrowserSmoke is the default browser test: open the page, pick SB,
// run, see Sometimes.
func TestBrowserSmoke(t *testing.T) {
	hs := testServer(t, Config{Workers: 1})
	start := time.Now()
	ctx := browser(t, 60*time.Second)
	started := time.Since(start)
	p := open(t, ctx, hs.URL)
	t.Logf("chromium started in %v; musket serve's page: %s", started.Round(time.Millisecond), p.loadStats())
	p.example("Bundled/SB.litmus")
	if s := p.run(); s != "done" {
		t.Fatalf("status %s: %s", s, p.text("#output"))
	}
	if v := p.text("#verdict"); !strings.Contains(v, "Sometimes") {
		t.Fatalf("verdict %q, want Sometimes", v)
	}
	if n := p.count("#states tr"); n != 5 {
		t.Errorf("states table has %d rows, want a header and SB's 4 states", n)
	}
}

// TestBrowserServer goes through the page's features on musket serve:
// SB+mfences is Never with its cycle drawn, a share link reproduces it,
// a long test is canceled (and frees the server's one worker at once),
// a syntax error marks its line.
func TestBrowserServer(t *testing.T) {
	if os.Getenv("MUSKET_LONG") == "" {
		t.Skip("long browser test: set MUSKET_LONG=1 (TestBrowserSmoke runs by default)")
	}
	// The server's time limit is beyond the test's deadline: a canceled
	// run that kept the server's worker would keep it to the end of the
	// test (see cancel).
	srv, hs := testServerOf(t, Config{Workers: 1, Timeout: 30 * time.Minute})
	ctx := browser(t, 5*time.Minute)
	p := open(t, ctx, hs.URL)

	t.Run("SB+mfences", func(t *testing.T) {
		p.t = t
		p.example("Bundled/SB+mfences.litmus")
		if s := p.run(); s != "done" {
			t.Fatalf("status %s: %s", s, p.text("#output"))
		}
		if v := p.text("#verdict"); !strings.Contains(v, "Never") {
			t.Fatalf("verdict %q, want Never", v)
		}
		if n := p.count("#graph .edge.cycle"); n != 4 {
			t.Fatalf("%d cycle edges drawn, want mfence; fr; mfence; fr", n)
		}
		if w := p.text("#explain-out"); !strings.Contains(w, "mfence; fr; mfence; fr") {
			t.Errorf("explanation %q lacks the cycle", w)
		}
		// The cycle stands out: its edges numbered in its order over a
		// halo, the others faded, the labels over the events.
		if n := p.count("#graph svg.has-cycle .edge.cycle path.halo"); n != 4 {
			t.Errorf("%d cycle edges with a halo, want 4", n)
		}
		labels := eval[[]string](p, `[...document.querySelectorAll("#graph .labels text.cycle")].map(t => t.textContent)`)
		if strings.Join(labels, ", ") != "1. mfence, 2. fr, 3. mfence, 4. fr" {
			t.Errorf("cycle labels %v", labels)
		}
	})

	t.Run("share", func(t *testing.T) {
		p.t = t
		url := eval[string](p, `window.playground.share()`)
		if !strings.Contains(url, "#s=") || eval[string](p, `location.href`) != url {
			t.Fatalf("share link %q, address %q", url, eval[string](p, `location.href`))
		}
		p.do(chromedp.Navigate("about:blank"))
		q := open(t, ctx, url)
		if s := q.wait(func(s string) bool { return s == "done" || s == "error" }); s != "done" {
			t.Fatalf("the shared link gave %s: %s", s, q.text("#output"))
		}
		if v := q.text("#verdict"); !strings.Contains(v, "Never") || !strings.Contains(v, "SB+mfences") {
			t.Fatalf("shared link: verdict %q", v)
		}
		if n := q.count("#graph .edge.cycle"); n != 4 {
			t.Fatalf("shared link: %d cycle edges", n)
		}
		p = q
	})

	t.Run("cancel", func(t *testing.T) {
		p.t = t
		p.example("Long (to cancel)/W4x8.litmus")
		p.start()
		// Cancel once the server runs W4x8 (which never ends: 32 stores
		// to one location), not at a moment chosen by the clock.
		p.until("the server to run W4x8", func() bool { return srv.busyWorkers() == 1 })
		// The run's progress shows, with the server's load.
		p.until("the progress", func() bool {
			return strings.HasPrefix(p.text("#progress"), "running… ") && strings.Contains(p.text("#progress"), "(server: 1 running, 0 waiting)")
		})
		p.do(chromedp.Click(chromedp.CSS("#cancel")))
		if s := p.wait(func(s string) bool { return s != "running" }); s != "canceled" {
			t.Fatalf("status %s after Cancel", s)
		}
		// The server has one worker and a time limit beyond the test's
		// deadline: it is free again only if the canceled run let go of
		// it, and SB is answered only then.
		p.until("the canceled run to let go of the server's worker", func() bool { return srv.busyWorkers() == 0 })
		p.example("Bundled/SB.litmus")
		if s := p.run(); s != "done" {
			t.Fatalf("after cancel: %s", s)
		}
	})

	t.Run("suite", func(t *testing.T) {
		p.t = t
		checkSuite(t, p)
	})

	t.Run("model", func(t *testing.T) {
		p.t = t
		p.example("Bundled/SB.litmus")
		// A CAT file edited, including herd7's library files by name
		// (Musket's own versions).
		eval[bool](p, `(window.playground.setModel("mine.cat", "\"mine\"\ninclude \"cos.cat\"\ninclude \"filters.cat\"\ninclude \"x86fences.cat\"\nacyclic po | rf | co | fr as sc\n"), true)`)
		if s := p.run(); s != "done" {
			t.Fatalf("status %s: %s", s, p.text("#output"))
		}
		if v := p.text("#verdict"); !strings.Contains(v, "Never") || !strings.Contains(v, "mine.cat") {
			t.Errorf("verdict %q, want Never under mine.cat", v)
		}
		// An error in it is marked at its line of the model's editor.
		eval[bool](p, `(window.playground.setModel("mine.cat", "\"mine\"\nlet x = po |\nacyclic po | rf | co | fr as sc\n"), true)`)
		if s := p.run(); s != "error" {
			t.Fatalf("status %s for an error in the model", s)
		}
		lines := eval[[]int](p, `[...document.querySelectorAll("#model-editor .cm-line")].map((l, i) => l.classList.contains("cm-errorLine") ? i + 1 : 0).filter(x => x)`)
		if len(lines) != 1 || lines[0] != 3 {
			t.Errorf("model errors marked at lines %v, want 3 (%s)", lines, p.text("#output"))
		}
		p.do(chromedp.Click(chromedp.CSS("#drop-model")))
	})

	t.Run("share non-ASCII", func(t *testing.T) {
		p.t = t
		p.example("Bundled/SB.litmus")
		// A long test and a model, both with text beyond ASCII.
		eval[bool](p, `(() => { const t = window.playground.testText().split("\n"); const pad = Array.from({ length: 2000 }, (_, i) => "(* ligne " + i + " : ünïcödé 漢字 😀 *)"); t.splice(6, 0, ...pad); window.playground.setTest("SB-ü.litmus", t.join("\n")); window.playground.setModel("mïne.cat", "\"mïne — 漢字 😀\"\nacyclic po | rf | co | fr as sc\n"); return true; })()`)
		if s := p.run(); s != "done" {
			t.Fatalf("status %s: %s", s, p.text("#output"))
		}
		state := `JSON.stringify([window.playground.testText(), document.getElementById("testname").value, document.getElementById("catname").value, document.querySelector("#model-editor .cm-content").textContent, document.getElementById("verdict").innerText])`
		before := eval[string](p, state)
		url := eval[string](p, `window.playground.share()`)
		qctx, cancel := chromedp.NewContext(ctx)
		defer cancel()
		q := open(t, qctx, url)
		if s := q.wait(func(s string) bool { return s == "done" || s == "error" }); s != "done" {
			t.Fatalf("the shared link gave %s: %s", s, q.text("#output"))
		}
		if after := eval[string](q, state); after != before {
			t.Errorf("the shared link (%d bytes) gives another page:\n%.300s\nwant\n%.300s", len(url), after, before)
		}
		p.do(chromedp.Click(chromedp.CSS("#drop-model")))
	})

	t.Run("example options", func(t *testing.T) {
		p.t = t
		// An example sets its own options, not the last one's.
		p.example("C programs (check, server only)/ttas-bug.c")
		if v := eval[string](p, `document.getElementById("target").value`); v != "aarch64" {
			t.Errorf("ttas-bug.c: target %q, want aarch64", v)
		}
		p.example("Assembly with loops (check)/mp.litmus")
		if v := eval[string](p, `document.getElementById("target").value + " " + document.getElementById("bound").value`); v != " 1" {
			t.Errorf("mp.litmus: target and bound %q, want none and 1", v)
		}
		p.example("Bundled/SB.litmus")
		if v := eval[string](p, `document.getElementById("bound").value`); v != "0" {
			t.Errorf("SB.litmus: bound %q, want 0", v)
		}
	})

	t.Run("syntax error", func(t *testing.T) {
		p.t = t
		p.example("Bundled/SB.litmus")
		eval[bool](p, `fetch("examples.json").then(r => r.json()).then(ex => { const sb = ex.find(e => e.name === "SB.litmus").text.split("\n"); sb[4] = sb[4].replace("MOV [x],$1", "MOV [x] $1"); window.playground.setTest("SB.litmus", sb.join("\n")); return true; })`)
		if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`document.querySelector("#test-editor .cm-content").innerText.includes("MOV [x] $1")`)); err != nil {
			t.Fatal(err)
		}
		if s := p.run(); s != "error" {
			t.Fatalf("status %s for a syntax error", s)
		}
		line := eval[int](p, `(() => { const ls = [...document.querySelectorAll("#test-editor .cm-line")]; return ls.findIndex(l => l.classList.contains("cm-errorLine")) + 1; })()`)
		if line != 5 {
			t.Fatalf("error marked on line %d, want 5 (%s)", line, p.text("#output"))
		}
	})
}

// TestBrowserStatic builds the static site (the explicit engine in
// WebAssembly) and answers the X86 examples in the browser with no
// server but a file server, comparing with the native engine; runs a
// folder and cancels a run over many files, then a Run at once (the
// worker perhaps still starting); then waits for the engine's warm-up
// to end and cancels a long run.
func TestBrowserStatic(t *testing.T) {
	if os.Getenv("MUSKET_LONG") == "" {
		t.Skip("builds the WebAssembly engine: set MUSKET_LONG=1")
	}
	chromium(t)
	dir := t.TempDir()
	script, _ := filepath.Abs("../../scripts/playground.sh")
	out, err := exec.Command(script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	fs := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer fs.Close()
	native := testServer(t, Config{Workers: 1})
	ctx := browser(t, 6*time.Minute)
	p := open(t, ctx, fs.URL)
	t.Logf("static site: %s", p.loadStats())
	if m := p.text("#mode"); !strings.Contains(m, "WebAssembly") || !strings.Contains(m, "SMT engine") || !strings.Contains(m, "C programs") {
		t.Fatalf("the static page says %q", m)
	}
	// A C program is refused with the reason, not as a bad litmus test.
	eval[bool](p, `(window.playground.setTest("p.c", "int main(void) { return 0; }\n"), true)`)
	if s := p.run(); s != "error" || !strings.Contains(p.text("#verdict"), "musket serve") {
		t.Fatalf("a C program on the static site: %s %q", s, p.text("#verdict"))
	}
	keys := eval[[]string](p, `fetch("examples.json").then(r => r.json()).then(ex => ex.filter(e => e.group === "Bundled" || e.group === "Classic X86").map(e => e.group + "/" + e.name))`)
	if len(keys) < 5 {
		t.Fatalf("only %d X86 examples", len(keys))
	}
	// The native answers in a tab of their own: open in the same tab
	// would take the static page away, and the examples would all be
	// answered by the server.
	qctx, cancelQ := chromedp.NewContext(ctx)
	defer cancelQ()
	q := open(t, qctx, native.URL)
	if m := p.text("#mode"); !strings.Contains(m, "WebAssembly") {
		t.Fatalf("after opening the server's page, the static page says %q", m)
	}
	for _, k := range keys {
		p.example(k)
		if s := p.run(); s != "done" {
			t.Fatalf("%s: %s: %s", k, s, p.text("#output"))
		}
		q.example(k)
		if s := q.run(); s != "done" {
			t.Fatalf("%s natively: %s", k, s)
		}
		got, want := verdictLine(p.text("#verdict")), verdictLine(q.text("#verdict"))
		if got != want {
			t.Errorf("%s: wasm %q, native %q", k, got, want)
		}
	}
	// A run over many files: one batch for the worker; a long one is
	// canceled as a run is (the worker stopped, a new one started).
	checkSuite(t, p)
	eval[bool](p, `fetch("examples.json").then(r => r.json()).then(ex => { delete document.body.dataset.suite; window.playground.runSuite(ex.filter(e => e.group.startsWith("Long")).map(e => ({ name: e.name, text: e.text }))); return true; })`)
	p.waitAttr("suite", func(s string) bool { return s == "running" })
	p.do(chromedp.Click(chromedp.CSS("#suite-cancel")))
	if s := p.waitAttr("suite", func(s string) bool { return s != "running" }); s != "canceled" {
		t.Fatalf("the run over many files ended %s after Cancel", s)
	}
	// A Run canceled at once, while the worker started again by that
	// Cancel may still be starting its engine (a wait that once never
	// ended, the page saying running), and a Run answered after it.
	p.example("Long (to cancel)/W4x8.litmus")
	p.start()
	p.do(chromedp.Click(chromedp.CSS("#cancel")))
	if s := p.wait(func(s string) bool { return s != "running" }); s != "canceled" {
		t.Fatalf("status %s after a Cancel during the engine's start", s)
	}
	p.example("Bundled/SB.litmus")
	if s := p.run(); s != "done" {
		t.Fatalf("after a Cancel during the engine's start: %s: %s", s, p.text("#output"))
	}
	// The worker's warm-up (worker.js) ends and says so, its message
	// taken for no run's answer; a long run is canceled (the worker
	// stopped, a new one started) and the next run is answered.
	warm := eval[string](p, `new Promise(ok => { const f = () => window.warmedAt ? ok(JSON.stringify(window.warmedAt)) : setTimeout(f, 100); f(); })`)
	t.Logf("static site: warm-up %s", warm)
	p.example("Long (to cancel)/W4x8.litmus")
	p.start()
	p.do(chromedp.Click(chromedp.CSS("#cancel")))
	if s := p.wait(func(s string) bool { return s != "running" }); s != "canceled" {
		t.Fatalf("status %s after Cancel", s)
	}
	p.example("Bundled/SB.litmus")
	if s := p.run(); s != "done" {
		t.Fatalf("after cancel: %s: %s", s, p.text("#output"))
	}
	if v := p.text("#verdict"); !strings.Contains(v, "Sometimes") {
		t.Fatalf("after cancel: verdict %q, want Sometimes", v)
	}
}

// verdictLine is the verdict and observation of the page's verdict line.
func verdictLine(s string) string {
	if i := strings.Index(s, " ("); i >= 0 {
		return s[:i]
	}
	return s
}

// checkSuite runs the page's "Open files…" on a folder of litmus tests
// (the Bundled and Classic X86 examples and one with a syntax error) and
// compares each row of its table with the native engine's answer.
func checkSuite(t *testing.T, p *page) {
	t.Helper()
	data, err := os.ReadFile("../playground/web/dist/examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var examples []struct{ Group, Name, Text string }
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	add := func(name, text string) {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	// Each test five times under other names, so that the table has more
	// rows than one of its chunks holds (32, main.js).
	for _, e := range examples {
		if e.Group == "Bundled" || e.Group == "Classic X86" {
			for k := range 5 {
				add(fmt.Sprintf("%s%d.litmus", strings.TrimSuffix(e.Name, ".litmus"), k), e.Text)
			}
			if e.Name == "SB.litmus" {
				add("SB-broken.litmus", strings.Replace(e.Text, "MOV [x],$1", "MOV [x] $1", 1))
			}
		}
	}
	sort.Strings(files)
	eval[bool](p, `(delete document.body.dataset.suite, true)`)
	p.do(chromedp.SetUploadFiles(chromedp.CSS("#suite-files"), files))
	if s := p.waitAttr("suite", func(s string) bool { return s != "" && s != "running" }); s != "done" {
		t.Fatalf("the run over %d files ended %s: %s", len(files), s, p.text("#suite-progress"))
	}
	// textContent, not innerText: a chunk of rows off the screen is not
	// laid out (content-visibility), and innerText reads the layout.
	rows := eval[[]string](p, `[...document.querySelectorAll("#suite-table tbody tr")].map(r => [...r.cells].slice(0, 4).map(c => c.textContent).join(" "))`)
	if len(rows) != len(files) {
		t.Fatalf("%d rows for %d files", len(rows), len(files))
	}
	// The rows go in chunks of at most 32 (main.js, runSuite).
	chunks := eval[[]int](p, `[...document.querySelectorAll("#suite-table .chunk")].map(c => c.querySelectorAll("tbody tr").length)`)
	if len(chunks) < (len(files)+31)/32 {
		t.Errorf("%d rows in %d chunks %v: more than 32 in a chunk", len(files), len(chunks), chunks)
	}
	for _, n := range chunks {
		if n == 0 || n > 32 {
			t.Errorf("chunks of %v rows: want 1 to 32 each", chunks)
			break
		}
	}
	for i, f := range files {
		text, _ := os.ReadFile(f)
		r := playground.RunLitmus(context.Background(), &playground.Request{Name: filepath.Base(f), Test: string(text)}, playground.Env{})
		want := filepath.Base(f) + " " + r.Status + " "
		if r.Result != nil {
			want += r.Result.Verdict + " " + r.Result.Observation
		} else {
			want += " "
		}
		if rows[i] != want {
			t.Errorf("row %d: %q, natively %q", i, rows[i], want)
		}
	}
	t.Logf("the run over %d files: %s", len(files), p.text("#suite-progress"))
}

// waitAttr polls the body's data-NAME until ok accepts it.
func (p *page) waitAttr(name string, ok func(string) bool) string {
	p.t.Helper()
	for {
		s := eval[string](p, fmt.Sprintf(`document.body.dataset[%q] || ""`, name))
		if ok(s) {
			return s
		}
		select {
		case <-p.ctx.Done():
			p.t.Fatalf("waiting for the page: %v (data-%s %q)", p.ctx.Err(), name, s)
		case <-time.After(30 * time.Millisecond):
		}
	}
}
