// The playground page: two editors (test, model), the examples, Run and
// Cancel, the results (verdict, states, explanation, the execution
// drawn), errors at their lines, and a Share link. It runs either on a
// musket serve (POST api/run) or, on the static site, in a Web Worker
// holding Musket's explicit engine compiled to WebAssembly.
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection, Decoration } from "@codemirror/view";
import { EditorState, Compartment, StateField, StateEffect } from "@codemirror/state";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { syntaxHighlighting, defaultHighlightStyle, bracketMatching } from "@codemirror/language";
import { setDiagnostics, lintGutter } from "@codemirror/lint";
import { langFor, catLang } from "./modes.js";
import { drawExecution } from "./graph.js";

const $ = id => document.getElementById(id);

// Error lines: a decoration per line that has an error.
const setErrors = StateEffect.define();
const errorLines = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setErrors)) deco = e.value;
    if (tr.docChanged) deco = Decoration.none;
    return deco;
  },
  provide: f => EditorView.decorations.from(f),
});

function makeEditor(parent, text, lang) {
  const langC = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [lineNumbers(), history(), drawSelection(), highlightActiveLine(), bracketMatching(),
        syntaxHighlighting(defaultHighlightStyle), lintGutter(), errorLines, langC.of(lang),
        keymap.of([{ key: "Mod-Enter", run: () => { run(); return true; } }, ...defaultKeymap, ...historyKeymap])],
    }),
  });
  view.langC = langC;
  return view;
}

function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

function markErrors(view, diags) {
  const doc = view.state.doc;
  const ds = [], lines = [];
  for (const d of diags) {
    const ln = Math.min(Math.max(d.line, 1), doc.lines);
    const line = doc.line(ln);
    const from = Math.min(line.from + Math.max(d.col - 1, 0), line.to);
    ds.push({ from, to: Math.max(from, line.to), severity: "error", message: d.msg });
    lines.push(Decoration.line({ class: "cm-errorLine", attributes: { "data-error": d.msg } }).range(line.from));
  }
  lines.sort((a, b) => a.from - b.from);
  const uniq = lines.filter((r, i) => i === 0 || r.from !== lines[i - 1].from);
  view.dispatch(setDiagnostics(view.state, ds));
  view.dispatch({ effects: setErrors.of(Decoration.set(uniq)) });
}

// --- the runner: server or WebAssembly worker ---
let info = null, runner = null;

class ServerRunner {
  async run(req) {
    this.ctl = new AbortController();
    // While the run is out, the server's load every second (api/info),
    // shown beside the run's time: a run waiting for a worker says so.
    const poll = setInterval(async () => {
      try { const i = await (await fetch("api/info")).json(); this.note = `server: ${i.running} running, ${i.waiting} waiting`; } catch { }
    }, 1000);
    let r, text;
    try {
      r = await fetch("api/run", { method: "POST", body: JSON.stringify(req), headers: { "Content-Type": "application/json" }, signal: this.ctl.signal });
      text = await r.text();
    } finally { clearInterval(poll); this.note = ""; }
    // A 503 that is not the API's JSON is the server's bound on open
    // connections (serve/conns.go): busy, as a full queue is.
    try { return JSON.parse(text); } catch { return { status: r.status === 503 ? "busy" : "error", exit: 2, output: `HTTP ${r.status}: ${text}` }; }
  }
  // batch answers the request base for each of tests ({name, text}) one
  // at a time (the server's limits hold per request), each answer given
  // to onAnswers as it comes.
  async batch(base, tests, onAnswers) {
    this.stopped = false;
    for (let i = 0; i < tests.length; i++) {
      if (this.stopped) throw new DOMException("canceled", "AbortError");
      onAnswers([await this.run({ ...base, name: tests[i].name, test: tests[i].text })], i);
    }
  }
  cancel() { this.stopped = true; if (this.ctl) this.ctl.abort(); }
}

