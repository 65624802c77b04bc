// The static site's engine: Musket's explicit engine compiled to
// WebAssembly (GOOS=js GOARCH=wasm), one run at a time; the page stops a
// run by terminating this worker.
//
// The page starts this worker in one of two roles, with its first
// message:
//   - {start: true} or {start: module}: the run worker. It compiles
//     musket.wasm (or takes the page's compiled WebAssembly.Module: a
//     worker started again after Cancel needs no second compile), starts
//     the engine, and posts {ready, info, module}; then it answers
//     {request} and {model} messages.
//   - {warm: module, beside}: the warm-up worker, an engine of its own
//     on the same compiled module (see warmUp below), on 4 cores or more.
// On fewer cores the run worker warms itself up when the page asks
// ({warmup: true}), between the user's requests (see warmUp).
// The run worker answers a {request} with one {response}, and a {batch}
// (a folder's tests: {base, names, texts}) with {answers} messages (see
// runBatch below).
//
// The run worker also posts when each step of its start-up ended ({ready,
// boot}: ms since the worker started, in the page's clock), so that a
// slow first visit can be taken apart: the script loaded, the response's
// headers came (fetched), the module compiled (compileStreaming: the
// download and the compile overlap), instantiated, Go's runtime and
// package initialisers ran (main: musket-wasm's main began), the engine
// was ready, and the first example ran (primed, posted on its own).
const since = () => Math.round(performance.now() - bootAt);
const bootAt = performance.now(), boot = {};
importScripts("wasm_exec.js");
boot.script = since();

async function start(module) {
  if (!module) {
    const resp = fetch("musket.wasm").then(r => (boot.fetched = since(), r));
    module = await WebAssembly.compileStreaming(resp);
    boot.compiled = since();
  }
  const go = new Go();
  const inst = await WebAssembly.instantiate(module, go.importObject);
  boot.instantiated = since();
  go.run(inst);
  while (!self.musketRun) await new Promise(ok => setTimeout(ok, 5));
  if (inst.exports.musketCall) goExports = inst.exports;
  boot.ready = since();
  // musket-wasm's main sets musketMainAt as it begins (performance.now()).
  if (self.musketMainAt) boot.main = Math.round(self.musketMainAt - bootAt);
  return module;
}

// runText answers one request's JSON text with the answer's JSON text.
// It writes the request into Go's memory and reads the answer from it,
// through musket-wasm's exported functions (musketIn, musketCall,
// musketOut: //go:wasmexport), rather than through musketRun, Go's
// syscall/js glue: no JavaScript value made for Go per call, no
// finalizer, no event object and goroutine switch to enter Go and
// leave it, and the request encoded straight into Go's buffer. In Node,
// a request the engine refuses at once (the command "check") took 3 ms
// of CPU per pass over the 359 X86 tests this way against 8-10 ms
// through musketRun. The other calls (musketInfo, musketModel,
// musketBatch, a few per page) stay on syscall/js.
let goExports = null;
const encoder = new TextEncoder(), decoder = new TextDecoder();
function runText(text) {
  if (!goExports) return self.musketRun(text);
  const max = 3 * text.length; // UTF-8 takes at most 3 bytes per UTF-16 unit
  const at = goExports.musketIn(max);
  const { written } = encoder.encodeInto(text, new Uint8Array(goExports.mem.buffer, at, max));
  const n = goExports.musketCall(written);
  // Go's memory may have grown during the call: take its buffer anew.
  return decoder.decode(new Uint8Array(goExports.mem.buffer, goExports.musketOut(), n));
}

