// The static site's engine: Musket's explicit engine compiled to
// WebAssembly (GOOS=js GOARCH=wasm), one run at a time; the page stops a
// run by terminating this worker.
importScripts("wasm_exec.js");
const go = new Go();
WebAssembly.instantiateStreaming(fetch("musket.wasm"), go.importObject).then(r => {
  go.run(r.instance);
  const wait = () => {
    if (self.musketRun) {
      postMessage({ ready: true, info: JSON.parse(self.musketInfo()) });
      warmUp();
    } else setTimeout(wait, 5);
  };
  wait();
}).catch(e => postMessage({ error: String(e) }));

// The warm-up. The browser first runs WebAssembly code as its baseline
// compiler made it, many times slower than the optimised code, and
// optimises a function (on background threads) only after the function
// has run for a while: in Chromium the first pass over the X86 litmus
// suite took 5-14 times as long as the passes after it, and the same 24
// tests run round after round took from 9 s down to 0.04 s a round, by
// steps, as the optimised functions came in. So as soon as the engine is
// loaded the worker runs the examples' litmus tests (Bundled and
// Classic: every architecture's parser and model), one test per task,
// round after round until the rounds stop getting faster: 6 rounds in a
// row not 10% faster than the best, at least 10 rounds, at most 60
// rounds or 20 s of one core, once per page load. It steps aside while
// the page sends requests (none started within 1 s of a request), which
// warm the engine as well. Then
// it tells the page ({warm: ...}). The browser keeps the optimised code
// in its code cache and uses it on the next visit when the host lets it
// reuse musket.wasm without asking again (see scripts/playground.sh).
let lastRequest = -Infinity;
async function warmUp() {
  let tests = [];
  try {
    const ex = await (await fetch("examples.json")).json();
    tests = ex.filter(e => /^(Bundled|Classic )/.test(e.group) && e.name.endsWith(".litmus"));
  } catch { }
  if (!tests.length) return;
  const start = performance.now();
  let i = 0, rounds = 0, spent = 0, best = Infinity, calm = 0, first = 0;
  const step = () => {
    if (performance.now() - lastRequest < 1000) return void setTimeout(step, 250);
    const t = tests[i];
    const s = performance.now();
    self.musketRun({ name: t.name, test: t.text, engine: "enum" });
    spent += performance.now() - s;
    if (++i < tests.length) return void setTimeout(step, 0);
    const last = spent;
    rounds++; i = 0; spent = 0;
    if (rounds === 1) first = last;
    if (last < 0.9 * best) calm = 0; else calm++;
    best = Math.min(best, last);
    const elapsed = performance.now() - start;
    if ((rounds >= 10 && calm >= 6) || rounds >= 60 || elapsed > 20000) {
      postMessage({ warm: { rounds, tests: tests.length, ms: Math.round(elapsed), first: Math.round(first), last: Math.round(last) } });
      return;
    }
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
}

onmessage = ev => {
  if (ev.data.request) postMessage({ response: JSON.parse(self.musketRun(ev.data.request)) });
  if (ev.data.model) postMessage({ model: self.musketModel(ev.data.model) });
  lastRequest = performance.now();
};
