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
	"github.com/musket-verify/musket/internal/testcorpus"
)

// BenchmarkBrowserSuite measures the static site's WebAssembly engine on
// whole folders of litmus tests the way a user meets it, against the
// native engine on the same requests, back to back. A benchmark, not a
// test: it runs with -bench, once per folder whatever b.N is (a folder
// takes seconds to minutes), on the corpus' X86 folder or on the folders
// MUSKET_SUITE_TIME names, comma-separated:
//
//	MUSKET_SUITE_TIME=../../../shared/corpus/litmus/PPC go test ./internal/serve -run '^$' -bench BrowserSuite -benchtime 1x -timeout 60m
//
// The site is served as a static host serves it, with Cache-Control:
// max-age=600 (GitHub Pages' header). Every pass goes through the page's
// own worker (window.playground.request: what Run does, one request at a
// time), timed in the page from the first request to the last answer.
// For each folder:
//
//   - cold-x: a fresh headless Chromium (empty profile, empty caches)
//     opens the page and, the moment the page is ready (the engine
//     compiled and started; its warm-up, see worker.js, has just begun
//     and goes on between the requests), answers the folder: a user who
//     presses Run at once, on a first visit;
//   - warm-x: the same page answers the folder again;
//   - steady-x: and a third time (the browser's optimising compiler has
//     then compiled nearly all it will: the warm pass minus the steady
//     one is what the warm pass still pays for the tier-up);
//   - echo: the same page sends the folder's requests with the command
//     "check", which the static site's worker refuses at once: the
//     renderer's CPU time for what a request costs besides the engine
//     (two messages between the page and its worker, syscall/js, the
//     answer's JSON), echo-cpu-ms;
//   - revisit-x: the same browser opens the page again and answers the
//     folder the moment it is ready (a second visit: the browser's code
//     cache holds the optimised engine);
//   - return-cpu-ms: the browser is closed and started again on the same
//     profile, opens the page and answers the folder the moment it is
//     ready (a user coming back another day, within the site's max-age:
//     only what the browser kept on disk helps, its HTTP cache and the
//     code cache of musket.wasm);
//   - warmed-x: another fresh Chromium opens the page, waits for the
//     worker to say that its warm-up is over, then answers the folder: a
//     first visit by a user who presses Run after reading the page for
//     the seconds the warm-up took (reported as warmup-ms, from the
//     navigation's start; ready-ms is when the page could run).
//
// The passes above send one request per test, as Run does. The page
// also runs a whole folder at once ("Open a folder…", runSuite in
// main.js): Brief requests (the verdict alone), all sent to the worker
// in one message and answered in a few, the results table filled as they
// come. The batch passes go through that path, table included:
//
//   - batch-cpu-ms: on the first visit's page, after the echo pass (so
//     as warm as the steady pass);
//   - batch-cold-cpu-ms: a third fresh Chromium opens the page and runs
//     the folder the moment the page is ready (a first visit);
//   - batch-warm-cpu-ms: the same page runs it again.
//
// Before the first pass and before the warmed pass, the page's first
// example (SB) runs alone: first-run-ms and warmed-run-ms, what a user
// pressing Run on the page as it opens waits for.
//
// The native engine answers the same requests in this process
// (playground.RunLitmus and the answer's JSON, as the worker's
// musketCall runs them), before and after;
// its mean is the denominator. Every answer's verdict and observation
// must equal the native one.
//
// Wall times (cold-x, ...) mean little on a loaded machine, so each pass
// is also measured in CPU time: the renderer process' (every thread: the
// page, its workers, V8's background compiles; cold-cpu-ms, ...), and
// this process' for the native engine (native-cpu-ms). The renderer's
// time is each thread's run time to the nanosecond (see cpuSnap), and
// is split by thread: the page's main thread (KEY-page-ms: the page's
// JavaScript, its messages, the DOM), its workers (KEY-worker-ms: the
// engine, worker.js and Go's syscall/js glue) and Chromium's thread pool
// (KEY-compile-ms: V8's background compiles).
// scripts/wasm-ratio.sh runs this benchmark and sets its figures against
// the native binary's CPU time.
func BenchmarkBrowserSuite(b *testing.B) {
	dirs := os.Getenv("MUSKET_SUITE_TIME")
	if dirs == "" {
		dirs = filepath.Join(testcorpus.Dir(b), "litmus", "X86")
	}
	chromium(b)
	site := b.TempDir()
	script, _ := filepath.Abs("../../scripts/playground.sh")
	if out, err := exec.Command(script, site).CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%s", script, err, out)
	}
	for _, dir := range strings.Split(dirs, ",") {
		b.Run(filepath.Base(dir), func(b *testing.B) { suiteTime(b, site, dir) })
	}
}