// The warm-up. The browser first runs WebAssembly code as its baseline
// compiler made it, many times slower than the optimised code, and
// optimises a function (on background threads) only after the function
// has run for a while: in Chromium the first pass over the X86 litmus
// suite took 5-14 times as long as the passes after it, and the same 24
// tests run round after round took from 9 s down to 0.04 s a round, by
// steps, as the optimised functions came in. The optimised code belongs
// to the compiled module, which the page's workers share (a module sent
// by postMessage is the same compiled code): so a second worker, this
// one, runs the examples' litmus tests (Bundled and Classic: every
// architecture's parser and model) round after round, one test per
// task, and the run worker gets the optimised functions as they come,
// without waiting for the warm-up's tests. On fewer than 4 cores (see
// main.js) the run worker runs the warm-up itself, between requests,
// rather than a second worker: the code the browser optimises is the
// module's either way, but the rest of what a first pass pays for is
// the worker's own: the JavaScript of wasm_exec.js and of this file that
// every request runs through (the browser optimises it per worker), the
// engine's heap grown to size, the models loaded. After a warm-up in a
// second worker, the run worker's first pass over the X86 suite took
// 300-450 ms of renderer CPU against 250-320 for a third pass on one
// page, its own thread 340 ms against 190-230 (BenchmarkBrowserSuite,
// load 10-17). A request that comes during a warm-up test waits for that
// one test (a few ms once the code is optimised). It stops when the rounds stop
// getting faster: 6 rounds in a row not 10% faster than the best, at
// least 40 rounds, at most 60 rounds or 20 s of one core, once per page
// load. At least 40, not 10: a round's time stops falling (about round
// 16) while the code each test runs once (parse, the answer, syscall/js)
// is still being optimised, its tiering budget spent one call at a
// time; after 10 rounds the X86 suite's first pass still took 410-560
// ms of renderer CPU (its optimising compiles 100-130 ms of it), after
// 40 rounds 310-330 ms, as much as a third pass on the same page
// (BenchmarkBrowserSuite, warmed-cpu-ms, 3 runs each, load 4-6). With cores to spare (beside: see main.js) it runs beside the
// user's runs; else it steps aside while the page runs a request (none
// started within 1 s of one). Then it tells the page ({warm: ...}), which ends
// this worker. The browser keeps the optimised code in its code cache
// and uses it on the next visit when the host lets it reuse musket.wasm
// without asking again (see scripts/playground.sh).
let lastRequest = -Infinity, running = false;
async function warmUp(beside) {
  // In the run worker, the requests themselves say when one ran.
  let tests = [];
  try {
    const ex = await (await fetch("examples.json")).json();
    tests = ex.filter(e => /^(Bundled|Classic )/.test(e.group) && e.name.endsWith(".litmus"));
  } catch { }
  if (!tests.length) return void postMessage({ warm: { rounds: 0, tests: 0, ms: 0, first: 0, last: 0 } });
  const start = performance.now();
  let i = 0, rounds = 0, spent = 0, best = Infinity, calm = 0, first = 0;
  const step = () => {
    if (!beside && (running || performance.now() - lastRequest < 1000)) return void setTimeout(step, 250);
    const t = tests[i];
    const s = performance.now();
    runText(JSON.stringify({ name: t.name, test: t.text, engine: "enum" }));
    spent += performance.now() - s;
    if (++i < tests.length) return void setTimeout(step, 0);
    const last = spent;
    rounds++; i = 0; spent = 0;
    if (rounds === 1) first = last;
    if (last < 0.9 * best) calm = 0; else calm++;
    best = Math.min(best, last);
    const elapsed = performance.now() - start;
    if ((rounds >= 40 && calm >= 6) || rounds >= 60 || elapsed > 20000) {
      postMessage({ warm: { rounds, tests: tests.length, ms: Math.round(elapsed), first: Math.round(first), last: Math.round(last), beside } });
      return;
    }
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
}

// prime runs the first example once in the run worker, unless a request
// came first: the warm-up's engine has its own heap, so without it the
// user's first Run would load its model and set up the engine alone.
let asked = false;
async function prime() {
  try {
    const t = (await (await fetch("examples.json")).json()).find(e => e.name.endsWith(".litmus"));
    if (t && !asked) {
      runText(JSON.stringify({ name: t.name, test: t.text, engine: "enum" }));
      postMessage({ primed: since() });
    }
  } catch { }
}

// runBatch answers a batch (the page's run over a folder of tests: one
// request's options, base, for every test of names and texts) in this
// worker, a few tests per call of the engine (musketBatch: base's fields
// read once, one string back), and posts the answers' JSON texts in
// chunks, {answers: "[...]", from, done}: a chunk when 200 ms have passed
// since the last one, and the last chunk at the end. One message per
// chunk rather than per test: in Chromium a request and its answer cost
// about 0.1 ms of messaging besides the engine (the page's post, the
// worker woken, the answer's post, the page woken), 30-50 ms of CPU time
// per pass over the 359 X86 tests, a third to a half of the native
// engine's time for the same tests.
//
// With musket-wasm's exported functions (runText), each test is a request
// of its own, base's options with the test's name and text: the same
// path as a single request's, so that the code the browser optimised for
// the one serves the other, and no dearer than musketBatch's per test
// without syscall/js.
function runBatch({ base, names, texts }) {
  const step = 8;
  let from = 0, parts = [], last = performance.now();
  for (let i = 0; i < names.length; i += step) {
    if (goExports) {
      for (let k = i; k < i + step && k < names.length; k++) parts.push(runText(JSON.stringify({ ...base, name: names[k], test: texts[k] })));
    } else {
      const a = self.musketBatch(base, names.slice(i, i + step), texts.slice(i, i + step));
      if (a.length > 2) parts.push(a.slice(1, -1)); // "[...]": the answers, comma-separated
    }
    const now = performance.now();
    if (now - last >= 200 && i + step < names.length) {
      postMessage({ answers: "[" + parts.join(",") + "]", from, done: false });
      from = i + step; parts = []; last = now;
    }
  }
  postMessage({ answers: "[" + parts.join(",") + "]", from, done: true });
}

onmessage = ev => {
  const d = ev.data;
  if (d.start) {
    start(d.start instanceof WebAssembly.Module ? d.start : null)
      .then(module => { postMessage({ ready: true, info: JSON.parse(self.musketInfo()), module, boot }); prime(); })
      .catch(e => postMessage({ error: String(e) }));
  } else if (d.warm) {
    start(d.warm).then(() => warmUp(!!d.beside)).catch(e => postMessage({ warm: { error: String(e) } }));
  } else if (d.warmup) {
    warmUp(false);
  } else if (d.busy !== undefined) {
    running = d.busy;
    lastRequest = performance.now();
  } else if (d.request) {
    asked = true;
    // The request comes as its JSON text (main.js), which the engine
    // reads in one piece, and the answer goes back as its JSON text, which
    // the page parses, so that neither is copied object by object. The
    // warm-up and prime send the same, so that they warm this path.
    postMessage({ response: runText(d.request) });
    lastRequest = performance.now();
  } else if (d.batch) {
    asked = true;
    runBatch(d.batch);
    lastRequest = performance.now();
  } else if (d.model) postMessage({ model: self.musketModel(d.model) });
};
