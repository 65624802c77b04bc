// Syntax highlighting for the playground's languages, as CodeMirror
// stream modes: litmus tests (any architecture), CAT models, C-like
// programs (.c, .pts) and Cubicle systems (.cub).
import { StreamLanguage } from "@codemirror/language";

function mode(keywords, opts) {
  const kw = new Set(keywords);
  return StreamLanguage.define({
    name: opts.name,
    startState: () => ({ comment: 0 }),
    token: function tok(stream, state) {
      if (state.comment > 0) {
        while (!stream.eol()) {
          if (stream.match("*)")) { state.comment--; if (!state.comment) return "comment"; }
          else if (stream.match("(*")) state.comment++;
          else stream.next();
        }
        return "comment";
      }
      if (stream.eatSpace()) return null;
      if (opts.ml && stream.match("(*")) { state.comment = 1; return tok(stream, state) || "comment"; }
      if (opts.c && stream.match("//")) { stream.skipToEnd(); return "comment"; }
      if (opts.c && stream.match("/*")) {
        while (!stream.eol() && !stream.match("*/")) stream.next();
        return "comment";
      }
      if (opts.c && stream.sol() && stream.peek() === "#") { stream.skipToEnd(); return "meta"; }
      if (stream.match(/^"([^"\\]|\\.)*"?/)) return "string";
      if (stream.match(/^\$?-?\d+/)) return "number";
      if (stream.match(/^[A-Za-z_][\w.\-]*/)) {
        const w = stream.current();
        if (kw.has(w) || kw.has(w.toLowerCase()) && opts.ci) return "keyword";
        if (opts.reg && opts.reg.test(w)) return "variableName.special";
        if (opts.upperIsOp && /^[A-Z][A-Z0-9.]*$/.test(w)) return "operatorKeyword";
        return "variableName";
      }
      if (stream.match(/^(\/\\|\\\/|[|;&*+?^~\\-]|<=|>=|==|!=)/)) return "operator";
      stream.next();
      return null;
    },
    languageData: { commentTokens: opts.c ? { line: "//" } : { block: { open: "(*", close: "*)" } } },
  });
}

export const litmusLang = mode(["exists", "forall", "locations", "filter", "true", "false", "not", "int", "uint64_t", "uint32_t", "atomic_int"],
  { name: "litmus", ml: true, upperIsOp: true, reg: /^(\d+:)?([RrXxWw]\d+|E?[A-D]X|r\d+)$/ });
export const catLang = mode(["let", "rec", "and", "acyclic", "irreflexive", "empty", "as", "include", "show", "unshow", "flag", "if", "else", "then",
  "match", "with", "procedure", "call", "forall", "do", "end", "in", "fun", "enum", "instructions", "default", "undefined_unless", "variant"],
  { name: "cat", ml: true });
export const cLang = mode(["int", "void", "if", "else", "while", "for", "do", "return", "atomic_int", "struct", "static", "const", "unsigned", "long",
  "char", "bool", "thread", "assert", "exists", "forall", "fence", "memory_order_relaxed", "memory_order_acquire", "memory_order_release",
  "memory_order_acq_rel", "memory_order_seq_cst", "program", "atomic"], { name: "c", c: true });
export const cubLang = mode(["var", "type", "array", "const", "init", "unsafe", "transition", "requires", "weak", "invariant", "case", "forall_other",
  "exists_other", "True", "False", "proc", "int", "bool", "real", "fence", "number_procs"], { name: "cubicle", ml: true });

export function langFor(name) {
  if (name.endsWith(".cat") || name.endsWith(".bell")) return catLang;
  if (name.endsWith(".c") || name.endsWith(".pts")) return cLang;
  if (name.endsWith(".cub")) return cubLang;
  return litmusLang;
}