type suiteTest struct {
	Name string `json:"name"`
	Test string `json:"test"`
}

func suiteTime(t *testing.B, site, dir string) {
	names, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no .litmus files in %s (%v)", dir, err)
	}
	sort.Strings(names)
	var tests []suiteTest
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, suiteTest{filepath.Base(n), string(b)})
	}
	suite, _ := json.Marshal(tests)
	mux := http.NewServeMux()
	files := http.FileServer(http.Dir(site))
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=600")
		files.ServeHTTP(w, r)
	}))
	mux.HandleFunc("/suite.json", func(w http.ResponseWriter, _ *http.Request) { w.Write(suite) })
	fs := httptest.NewServer(mux)
	defer fs.Close()

	// native answers every test in this process as the static site's
	// worker does (musket-wasm's musketCall): RunLitmus, then the answer's
	// JSON, so that the two sides do the same work.
	var out []byte
	native := func() (time.Duration, time.Duration, []string) {
		start, c0 := time.Now(), selfCPU(t)
		var got []string
		for _, st := range tests {
			r := playground.RunLitmus(context.Background(), &playground.Request{Name: st.Name, Test: st.Test, Engine: "enum"}, playground.Env{})
			out = r.AppendJSON(out[:0])
			got = append(got, suiteAnswer(r))
		}
		return time.Since(start), selfCPU(t) - c0, got
	}
	n1, nc1, want := native()

	// loadSuite fetches the folder's tests into the page (window.benchSuite)
	// once per page, before any pass' CPU time is taken: the fetch and its
	// JSON parse are the benchmark's, not the engine's or the page's (a
	// user's tests come from the editor or from files). Before, every pass
	// fetched and parsed them inside its CPU time.
	loadSuite := func(p *page) {
		eval[float64](p, `(async () => { if (!window.benchSuite) window.benchSuite = await (await fetch("suite.json")).json(); return 0; })()`)
	}
	// One pass over the folder through the page's worker; times in ms.
	const pass = `(async () => {
		const tests = window.benchSuite;
		const s = performance.now();
		const answers = [];
		for (const x of tests) {
			const r = await window.playground.request({ name: x.name, test: x.test, engine: "enum" });
			answers.push(r.status + " " + (r.result ? (r.result.verdict || "") + " " + (r.result.observation || "") : ""));
		}
		return JSON.stringify({ ms: performance.now() - s, answers });
	})()`
	type outcome struct {
		Ms      float64
		Answers []string
	}
	run := func(p *page) float64 {
		var o outcome
		if err := json.Unmarshal([]byte(eval[string](p, pass)), &o); err != nil {
			t.Fatal(err)
		}
		for i, a := range o.Answers {
			if a != want[i] {
				t.Errorf("%s: wasm %q, native %q", tests[i].Name, a, want[i])
			}
		}
		return o.Ms
	}
	// batch is one pass over the folder through the page's run over
	// many tests (runSuite), with the renderer's CPU time over it.
	const batchJS = `(async () => {
		const tests = window.benchSuite;
		const s = performance.now();
		const rs = await window.playground.runSuite(tests.map(x => ({ name: x.name, text: x.test })));
		await new Promise(ok => requestAnimationFrame(() => setTimeout(ok, 0))); // the table drawn
		const answers = rs.map(r => r.status + " " + (r.result ? (r.result.verdict || "") + " " + (r.result.observation || "") : ""));
		return JSON.stringify({ ms: performance.now() - s, answers });
	})()`
	batch := func(p *page, what string) cpuSplit {
		loadSuite(p)
		logMark(what)
		s := snapCPU(p.ctx)
		var o outcome
		if err := json.Unmarshal([]byte(eval[string](p, batchJS)), &o); err != nil {
			t.Fatal(err)
		}
		cpu := s.since(p.ctx)
		if len(o.Answers) != len(want) {
			t.Fatalf("%s: %d answers for %d tests", what, len(o.Answers), len(want))
		}
		for i, a := range o.Answers {
			if a != want[i] {
				t.Errorf("%s: %s: wasm %q, native %q", what, tests[i].Name, a, want[i])
			}
		}
		t.Logf("%s pass (one batch, the results table filled): %.0f ms, renderer CPU %v (%s; in 10 ms steps %v)", what, o.Ms, cpu.all.Round(time.Millisecond), cpu, cpu.ticks)
		return cpu
	}
	// echo is the renderer's CPU time over a pass of the same requests
	// the worker answers at once, without parsing the test: the
	// command "check", which the static site refuses. What is left is
	// what every request costs besides the engine: the page posting it to
	// the worker and waking it, Go's syscall/js reading it, the answer's
	// JSON and the page's parse of it.
	echo := func(p *page) cpuSplit {
		const js = `(async () => {
			const tests = window.benchSuite;
			for (const x of tests) {
				const r = await window.playground.request({ command: "check", name: x.name, test: x.test, engine: "enum" });
				if (r.status !== "error") throw new Error(x.name + ": " + r.status);
			}
			return 0;
		})()`
		loadSuite(p)
		logMark("echo")
		s := snapCPU(p.ctx)
		eval[float64](p, js)
		cpu := s.since(p.ctx)
		t.Logf("echo pass (the worker answers at once): renderer CPU %v (%s; in 10 ms steps %v)", cpu.all.Round(time.Millisecond), cpu, cpu.ticks)
		return cpu
	}
	// first times one run of the page's first example (SB), in ms: what
	// a user who opens the page and presses Run waits for.
	first := func(p *page) float64 {
		const js = `(async () => {
			const ex = (await (await fetch("examples.json")).json())[0];
			const s = performance.now();
			const r = await window.playground.request({ name: ex.name, test: ex.text, engine: "enum" });
			if (r.status !== "done") throw new Error(ex.name + ": " + r.status);
			return performance.now() - s;
		})()`
		return eval[float64](p, js)
	}
	// warmup waits for the worker's warm-up to end and says when the page
	// was ready and warm, from the navigation's start.
	warmup := func(p *page) (ready, warm float64, rounds string) {
		const js = `new Promise(ok => { const f = () => window.warmedAt ? ok(JSON.stringify({ ready: window.readyAt, ...window.warmedAt })) : setTimeout(f, 50); f(); })`
		var w struct {
			Ready, At       float64
			Rounds, Tests   int
			Ms, First, Last float64
		}
		if err := json.Unmarshal([]byte(eval[string](p, js)), &w); err != nil {
			t.Fatal(err)
		}
		return w.Ready, w.At, fmt.Sprintf("%d rounds of %d tests in %.0f ms, first round %.0f ms, last %.0f ms", w.Rounds, w.Tests, w.Ms, w.First, w.Last)
	}

	// cpuRun is run with the renderers' CPU time over the pass.
	cpuRun := func(p *page, what string) (float64, cpuSplit) {
		loadSuite(p)
		logMark(what)
		s := snapCPU(p.ctx)
		ms := run(p)
		cpu := s.since(p.ctx)
		t.Logf("%s pass: %.0f ms, renderer CPU %v (%s; in 10 ms steps %v)", what, ms, cpu.all.Round(time.Millisecond), cpu, cpu.ticks)
		return ms, cpu
	}

	profile := t.TempDir()
	ctx := browserIn(t, 50*time.Minute, profile)
	s := snapCPU(ctx)
	p := open(t, ctx, fs.URL)
	startCPU := s.since(ctx)
	t.Logf("first visit, the page opened and ready: renderer CPU %v (%s; in 10 ms steps %v)", startCPU.all.Round(time.Millisecond), startCPU, startCPU.ticks)
	sbCold := first(p)
	t.Logf("first visit, the engine's start-up in ms (worker.js): %s", bootTimes(p))
	cold, coldCPU := cpuRun(p, "cold")
	warm, warmCPU := cpuRun(p, "warm")
	steady, steadyCPU := cpuRun(p, "steady")
	echoCPU := echo(p)
	batchCPU := batch(p, "batch")
	p = open(t, ctx, fs.URL) // the same browser: a second visit
	t.Logf("second visit, the engine's start-up in ms: %s", bootTimes(p))
	again, againCPU := cpuRun(p, "revisit")
	p.do(chromedp.Navigate("about:blank")) // its worker's warm-up must not run beside the next browser
	// MUSKET_RETURN_IDLE (a duration, e.g. 3s) keeps the browser open
	// that long before it closes: V8 writes the module's optimised code
	// to the code cache at its first 1,000,000 bytes of it, then again
	// only after 2 s with no new optimised function
	// (--wasm-caching-hard-threshold, --wasm-caching-timeout-ms), which
	// the passes above, back to back, never leave; a user who reads the
	// results before closing the browser gets the later write.
	if d, err := time.ParseDuration(os.Getenv("MUSKET_RETURN_IDLE")); err == nil && d > 0 {
		p.do(chromedp.Sleep(d))
	}
	if err := chromedp.Cancel(ctx); err != nil {
		t.Fatalf("closing the browser: %v", err)
	}
	// What the return visit may reuse: the code cache the browser left
	// on disk. MUSKET_RETURN_NOCACHE=1 deletes its WebAssembly part
	// first, to see what that cache saves.
	wasmCache := filepath.Join(profile, "Default", "Code Cache", "wasm")
	if os.Getenv("MUSKET_RETURN_NOCACHE") == "1" {
		os.RemoveAll(wasmCache)
	}
	t.Logf("return visit, the code cache on disk: wasm %s, js %s", dirSize(wasmCache), dirSize(filepath.Join(profile, "Default", "Code Cache", "js")))
	ctx = browserIn(t, 50*time.Minute, profile) // the same profile: a user back another day
	p = open(t, ctx, fs.URL)
	t.Logf("return visit, the engine's start-up in ms: %s", bootTimes(p))
	_, returnCPU := cpuRun(p, "return")
	p.do(chromedp.Navigate("about:blank"))
	ctx2 := browser(t, 50*time.Minute) // a fresh browser: a first visit again
	sw := snapCPU(ctx2)
	p = open(t, ctx2, fs.URL)
	ready, warmAt, rounds := warmup(p)
	// What the warm-up costs the user who waits for it: the renderer's
	// CPU time from the page's opening to the warm-up's end (the page's
	// start-up, as start-cpu-ms, included).
	warmupCPU := sw.since(ctx2)
	t.Logf("first visit, the page opened and warmed up: renderer CPU %v (%s; in 10 ms steps %v)", warmupCPU.all.Round(time.Millisecond), warmupCPU, warmupCPU.ticks)
	sbWarmed := first(p)
	warmed, warmedCPU := cpuRun(p, "warmed")
	p.do(chromedp.Navigate("about:blank"))
	ctx3 := browser(t, 50*time.Minute) // a third fresh browser: a first visit that runs the folder at once
	p = open(t, ctx3, fs.URL)
	batchColdCPU := batch(p, "batch-cold")
	batchWarmCPU := batch(p, "batch-warm")
	p.do(chromedp.Navigate("about:blank"))
	n2, nc2, _ := native()
	nat := float64((n1 + n2).Milliseconds()) / 2
	natCPU := (nc1 + nc2).Seconds() * 1000 / 2
	cpuMs := func(d time.Duration) float64 { return d.Seconds() * 1000 }
	cpuRatio := func(c cpuSplit) string {
		return fmt.Sprintf("%v (%.1f×)", c.all.Round(time.Millisecond), cpuMs(c.all)/natCPU)
	}
	ms := func(f float64) time.Duration {
		return time.Duration(f * float64(time.Millisecond)).Round(time.Millisecond)
	}
	ratio := func(f float64) string { return fmt.Sprintf("%.1f×", f/nat) }
	t.Logf("%s, %d tests: native %v and %v (in this process, before and after)", dir, len(tests), n1.Round(time.Millisecond), n2.Round(time.Millisecond))
	t.Logf("CPU time: native %v and %v (in this process); WebAssembly in the renderer: cold %s, warm %s, revisit %s, warmed %s; the page's start-up %v",
		nc1.Round(time.Millisecond), nc2.Round(time.Millisecond), cpuRatio(coldCPU), cpuRatio(warmCPU), cpuRatio(againCPU), cpuRatio(warmedCPU), startCPU.all.Round(time.Millisecond))
	t.Logf("first visit, Run at once: cold pass %v (%s native), then a warm pass %v (%s) and a third %v (%s); the third's CPU time %s, the same requests answered at once %s",
		ms(cold), ratio(cold), ms(warm), ratio(warm), ms(steady), ratio(steady), cpuRatio(steadyCPU), cpuRatio(echoCPU))
	t.Logf("a run over the folder in one batch: first visit at once %s, again %s, on the first visit's page after its passes %s",
		cpuRatio(batchColdCPU), cpuRatio(batchWarmCPU), cpuRatio(batchCPU))
	t.Logf("second visit, Run at once: first pass %v (%s)", ms(again), ratio(again))
	t.Logf("return visit (the browser started again on the same profile), Run at once: CPU %s", cpuRatio(returnCPU))
	t.Logf("first visit, Run after the warm-up: page ready at %v, warm at %v (%s); first pass %v (%s)", ms(ready), ms(warmAt), rounds, ms(warmed), ratio(warmed))
	t.Logf("the page's first example, run alone before the pass: %v at once, %v after the warm-up", ms(sbCold), ms(sbWarmed))
	t.ReportMetric(natCPU, "native-cpu-ms")
	// Each pass' renderer CPU time (KEY-cpu-ms) and its share on the
	// page's main thread, in the page's workers (the engine) and in the
	// thread pool (V8's background compiles): KEY-page-ms, KEY-worker-ms,
	// KEY-compile-ms (see role).
	for _, x := range []struct {
		key string
		c   cpuSplit
	}{{"start", startCPU}, {"cold", coldCPU}, {"warm", warmCPU}, {"steady", steadyCPU}, {"echo", echoCPU}, {"batch", batchCPU},
		{"batch-cold", batchColdCPU}, {"batch-warm", batchWarmCPU}, {"revisit", againCPU}, {"return", returnCPU}, {"warmup", warmupCPU}, {"warmed", warmedCPU}} {
		t.ReportMetric(cpuMs(x.c.all), x.key+"-cpu-ms")
		t.ReportMetric(cpuMs(x.c.rest), x.key+"-rest-ms")
		for _, r := range []string{"page", "worker", "compile"} {
			t.ReportMetric(cpuMs(x.c.byRole[r]), x.key+"-"+r+"-ms")
		}
	}
	t.ReportMetric(cold/nat, "cold-x")
	t.ReportMetric(warm/nat, "warm-x")
	t.ReportMetric(steady/nat, "steady-x")
	t.ReportMetric(again/nat, "revisit-x")
	t.ReportMetric(warmed/nat, "warmed-x")
	t.ReportMetric(ready, "ready-ms")
	t.ReportMetric(warmAt, "warmup-ms")
	t.ReportMetric(sbCold, "first-run-ms")
	t.ReportMetric(sbWarmed, "warmed-run-ms")
}