class WasmRunner {
  constructor() { this.inFlight = false; this.lastRun = -Infinity; this.start(); }
  start() {
    // The run worker (worker.js) compiles the engine once; a worker
    // started again after Cancel takes the compiled module.
    this.startedAt = performance.now();
    this.worker = new Worker("worker.js");
    this.reply = null;
    this.ready = new Promise((ok, fail) => {
      this.worker.onmessage = ev => {
        const d = ev.data;
        if (d.ready) {
          // The engine's start-up, step by step (worker.js): ms since the
          // worker started, which was workerAt ms after the page's start.
          if (!this.module) window.bootTimes = { workerAt: Math.round(this.startedAt), ...d.boot };
          if (!this.module) this.warmSoon(d.module);
          // A run worker started again after Cancel ends the warm-up the
          // one before had not finished (see warmSoon).
          else if (this.warming) this.worker.postMessage({ warmup: true });
          this.module = d.module;
          ok(d.info);
        } else if (d.primed !== undefined) {
          // The first run worker's only: one started again after Cancel primes too.
          if (window.bootTimes && window.bootTimes.primed === undefined) window.bootTimes.primed = d.primed;
        } else if (d.warm) {
          // The run worker's own warm-up (warmSoon) is over.
          this.warming = false;
          window.warmedAt = { at: performance.now(), ...d.warm };
        } else if (d.error) fail(new Error(d.error));
        else if (d.answers !== undefined && this.onAnswers) this.onAnswers(d);
        else if (this.reply) { const r = this.reply; this.reply = this.pending = null; r(d); }
      };
    });
    this.worker.postMessage({ start: this.module || true });
  }
  // warmSoon starts the warm-up (see worker.js), once per page load. On 4
  // cores or more it runs beside the user's runs, in a worker of its own
  // on the same compiled module, ended when it is done: the run worker and
  // the browser's optimising compiler keep two busy, and on 2 cores a
  // warm-up beside them made the first two passes over the X86 suite 1.6
  // and 2.3 times as long (Chromium 156, loaded machine). Below that the
  // run worker warms itself up, between requests: the JavaScript each
  // request runs through and the engine's heap are that worker's own.
  warmSoon(module) {
    const beside = (navigator.hardwareConcurrency || 1) >= 4;
    if (beside) return this.warm(module, beside);
    // On few cores even the warm-up's first tests slow a Run pressed as
    // the page opens (SB alone took 2-4 s instead of 1.1-1.4 s, with a
    // second engine booting): start it once no run has been in flight
    // for a second.
    const later = () => this.inFlight || performance.now() - this.lastRun < 1000 ? setTimeout(later, 250) : (this.warming = true, this.worker.postMessage({ warmup: true }));
    setTimeout(later, 1000);
  }
  warm(module, beside) {
    this.warmer = new Worker("worker.js");
    this.warmer.onmessage = ev => {
      if (!ev.data.warm) return;
      window.warmedAt = { at: performance.now(), ...ev.data.warm };
      this.warmer.terminate();
      this.warmer = null;
    };
    this.warmer.postMessage({ warm: module, beside });
  }
  busy(b) {
    this.inFlight = b;
    if (!b) this.lastRun = performance.now();
    if (this.warmer) this.warmer.postMessage({ busy: b });
  }
  call(msg) {
    return new Promise((ok, fail) => {
      this.pending = fail;
      this.reply = ok;
      this.worker.postMessage(msg);
    });
  }
  // engine waits for the run worker's engine; Cancel ends the wait. (A
  // worker started again after a Cancel, or a first visit's, may still be
  // compiling: its ready never comes once Cancel has stopped it, and a
  // run that waited on it would wait for ever, the page saying running.)
  engine() {
    return new Promise((ok, fail) => { this.pending = fail; this.ready.then(ok, fail); });
  }
  async run(req) {
    await this.engine();
    this.busy(true);
    try {
      // The request goes as its JSON text, and the worker posts the
      // answer's JSON text (see worker.js).
      const r = (await this.call({ request: JSON.stringify(req) })).response;
      return typeof r === "string" ? JSON.parse(r) : r;
    } finally { this.busy(false); }
  }
  // batch sends the request base and a folder's tests ({name, text}) in
  // one message; the worker answers them in a few chunks (worker.js,
  // runBatch), each given to onAnswers with the index of its first answer.
  async batch(base, tests, onAnswers) {
    await this.engine();
    this.busy(true);
    try {
      await new Promise((ok, fail) => {
        this.pending = fail;
        this.onAnswers = d => {
          onAnswers(JSON.parse(d.answers), d.from);
          if (d.done) { this.onAnswers = this.pending = null; ok(); }
        };
        this.worker.postMessage({ batch: { base, names: tests.map(t => t.name), texts: tests.map(t => t.text) } });
      });
    } finally { this.onAnswers = null; this.busy(false); }
  }
  async model(name) { await this.ready; return (await this.call({ model: name })).model; }
  cancel() {
    // The engine runs to its end in the worker: stop the worker, start a new one.
    this.worker.terminate();
    if (this.pending) this.pending(new DOMException("canceled", "AbortError"));
    this.pending = this.onAnswers = null;
    this.start();
  }
}

