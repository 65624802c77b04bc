// Collects the playground's examples from the repository into
// dist/examples.json: the bundled examples, classic tests per
// architecture, assembly and C programs for check, and a long test to
// show Cancel.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../../../", import.meta.url).pathname;
const out = [];
const add = (group, dir, filter, extra = {}) => {
  for (const name of readdirSync(join(root, dir)).sort()) {
    if (!filter(name)) continue;
    out.push({ group, name, text: readFileSync(join(root, dir, name), "utf8"), ...extra });
  }
};
add("Bundled", "examples/litmus", n => n.endsWith(".litmus"));
for (const [arch, prefix] of [["X86", "X86-"], ["PPC", "PPC-"], ["AArch64", "AArch64-"]]) {
  add("Classic " + arch, "internal/explain/testdata", n => n.startsWith(prefix) && n.endsWith(".litmus"));
  // The same shapes without fences, which the model allows (our texts).
  add("Classic " + arch, "internal/playground/web/examples", n => n.startsWith(prefix) && n.endsWith(".litmus"));
}
for (const [arch, prefix] of [["ARM", "ARM-"], ["RISC-V", "RISCV-"], ["C11", "C-"]]) {
  add("Classic " + arch, "internal/playground/web/examples", n => n.startsWith(prefix) && n.endsWith(".litmus"));
}
add("Long (to cancel)", "internal/enum/testdata", n => n === "W4x8.litmus");
// Each with the options that make it answer as examples/asm/README.md
// shows: loops taken at most once (-bound 1). The static site runs them
// with litmus -unroll 1; there the explicit engine's -explain does not
// end in minutes on two of them (it looks at every candidate), so they
// run without it.
const slowExplain = new Set(["sparc-spinlock.litmus", "tas-spinlock-bug.litmus"]);
for (const name of readdirSync(join(root, "examples/asm")).sort()) {
  if (!name.endsWith(".litmus")) continue;
  const extra = { command: "check", bound: 1 };
  if (slowExplain.has(name)) extra.explain = false;
  add("Assembly with loops (check)", "examples/asm", n => n === name, extra);
}
// For aarch64, where each bug of examples/c/expected.csv shows (under
// tso every -bug program passes).
add("C programs (check, server only)", "examples/c", n => n.endsWith(".c") && !n.includes("chase-lev"), { command: "check", target: "aarch64" });
add("Programs (server only)", "internal/playground/web/examples", n => n.endsWith(".pts"), { command: "check", target: "power" });
add("Programs (server only)", "internal/playground/web/examples", n => n.endsWith(".cub"), { command: "param" });
writeFileSync(new URL("dist/examples.json", import.meta.url), JSON.stringify(out));
console.log(`examples.json: ${out.length} examples`);