// logMark writes "=== PASS pass" to the browser's log
// (MUSKET_BROWSER_LOG), when there is one, as a pass begins: what V8
// prints there (MUSKET_JS_FLAGS, e.g. --trace-wasm-compilation-times) can
// then be told apart pass by pass. The browser's output reaches the file
// through a pipe, so a line printed just before the mark may follow it.
func logMark(pass string) {
	if f := os.Getenv("MUSKET_BROWSER_LOG"); f != "" {
		if w, err := os.OpenFile(f, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
			fmt.Fprintf(w, "=== %s pass\n", pass)
			w.Close()
		}
	}
}

// suiteAnswer is a response's status, verdict and observation, as the page's
// harness above writes them.
func suiteAnswer(r *playground.Response) string {
	s := r.Status + " "
	if r.Result != nil {
		s += r.Result.Verdict + " " + r.Result.Observation
	}
	return s
}

// bootTimes is the page's record of its engine's start-up (window.bootTimes,
// from worker.js): when each step ended, in ms since the run worker began,
// which was workerAt ms after the page's start.
func bootTimes(p *page) string {
	return eval[string](p, `JSON.stringify(window.bootTimes || null)`)
}

// dirSize is the size of the files under dir and their number, as text.
func dirSize(dir string) string {
	var n, size int64
	filepath.WalkDir(dir, func(_ string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if i, err := e.Info(); err == nil {
				n, size = n+1, size+i.Size()
			}
		}
		return nil
	})
	return fmt.Sprintf("%.2f MB in %d files", float64(size)/1e6, n)
}