// detect picks the runner: the static site's WebAssembly worker (when the
// host has static.json) or musket serve's API. It returns at once with
// the engine starting ({ready}), so that the run worker fetches and
// compiles musket.wasm while the page builds its editors: started after
// them, it began about 0.3 s into a first visit.
async function detect() {
  let s = null;
  try { s = await fetch("static.json"); } catch { }
  if (s && s.ok) {
    runner = new WasmRunner();
    return { ready: runner.ready.then(i => { info = i; info.mode = "static"; }) };
  }
  const r = await fetch("api/info");
  info = await r.json();
  runner = new ServerRunner();
  return { ready: Promise.resolve() };
}

// --- examples, models, options ---
let examples = [];
const herdNames = ["x86tso.cat", "ppc.cat", "aarch64.cat", "arm.cat", "riscv.cat", "rc11.cat", "c11.cat", "sc.cat"];

function fillSelect(sel, items) {
  sel.innerHTML = "";
  for (const it of items) {
    if (it.group) {
      const g = document.createElement("optgroup");
      g.label = it.group;
      for (const o of it.items) g.appendChild(new Option(o.label, o.value));
      sel.appendChild(g);
    } else sel.appendChild(new Option(it.label, it.value));
  }
}

function setupSelects() {
  const modelItems = [{ label: "the test's default", value: "" }, { group: "built-in", items: info.models.map(m => ({ label: m, value: m })) },
    { group: "herd7 library names", items: herdNames.map(m => ({ label: m, value: m })) }];
  fillSelect($("model"), modelItems);
  fillSelect($("engine"), info.engines.map(e => ({ label: e, value: e })));
  $("engine").value = info.engines.includes("auto") ? "auto" : "enum";
  fillSelect($("command"), info.commands.map(c => ({ label: c, value: c })));
  $("mode").textContent = info.mode === "static"
    ? "static site: Musket's explicit engine compiled to WebAssembly, running in your browser: litmus tests (assembly and C11 litmus) under the built-in models or your own CAT model. " +
      "The SMT engine (Z3, through cgo) is not in the browser, nor clang: C programs and .pts programs (check), Cubicle systems (param) and compare need musket serve on your machine."
    : `musket serve: engines ${info.engines.join(", ")}; commands ${info.commands.join(", ")}; limits ${info.limits.timeout_ms / 1000}s and ${info.limits.memory_mb} MiB per run`;
  $("libhint").textContent = "include by name: " + info.library.join(", ");
  const groups = new Map();
  for (const e of examples) {
    if (info.mode === "static" && !e.name.endsWith(".litmus")) continue;
    // The static site runs the assembly programs with loops as litmus
    // tests (-unroll), not with check: the group's label says so.
    const label = info.mode === "static" && e.command === "check" ? e.group.replace("(check)", "(litmus -unroll)") : e.group;
    if (!groups.has(label)) groups.set(label, []);
    groups.get(label).push({ label: e.name, value: e.group + "/" + e.name });
  }
  fillSelect($("examples"), [{ label: "— choose —", value: "" }, ...[...groups].map(([g, items]) => ({ group: g, items }))]);
  updateCommand();
}

function updateCommand() {
  const c = $("command").value;
  document.querySelectorAll(".cmdopt").forEach(l => { l.style.display = l.dataset.for.split(" ").includes(c) ? "" : "none"; });
}

function loadExample(key) {
  const e = examples.find(x => x.group + "/" + x.name === key);
  if (!e) return;
  $("testname").value = e.name;
  setText(testView, e.text);
  testView.dispatch({ effects: testView.langC.reconfigure(langFor(e.name)) });
  const cmd = e.command || "litmus";
  if ([...$("command").options].some(o => o.value === cmd)) $("command").value = cmd;
  // The example's options, not the last example's (a target left from a
  // .pts program was a C program's).
  $("target").value = e.target || "";
  $("bound").value = e.bound || 0;
  if (e.explain !== undefined) $("explain").checked = e.explain;
  updateCommand();
}

