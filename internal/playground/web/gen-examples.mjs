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
}
for (const [arch, prefix] of [["ARM", "ARM-"], ["RISC-V", "RISCV-"], ["C11", "C-"]]) {
  add("Classic " + arch, "internal/playground/web/examples", n => n.startsWith(prefix) && n.endsWith(".litmus"));
}
add("Long (to cancel)", "internal/enum/testdata", n => n === "W4x8.litmus");
add("Assembly with loops (check)", "examples/asm", n => n.endsWith(".litmus"), { command: "check" });
add("C programs (check, server only)", "examples/c", n => n.endsWith(".c") && !n.includes("chase-lev"), { command: "check" });
add("Programs (server only)", "internal/playground/web/examples", n => n.endsWith(".pts"), { command: "check", target: "power" });
add("Programs (server only)", "internal/playground/web/examples", n => n.endsWith(".cub"), { command: "param" });
writeFileSync(new URL("dist/examples.json", import.meta.url), JSON.stringify(out));
console.log(`examples.json: ${out.length} examples`);
