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
// For each folder, in a fresh headless Chromium: the static page opens,
// and a new worker (the page's worker.js: the engine fetched, compiled
// and started, and its warm-up) answers every test once (cold: the
// browser still compiling and optimising the engine), then again
// (warm). The page is then loaded again in the same browser and a new
// worker answers the folder once more (a second visit: the browser
// caches compiled WebAssembly). Last, a worker of its own loads the
// engine and answers the folder twice in a loop: the engine alone, with
// no message between page and worker per test. The native engine answers the same
// requests in this process (playground.RunLitmus, as musket serve runs
// them), before and after. Every answer's verdict and observation must
// equal the native one; the wasm/native ratios are reported as the
// benchmark's metrics (cold-x, warm-x, revisit-x).
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
	mux.Handle("/", http.FileServer(http.Dir(site)))
	mux.HandleFunc("/suite.json", func(w http.ResponseWriter, _ *http.Request) { w.Write(suite) })
	fs := httptest.NewServer(mux)
	defer fs.Close()

	native := func() (time.Duration, []string) {
		start := time.Now()
		var got []string
		for _, st := range tests {
			r := playground.RunLitmus(context.Background(), &playground.Request{Name: st.Name, Test: st.Test, Engine: "enum"}, playground.Env{})
			got = append(got, suiteAnswer(r))
		}
		return time.Since(start), got
	}
	n1, want := native()

	ctx := browser(t, 50*time.Minute)
	p := open(t, ctx, fs.URL)
	// One worker: started, then passes over the folder; the times are
	// the page's (performance.now), in ms.
	const runs = `(async (passes) => {
		const tests = await (await fetch("suite.json")).json();
		const t0 = performance.now();
		const w = new Worker("worker.js");
		let next;
		w.onmessage = ev => next(ev.data);
		const msg = () => new Promise(ok => { next = ok; });
		const first = await msg();
		if (!first.ready) throw new Error("worker: " + JSON.stringify(first));
		const times = [performance.now() - t0];
		let answers = [];
		for (let k = 0; k < passes; k++) {
			const s = performance.now();
			answers = [];
			for (const x of tests) {
				const got = msg();
				w.postMessage({ request: { name: x.name, test: x.test, engine: "enum" } });
				const r = (await got).response;
				answers.push(r.status + " " + (r.result ? (r.result.verdict || "") + " " + (r.result.observation || "") : ""));
			}
			times.push(performance.now() - s);
		}
		w.terminate();
		return JSON.stringify({ times, answers });
	})`
	// The engine alone: a worker of its own loads musket.wasm as
	// worker.js does and answers the folder in a loop, with no message
	// between the page and the worker per test (each costs two thread
	// wake-ups, which a loaded machine delays) and no warm-up runs.
	const loop = `(async (passes) => {
		const tests = await (await fetch("suite.json")).json();
		const src = "importScripts(" + JSON.stringify(location.origin + "/wasm_exec.js") + ");" +
			"onmessage = async ev => {" +
			"  const t0 = performance.now(); const go = new Go();" +
			"  const r = await WebAssembly.instantiateStreaming(fetch(" + JSON.stringify(location.origin + "/musket.wasm") + "), go.importObject);" +
			"  go.run(r.instance);" +
			"  while (!self.musketRun) await new Promise(ok => setTimeout(ok, 5));" +
			"  const times = [performance.now() - t0]; let answers = [];" +
			"  for (let k = 0; k < ev.data.passes; k++) {" +
			"    const s = performance.now(); answers = [];" +
			"    for (const x of ev.data.tests) {" +
			"      const r = JSON.parse(self.musketRun({ name: x.name, test: x.test, engine: 'enum' }));" +
			"      answers.push(r.status + ' ' + (r.result ? (r.result.verdict || '') + ' ' + (r.result.observation || '') : ''));" +
			"    }" +
			"    times.push(performance.now() - s);" +
			"  }" +
			"  postMessage({ times, answers });" +
			"};";
		const w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
		const out = await new Promise(ok => { w.onmessage = ev => ok(ev.data); w.postMessage({ tests, passes }); });
		w.terminate();
		return JSON.stringify(out);
	})`
	type outcome struct {
		Times   []float64
		Answers []string
	}
	measure := func(js string, passes int) outcome {
		var o outcome
		if err := json.Unmarshal([]byte(eval[string](p, fmt.Sprintf("%s(%d)", js, passes))), &o); err != nil {
			t.Fatal(err)
		}
		for i, a := range o.Answers {
			if a != want[i] {
				t.Errorf("%s: wasm %q, native %q", tests[i].Name, a, want[i])
			}
		}
		return o
	}
	pass := func(passes int) outcome { return measure(runs, passes) }
	first := pass(2)
	p = open(t, ctx, fs.URL) // the same browser: a second visit
	again := pass(1)
	p = open(t, ctx, fs.URL)
	alone := measure(loop, 2)
	n2, _ := native()
	nat := (n1 + n2) / 2
	ms := func(f float64) time.Duration {
		return time.Duration(f * float64(time.Millisecond)).Round(time.Millisecond)
	}
	ratio := func(f float64) string { return fmt.Sprintf("%.1f×", f/float64(nat.Milliseconds())) }
	t.Logf("%s, %d tests: native %v and %v (in this process, before and after)", dir, len(tests), n1.Round(time.Millisecond), n2.Round(time.Millisecond))
	t.Logf("wasm, first visit: worker ready in %v; cold pass %v (%s native), warm pass %v (%s)",
		ms(first.Times[0]), ms(first.Times[1]), ratio(first.Times[1]), ms(first.Times[2]), ratio(first.Times[2]))
	t.Logf("wasm, second visit: worker ready in %v; first pass %v (%s)", ms(again.Times[0]), ms(again.Times[1]), ratio(again.Times[1]))
	t.ReportMetric(first.Times[1]/float64(nat.Milliseconds()), "cold-x")
	t.ReportMetric(first.Times[2]/float64(nat.Milliseconds()), "warm-x")
	t.ReportMetric(again.Times[1]/float64(nat.Milliseconds()), "revisit-x")
	t.Logf("wasm engine alone in a new worker (no message per test, no warm-up): ready in %v; first pass %v (%s), second pass %v (%s)",
		ms(alone.Times[0]), ms(alone.Times[1]), ratio(alone.Times[1]), ms(alone.Times[2]), ratio(alone.Times[2]))
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