let customModel = false;
function setCustom(on) {
  customModel = on;
  $("modelpane").classList.toggle("custom", on);
  $("drop-model").disabled = !on;
  $("model").disabled = on;
}

async function modelSource(name) {
  if (info.mode === "static") return runner.model(name);
  const r = await fetch("api/model?name=" + encodeURIComponent(name));
  return r.ok ? r.text() : "";
}

// --- running ---
function request() {
  const req = {
    command: $("command").value, name: $("testname").value || "test.litmus", test: testView.state.doc.toString(),
    engine: $("engine").value, explain: $("explain").checked, bound: +$("bound").value || 0,
    target: $("target").value || undefined, source: $("source").value || undefined,
  };
  if (customModel) { req.cat = modelView.state.doc.toString(); req.cat_name = $("catname").value || "model.cat"; }
  else if ($("model").value) req.model = $("model").value;
  return req;
}

let running = false, timer = null;
async function run() {
  if (running) return;
  running = true;
  document.body.dataset.status = "running";
  $("run").disabled = true; $("cancel").disabled = false;
  const t0 = performance.now();
  const tick = () => { $("progress").textContent = `running… ${((performance.now() - t0) / 1000).toFixed(1)} s` + (runner.note ? ` (${runner.note})` : ""); };
  tick(); timer = setInterval(tick, 100);
  showVerdict("busy", "running…");
  markErrors(testView, []); markErrors(modelView, []);
  let resp;
  const req = request();
  try {
    resp = wrongCommand(req) || await runner.run(req);
  } catch (e) {
    resp = e.name === "AbortError" ? { status: "canceled", exit: 130, output: "canceled\n" } : { status: "error", exit: 2, output: String(e) + "\n" };
  }
  clearInterval(timer);
  $("progress").textContent = resp.status === "canceled" ? "canceled" : `done in ${((performance.now() - t0) / 1000).toFixed(2)} s`;
  running = false;
  $("run").disabled = false; $("cancel").disabled = true;
  show(resp);
}

// wrongCommand answers a program the litmus command cannot take (a C
// program, a .pts program, a Cubicle system) with the command that takes
// it, instead of "not a litmus test" at its first line.
function wrongCommand(req) {
  const kind = { c: ["a C program", "check"], pts: ["a .pts program", "check"], cub: ["a Cubicle system", "param"] }[(req.name.match(/\.(\w+)$/) || [])[1]];
  if (req.command !== "litmus" || !kind) return null;
  const how = info.mode === "static"
    ? `which this static site does not offer (it runs litmus tests in your browser): run musket serve on your machine`
    : "choose it under Command";
  return { status: "error", exit: 2, output: `${req.name} is ${kind[0]}: the ${kind[1]} command checks it, ${how}.\n` };
}

function showVerdict(cls, text) {
  const v = $("verdict");
  v.className = "verdict " + cls;
  v.textContent = text;
}

function show(resp) {
  document.body.dataset.status = resp.status;
  $("output").textContent = (resp.output || "") + (resp.stderr ? "\n" + resp.stderr : "");
  const r = resp.result;
  if (resp.status === "done" && r) {
    const obs = r.observation ? ` — Observation ${r.observation}` : "";
    showVerdict(r.verdict === "Ok" ? "ok" : "no", `${r.verdict}${obs} (${r.name}, model ${r.model}, ${r.engine || resp.engine})`);
  } else if (resp.status === "done") {
    showVerdict(resp.exit === 0 ? "ok" : "no", (resp.output || "").split("\n")[0]);
  } else {
    showVerdict("err", { error: "Error", limit: "Limit reached", canceled: "Canceled", busy: "Server busy" }[resp.status] + ": " + (resp.output || "").split("\n")[0]);
  }
  // States.
  const st = $("states");
  st.innerHTML = "";
  if (resp.observed && resp.states) {
    const t = document.createElement("table");
    t.className = "states";
    t.innerHTML = "<tr>" + resp.observed.map(o => `<th>${esc(o)}</th>`).join("") + "</tr>" +
      resp.states.map(row => "<tr>" + row.map(v => `<td>${esc(v)}</td>`).join("") + "</tr>").join("");
    st.appendChild(t);
  }
  // Why.
  const ex = r && r.explain;
  let why = "";
  if (ex && ex.forbidden && ex.rejected && ex.rejected.length) {
    const rj = ex.rejected[0];
    why = `Forbidden: ${ex.candidates} candidate execution(s) reach the outcome, and the model rejects each.\n` +
      `The first fails the check ${rj.reason.check}${rj.reason.test ? " (" + rj.reason.test + ")" : ""}.\n` +
      (rj.reason.steps ? "Cycle: " + rj.reason.steps.map(s => s.rel).join("; ") : "");
  } else if (resp.graph && resp.graph.title === "witness") {
    why = "Allowed: the witness below is an execution the model accepts.";
  }
  $("explain-out").textContent = why;
  const g = $("graph");
  g.innerHTML = "";
  $("graph-title").textContent = resp.graph ? "Execution: " + resp.graph.title + (resp.graph.check ? ` (fails ${resp.graph.check})` : "") : "Execution";
  if (resp.graph && resp.graph.execution) g.appendChild(drawExecution(resp.graph.execution, resp.graph.cycle));
  // Errors at their lines.
  const diags = resp.diags || [];
  markErrors(testView, diags.filter(d => d.file === "test"));
  markErrors(modelView, diags.filter(d => d.file !== "test"));
}

