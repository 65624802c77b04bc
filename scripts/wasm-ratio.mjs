// node scripts/wasm-ratio.mjs WASM WASM_EXEC_JS DIR PASSES [BRIEF [BATCH]]
//
// Runs every .litmus file of DIR through the static site's WebAssembly
// engine (musket.wasm, as the page's worker calls it: the request as its
// JSON text written into Go's memory, musketCall, the answer read from
// it; see runText below), PASSES times in one instance, then BRIEF (default 0)
// more times with brief requests (the verdict alone, as the page's run
// over a folder asks), then BATCH (default 0) more times with brief
// requests 8 tests at a time, as the page's worker runs a folder
// (through musketBatch when the module has no exported functions), and
// prints one JSON
// line: the CPU time (user+system, every thread of this Node process, so
// V8's background compiles count) of the start-up and of each pass in
// ms, the wall time beside it, and the size the engine's memory grew to
// (memMB). CPU time, not wall time, so that a
// loaded machine does not spoil the ratio to the native binary
// (scripts/wasm-ratio.sh). With ANSWERS=FILE it writes each test's
// status, verdict and observation of the first pass to FILE.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const [wasmPath, execJS, dir, passesS] = process.argv.slice(2);
require(path.resolve(execJS));
const passes = +passesS || 3, briefs = +process.argv[6] || 0, batches = +process.argv[7] || 0;
const files = fs.readdirSync(dir).filter(f => f.endsWith(".litmus")).sort();
const tests = files.map(f => ({ name: f, test: fs.readFileSync(path.join(dir, f), "utf8") }));
const cpuMs = c => (c.user + c.system) / 1000;
const c0 = process.cpuUsage(), t0 = performance.now();
const go = new Go();
const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), go.importObject);
go.run(instance);
while (!globalThis.musketRun) await new Promise(r => setTimeout(r, 1));
// The request in and the answer out as the page's worker passes them
// (worker.js, runText): through musket-wasm's exported functions and Go's
// memory when the module has them, else through musketRun.
const ex = instance.exports, encoder = new TextEncoder(), decoder = new TextDecoder();
const runText = !ex.musketCall ? t => globalThis.musketRun(t) : t => {
  const max = 3 * t.length, at = ex.musketIn(max);
  const { written } = encoder.encodeInto(t, new Uint8Array(ex.mem.buffer, at, max));
  const n = ex.musketCall(written);
  return decoder.decode(new Uint8Array(ex.mem.buffer, ex.musketOut(), n));
};
const startCPU = cpuMs(process.cpuUsage(c0)), startWall = performance.now() - t0;
const cpu = [], wall = [], answers = [];
for (let p = 0; p < passes + briefs; p++) {
  const c = process.cpuUsage(), s = performance.now(), brief = p >= passes;
  for (const x of tests) {
    const r = JSON.parse(runText(JSON.stringify({ name: x.name, test: x.test, engine: "enum", brief })));
    const a = x.name + " " + r.status + " " + (r.result ? (r.result.verdict || "") + " " + (r.result.observation || "") : "");
    if (p === 0) answers.push(a);
    else if (brief && a !== answers[tests.indexOf(x)]) throw new Error("brief answer " + a + ", full answer " + answers[tests.indexOf(x)]);
  }
  wall.push(Math.round(performance.now() - s));
  cpu.push(Math.round(cpuMs(process.cpuUsage(c))));
}
for (let p = 0; p < batches; p++) {
  const c = process.cpuUsage(), s = performance.now();
  const base = { engine: "enum", brief: true };
  for (let i = 0; i < tests.length; i += 8) {
    const part = tests.slice(i, i + 8);
    // As worker.js' runBatch: a request per test through the exported
    // functions when the module has them, else musketBatch.
    const rs = JSON.parse(ex.musketCall ? "[" + part.map(x => runText(JSON.stringify({ ...base, name: x.name, test: x.test }))).join(",") + "]"
      : globalThis.musketBatch(base, part.map(x => x.name), part.map(x => x.test)));
    rs.forEach((r, k) => {
      const a = part[k].name + " " + r.status + " " + (r.result ? (r.result.verdict || "") + " " + (r.result.observation || "") : "");
      if (a !== answers[i + k]) throw new Error("batch answer " + a + ", full answer " + answers[i + k]);
    });
  }
  wall.push(Math.round(performance.now() - s));
  cpu.push(Math.round(cpuMs(process.cpuUsage(c))));
}
if (process.env.ANSWERS) fs.writeFileSync(process.env.ANSWERS, answers.join("\n") + "\n");
const memMB = Math.round(instance.exports.mem.buffer.byteLength / 1048576);
console.log(JSON.stringify({ tests: tests.length, startCPU: Math.round(startCPU), startWall: Math.round(startWall), cpu, wall, memMB }));
process.exit(0);