// --- runs over many tests: files, a folder, or the examples ---
// The tests run with the model and options above, without -explain, as
// Brief requests (the verdict alone); the static site's worker takes them
// in one message (WasmRunner.batch). The table fills as the answers come
// (in a few steps);
// a test's name opens it in the editor and runs it in full.
let suiteTests = [];
async function runSuite(tests) {
  if (running) return null;
  running = true;
  document.body.dataset.suite = "running";
  $("run").disabled = true; $("cancel").disabled = false;
  $("suite-cancel").disabled = false;
  suiteTests = tests;
  const base = { ...request(), command: "litmus", explain: false, brief: true, name: undefined, test: undefined, target: undefined, source: undefined };
  const runs = tests.map(t => ({ name: t.name.split("/").pop(), text: t.text }));
  // The rows go in small tables (chunks) of at most 32 rows, under a
  // table of their own for the headings, all with the same fixed column
  // widths, and a chunk off the screen is neither laid out nor painted
  // (style.css). New rows are added when there are as many as the table
  // has so far (at least 64), or 2 s after the last addition, and at the
  // end; the count of answers goes on as they come. Each addition costs
  // the browser a frame: appended to one table as the worker's answers
  // came (every 200 ms), the PPC folder's 1758 rows took 0.8-1.3 s of the
  // page's CPU time, against 0.15 s when added at the end (headless
  // Chromium 156, loaded machine), more than the engine saved by taking
  // the folder in one message. Chunks of 32 rows, not one per addition: a
  // chunk the screen shows even in part is laid out and painted whole,
  // and the first addition of a run over the X86 folder held 136-184
  // rows, on the screen's lower edge, all laid out for the 10 shown: the
  // page's thread took 53-88 ms per run, 37-60 with chunks of 32, 15-25
  // with no rows drawn (the batch pass of BenchmarkBrowserSuite, X86, 5
  // runs each, loaded machine). A chunk not yet drawn
  // takes the height of its rows (1.23em each, as drawn), so that the
  // scroll bar does not jump as chunks come into view.
  const chunkRows = 32;
  let pending = [], shown = 0, flushed = performance.now();
  const flush = () => {
    let html = "";
    for (let i = 0; i < pending.length; i += chunkRows) {
      const part = pending.slice(i, i + chunkRows);
      html += `<div class="chunk" style="contain-intrinsic-size:auto ${(part.length * 1.23).toFixed(2)}em"><table class="suite">${cols}<tbody>${part.join("")}</tbody></table></div>`;
    }
    if (html) table.insertAdjacentHTML("beforeend", html);
    shown += pending.length;
    pending = [];
    flushed = performance.now();
  };
  const cols = "<colgroup><col class=c-test><col class=c-status><col class=c-verdict><col class=c-obs><col class=c-n><col class=c-n><col class=c-ms></colgroup>";
  const table = $("suite-table");
  table.innerHTML = `<table class="suite">${cols}<thead><tr><th>test</th><th>status</th><th>verdict</th><th>observation</th><th>positive</th><th>negative</th><th>ms</th></tr></thead></table>`;
  const answers = new Array(tests.length), count = {};
  let got = 0;
  const t0 = performance.now();
  const progress = () => { $("suite-progress").textContent = `${got} of ${tests.length} tests, ${((performance.now() - t0) / 1000).toFixed(1)} s`; };
  progress();
  const onAnswers = (rs, from) => {
    rs.forEach((r, k) => {
      const i = from + k, res = r.result || {};
      answers[i] = r;
      const key = r.status === "done" ? res.verdict : r.status;
      count[key] = (count[key] || 0) + 1;
      const err = r.status === "done" ? "" : ` title="${esc((r.output || "").split("\n")[0])}"`;
      pending.push(`<tr class="${esc(key)}"><td title="${esc(tests[i].name)}"><a href="#" data-i="${i}">${esc(tests[i].name)}</a></td><td${err}>${esc(r.status)}</td>` +
        `<td>${esc(res.verdict || "")}</td><td>${esc(res.observation || "")}</td><td>${res.positive ?? ""}</td><td>${res.negative ?? ""}</td><td>${(res.time_ms ?? r.time_ms ?? 0).toFixed(1)}</td></tr>`);
    });
    got += rs.length;
    if (pending.length >= Math.max(64, shown) || performance.now() - flushed >= 2000) flush();
    progress();
  };
  let status = "done";
  try {
    await runner.batch(base, runs, onAnswers);
  } catch (e) {
    status = e.name === "AbortError" ? "canceled" : "error";
    if (status === "error") $("output").textContent = String(e) + "\n";
  }
  flush();
  const parts = Object.entries(count).map(([k, n]) => `${n} ${k}`).join(", ");
  $("suite-progress").textContent = `${got} of ${tests.length} tests (${parts || "none"}) in ${((performance.now() - t0) / 1000).toFixed(2)} s` + (status === "done" ? "" : `, ${status}`);
  running = false;
  $("run").disabled = false; $("cancel").disabled = true; $("suite-cancel").disabled = true;
  document.body.dataset.suite = status;
  return answers;
}

// litmusFiles reads the .litmus files among a drop's items or an input's
// files (folders walked), as {name, text}, sorted by their path.
async function litmusFiles(files) {
  const out = await Promise.all(files.filter(f => f.name.endsWith(".litmus")).map(async f => ({ name: f.webkitRelativePath || f.path || f.name, text: await f.text() })));
  return out.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
async function droppedFiles(items) {
  const files = [];
  const walk = async (entry, dir) => {
    if (entry.isFile) {
      const f = await new Promise((ok, fail) => entry.file(ok, fail));
      files.push(Object.assign(f, { path: dir + f.name }));
    } else if (entry.isDirectory) {
      const rd = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, fail) => rd.readEntries(ok, fail));
        if (!batch.length) break;
        for (const e of batch) await walk(e, dir + entry.name + "/");
      }
    }
  };
  for (const e of [...items].map(it => it.webkitGetAsEntry && it.webkitGetAsEntry()).filter(Boolean)) await walk(e, "");
  return litmusFiles(files);
}

function setupSuite() {
  const go = async tests => { if (tests.length) await runSuite(tests); else $("suite-progress").textContent = "no .litmus files there"; };
  $("suite-files").onchange = async e => { await go(await litmusFiles([...e.target.files])); e.target.value = ""; };
  $("suite-folder").onchange = async e => { await go(await litmusFiles([...e.target.files])); e.target.value = ""; };
  $("suite-examples").onclick = () => go(examples.filter(e => e.name.endsWith(".litmus") && !e.command && !e.group.startsWith("Long"))
    .map(e => ({ name: e.group + "/" + e.name, text: e.text })));
  $("suite-cancel").onclick = () => runner.cancel();
  $("suite-table").onclick = e => {
    const a = e.target.closest("a[data-i]");
    if (!a) return;
    e.preventDefault();
    const t = suiteTests[+a.dataset.i];
    $("testname").value = t.name.split("/").pop();
    setText(testView, t.text);
    testView.dispatch({ effects: testView.langC.reconfigure(langFor($("testname").value)) });
    $("command").value = "litmus"; updateCommand();
    window.scrollTo(0, 0);
    run();
  };
  document.addEventListener("dragover", e => { e.preventDefault(); document.body.classList.add("dropping"); });
  document.addEventListener("dragleave", e => { if (!e.relatedTarget) document.body.classList.remove("dropping"); });
  document.addEventListener("drop", async e => {
    e.preventDefault();
    document.body.classList.remove("dropping");
    if (e.target.closest && e.target.closest(".cm-editor")) return;
    const tests = await droppedFiles(e.dataTransfer.items);
    $("suite").scrollIntoView();
    await go(tests);
  });
}

function esc(s) { return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }

// --- share links: the state in the fragment, deflated and base64url ---
async function encodeState() {
  const s = JSON.stringify({ ...request(), model: $("model").value, custom: customModel });
  const bytes = new TextEncoder().encode(s);
  if (typeof CompressionStream === "function") {
    const z = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
    return "z" + b64(z);
  }
  return "j" + b64(bytes);
}

async function decodeState(frag) {
  const bytes = unb64(frag.slice(1));
  let data = bytes;
  if (frag[0] === "z") data = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer());
  return JSON.parse(new TextDecoder().decode(data));
}

function b64(u8) {
  let s = "";
  for (const b of u8) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function unb64(s) {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, c => c.charCodeAt(0));
}

async function restore() {
  const m = location.hash.match(/^#s=(.+)$/);
  if (!m) return false;
  const st = await decodeState(m[1]);
  $("testname").value = st.name || "test.litmus";
  setText(testView, st.test || "");
  testView.dispatch({ effects: testView.langC.reconfigure(langFor($("testname").value)) });
  if ([...$("command").options].some(o => o.value === st.command)) $("command").value = st.command;
  if ([...$("engine").options].some(o => o.value === st.engine)) $("engine").value = st.engine;
  $("explain").checked = !!st.explain;
  $("bound").value = st.bound || 0;
  $("target").value = st.target || ""; $("source").value = st.source || "";
  $("model").value = st.model || "";
  if (st.custom) { setText(modelView, st.cat || ""); $("catname").value = st.cat_name || "model.cat"; setCustom(true); }
  updateCommand();
  return true;
}

// --- start ---
let testView, modelView;
async function main() {
  const engine = await detect();
  testView = makeEditor($("test-editor"), "", langFor("x.litmus"));
  modelView = makeEditor($("model-editor"), "(* The model used is the one chosen above; press 'Edit the chosen model' to change it here. *)\n", catLang);
  setCustom(false);
  try { examples = await (await fetch("examples.json")).json(); } catch { examples = []; }
  await engine.ready;
  setupSelects();
  $("examples").onchange = e => loadExample(e.target.value);
  $("command").onchange = updateCommand;
  $("testname").onchange = () => testView.dispatch({ effects: testView.langC.reconfigure(langFor($("testname").value)) });
  $("run").onclick = run;
  $("cancel").onclick = () => runner.cancel();
  $("edit-model").onclick = async () => {
    const name = $("model").value || defaultModel();
    const base = name.replace(/\.cat$/, "");
    const mapped = { x86tso: "tso", ppc: "power", arm: "armv7" }[base] || base;
    setText(modelView, await modelSource(mapped));
    $("catname").value = mapped + ".cat";
    setCustom(true);
  };
  $("drop-model").onclick = () => setCustom(false);
  setupSuite();
  $("share").onclick = () => share().catch(e => { $("progress").textContent = "share: " + e; });
  if (await restore()) run();
  else if (examples.length) { loadExample(examples[0].group + "/" + examples[0].name); }
  // For the browser tests and for scripts: set the test's text; answer a
  // request as Run does, without showing it.
  window.playground = { setTest(name, text) { $("testname").value = name; setText(testView, text); },
    setModel(name, text) { setText(modelView, text); $("catname").value = name; setCustom(true); },
    testText: () => testView.state.doc.toString(), loadExample, run, share, request: req => runner.run(req), runSuite };
  window.readyAt = performance.now();
  document.body.dataset.ready = "1";
}

// share puts the share link in the address bar (and the clipboard, when
// the browser lets the page write it) and returns it.
async function share() {
  const url = location.href.split("#")[0] + "#s=" + await encodeState();
  window.history.replaceState(null, "", url);
  $("progress").textContent = "share link in the address bar";
  try { await navigator.clipboard.writeText(url); $("progress").textContent = "share link copied"; } catch { }
  return url;
}

function defaultModel() {
  const arch = (testView.state.doc.line(1).text.split(/\s+/)[0] || "").toUpperCase();
  return { X86: "tso", X86_64: "tso", PPC: "power", AARCH64: "aarch64", ARM: "armv7", RISCV: "riscv", C: "rc11", SPARC: "tso" }[arch] || "sc";
}

main();
