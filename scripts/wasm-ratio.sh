#!/usr/bin/env bash
# wasm-ratio.sh [-n RUNS] [-native NATIVE] [-nobrowser] [SUITE_DIR...]
#
# The playground's WebAssembly engine against the native binary, in CPU
# time (user+system), on whole folders of litmus tests (default: the
# corpus' X86 and PPC suites). CPU time rather than wall time, so that a
# machine other programs load does not spoil the ratio; run it on an idle
# machine all the same for figures to quote (CPU time still grows some
# with the load: shared caches, the other hyperthread).
#
#   - native: `musket litmus -engine enum -j 1 DIR` (the explicit
#     engine, single-threaded, as the wasm engine is), user+sys of the
#     process to the microsecond (os.wait4's rusage; /usr/bin/time prints
#     10 ms steps, an eighth of the X86 figure), NATIVE runs (default 5)
#     beside each node run, so 5 x RUNS in all: the native figure is the
#     median of these (the smallest and the spread are printed beside
#     it). The median, not the smallest: on a loaded machine a single
#     native run moved by 30-50% (80-140 ms on X86), so the smallest of
#     two or three decided whether a ratio read 2.7x or 3.9x;
#   - node: the static site's musket.wasm in Node (scripts/wasm-ratio.mjs),
#     three passes over the folder in one instance: the process' CPU time
#     (every thread: V8's background compiles count) at start-up and per
#     pass;
#   - chromium: the static site in headless Chromium through its page and
#     worker (BenchmarkBrowserSuite in internal/serve): the renderer
#     process' CPU time (every thread, from /proc: each thread's run time
#     to the nanosecond, from its schedstat, not /proc/PID/stat's 10 ms
#     steps; printed under each pass split by thread: the page's main
#     thread, the page's worker, where the engine runs, and Chromium's
#     thread pool, where V8 compiles) over the cold pass (a
#     fresh profile, Run as the page is ready), the warm pass (the same
#     page again), the steady pass (a third time: the tier-up is then
#     nearly over), the echo pass (the same requests with the command
#     "check", which the worker refuses at once: what a request costs
#     besides the engine, messages and syscall/js), the revisit (the
#     page opened again in the same browser), the return visit (the
#     browser closed and started again on the same profile, the page
#     opened, Run at once) and the warmed pass (a
#     fresh browser, after the page's warm-up). These passes send one
#     request per test, as the page's Run does. The batch passes run the
#     folder through the page's run over many tests ("Open a folder…"):
#     brief answers (the verdict alone), one message to the worker and a
#     few back, the results table filled: batch-cold (a fresh browser, at
#     once), batch-warm (the same page again), batch (the first visit's
#     page after its passes, as warm as steady).
#
#   The node rows call the engine as the page's worker does (the
#   request's JSON text written into Go's memory, musketCall; see
#   wasm-ratio.mjs), one request per test, with no messages; "node
#   brief" is a fourth pass with brief answers, "node batch" a fifth as
#   the page's worker runs a folder.
#
# Both sides do the same work: the same tests, the same engine and
# options (-engine enum, the architecture's default model), and the same
# answers: the script stops when a test's status, verdict or observation
# differs between the native binary (-json) and the WebAssembly engine.
# The native figure is the whole process, its start-up included (about
# 4 ms: `musket version`), as a user running the binary pays it; the
# WebAssembly passes after the first do not pay the engine's start-up,
# as a user of an open page does not.
#
# The binary does more than the page's worker, though: it hashes each
# test (herd7's Hash= line, which the page does not print; about 8 ms of
# the X86 suite's 85) and prints herd7's text, where the worker encodes
# each answer's JSON (text, states table, the execution to draw). So
# each row also gives, in square brackets, the ratio to the worker's own
# work done natively: musket-wasm built for this system (`musket-wasm
# DIR`: the same requests decoded, run and answered by the same Go code
# as in the worker, one process, its start-up included), timed as the
# binary is, NATIVE x RUNS runs alternating with it; its median.
#
# Each side runs RUNS times (default 3), alternating; the table gives the
# smallest CPU time of each wasm pass (load only ever adds) and its ratio
# to the native binary's median, and, in brackets, to the native
# binary's smallest (the harder ratio). Ratios are wasm / native.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
runs=3 browser=1 natives=5
while [ $# -gt 0 ]; do
	case "$1" in
	-n) runs=$2; shift 2 ;;
	-native) natives=$2; shift 2 ;;
	-nobrowser) browser=0; shift ;;
	*) break ;;
	esac
done
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
	corpus="${MUSKET_CORPUS:-$repo/../shared/corpus}"
	suites=("$corpus/litmus/X86" "$corpus/litmus/PPC")
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/musket" ./cmd/musket && go build -o "$work/musket-wasm" ./cmd/musket-wasm)
"$repo/scripts/playground.sh" "$work/site" >/dev/null

for dir in "${suites[@]}"; do
	dir="$(cd "$dir" && pwd)"
	name="$(basename "$dir")"
	: >"$work/native" ; : >"$work/same" ; : >"$work/node"
	for i in $(seq "$runs"); do
		python3 - "$natives" "$work/native" "$work/same" "$work/musket" litmus -engine enum -j 1 "$dir" -- "$work/musket-wasm" "$dir" <<'PY'
import os, subprocess, sys
# The children's user+system CPU time in ms, to the microsecond, n times
# each, alternating: the native binary into the first file, the worker's
# work natively (musket-wasm built for this system) into the second.
n, files, args = int(sys.argv[1]), sys.argv[2:4], sys.argv[4:]
cut = args.index("--")
cmds = [args[:cut], args[cut + 1:]]
for _ in range(n):
    for f, cmd in zip(files, cmds):
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        if status != 0:
            sys.exit("%s: exit status %d" % (" ".join(cmd), status >> 8))
        with open(f, "a") as w:
            print("%.1f" % ((ru.ru_utime + ru.ru_stime) * 1000), file=w)
PY
		ANSWERS="$work/answers.$i" node "$repo/scripts/wasm-ratio.mjs" "$work/site/musket.wasm" "$work/site/wasm_exec.js" "$dir" 3 1 1 >>"$work/node"
	done
	# The same answers: the native binary's (-json, one more run, not
	# timed) against the WebAssembly engine's in Node (the first run's
	# first pass; wasm-ratio.mjs checks its other passes against it, and
	# the browser benchmark checks every Chromium pass against the native
	# engine in its own process). Status, verdict and observation of
	# every test; a difference stops the script.
	"$work/musket" litmus -engine enum -j 1 -json "$dir" >"$work/native.json" 2>/dev/null || true
	"$work/musket-wasm" "$dir" >"$work/same.json"
	python3 - "$work/native.json" "$work/answers.1" "$work/same.json" "$dir" <<'PY'
import json, os, sys
native = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "file" in r:
        native[os.path.basename(r["file"])] = "%s %s %s" % (r.get("status", ""), r.get("verdict", ""), r.get("observation", ""))
# musket-wasm's native build answers the tests in name order.
names = sorted(f for f in os.listdir(sys.argv[4]) if f.endswith(".litmus"))
same = {}
for name, line in zip(names, open(sys.argv[3])):
    r = json.loads(line)
    res = r.get("result") or {}
    same[name] = "%s %s %s" % (r.get("status", ""), res.get("verdict", ""), res.get("observation", ""))
bad = [n for n in sorted(set(native) | set(same)) if native.get(n) != same.get(n)]
for n in bad[:10]:
    print("answers differ: %s: native binary %r, musket-wasm natively %r" % (n, native.get(n), same.get(n)), file=sys.stderr)
if bad:
    sys.exit("%d of %d answers differ between the native binary and musket-wasm's native build" % (len(bad), len(native)))
wasm = {}
for line in open(sys.argv[2]):
    name, _, rest = line.rstrip("\n").partition(" ")
    wasm[name] = " ".join(rest.split())
bad = [n for n in sorted(set(native) | set(wasm)) if native.get(n) != wasm.get(n)]
for n in bad[:10]:
    print("answers differ: %s: native %r, wasm %r" % (n, native.get(n), wasm.get(n)), file=sys.stderr)
if bad:
    sys.exit("%d of %d answers differ between the native binary and the WebAssembly engine" % (len(bad), len(native)))
print("answers: the %d answers of the native binary, of musket-wasm natively and of the WebAssembly engine agree (status, verdict, observation)" % len(native))
PY
	read -r nat natmin <<<"$(sort -n "$work/native" | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1] }')"
	read -r same samemin <<<"$(sort -n "$work/same" | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1] }')"
	echo "== $name ($(ls "$dir"/*.litmus | wc -l) tests), CPU time in ms, wasm: smallest of $runs runs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "native binary (-j 1):   $nat ms median, $natmin smallest, of $(wc -l <"$work/native") runs   (runs: $(tr '\n' ' ' <"$work/native"))"
	echo "same work, natively:    $same ms median, $samemin smallest, of $(wc -l <"$work/same") runs   (runs: $(tr '\n' ' ' <"$work/same"))"
	python3 - "$work/node" "$nat" "$natmin" "$same" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
nat, natmin, same = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
start = min(r["startCPU"] for r in rows)
print("node start-up:          %d ms" % start)
for i, what in enumerate(["node pass 1 (cold)", "node pass 2 (warm)", "node pass 3", "node brief (pass 4)", "node batch (pass 5)"]):
    v = min(r["cpu"][i] for r in rows)
    print("%-23s %d ms   %.1fx (%.1fx) [%.1fx]   (runs: %s)" % (what + ":", v, v / nat, v / natmin, v / same, " ".join(str(r["cpu"][i]) for r in rows)))
PY
	if [ "$browser" = 1 ]; then
		: >"$work/bench"
		for i in $(seq "$runs"); do
			(cd "$repo" && MUSKET_SUITE_TIME="$dir" go test ./internal/serve -run '^$' -bench BrowserSuite -benchtime 1x -timeout 60m -v) >>"$work/bench" 2>&1 || { cat "$work/bench"; exit 1; }
		done
		# WASM_RATIO_LOGS=DIR keeps the benchmark's logs (every pass' CPU time by thread, the engine's start-up) as DIR/NAME.log.
		if [ -n "${WASM_RATIO_LOGS:-}" ]; then mkdir -p "$WASM_RATIO_LOGS" && cp "$work/bench" "$WASM_RATIO_LOGS/$name.log"; fi
		python3 - "$work/bench" "$nat" "$natmin" "$same" <<'PY'
import re, sys
nat, natmin, same = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
runs = []
for line in open(sys.argv[1]):
    if line.startswith("BenchmarkBrowserSuite/") and "ns/op" in line:  # not -v's line naming the benchmark
        f = line.split()
        runs.append({f[i + 1]: float(f[i]) for i in range(2, len(f) - 1, 2)})
if not runs:
    print("chromium: no figures (no chromium on this machine? scripts/setup-deps.sh installs it)")
    sys.exit(0)
print("chromium page start-up: %d ms (renderer, fresh profile)" % min(r["start-cpu-ms"] for r in runs))
for k, what in [("cold", "first visit, at once"), ("warm", "same page again"), ("steady", "same page, a third time"), ("echo", "same requests, answered at once"), ("revisit", "second visit"), ("return", "browser closed and started again, at once"), ("warmed", "first visit, after warm-up"), ("batch-cold", "a folder in one batch, first visit, at once"), ("batch-warm", "the same again"), ("batch", "first visit's page, after steady")]:
    v = [r[k + "-cpu-ms"] for r in runs]
    print("chromium %-14s %d ms   %.1fx (%.1fx) [%.1fx]   (runs: %s)  %s" % (k + ":", min(v), min(v) / nat, min(v) / natmin, min(v) / same, " ".join("%d" % x for x in v), what))
    if k + "-page-ms" in runs[0]:
        print("  %-22s %s" % ("by thread (each run):", "; ".join("page %d, worker %d, compile %d" % (r[k + "-page-ms"], r[k + "-worker-ms"], r[k + "-compile-ms"]) + (", [browser's other processes %d]" % r[k + "-rest-ms"] if k + "-rest-ms" in r else "") for r in runs)))
print("chromium ready to run:  %d ms wall (runs: %s)" % (min(r["ready-ms"] for r in runs), " ".join("%d" % r["ready-ms"] for r in runs)))
if "warmup-cpu-ms" in runs[0]:
    print("chromium warm-up:       %d ms CPU, the page's start-up and its warm-up, before the warmed pass (runs: %s); warm at %s ms wall" % (min(r["warmup-cpu-ms"] for r in runs), " ".join("%d" % r["warmup-cpu-ms"] for r in runs), " ".join("%d" % r["warmup-ms"] for r in runs)))
    print("  %-22s %s" % ("by thread (each run):", "; ".join("page %d, worker %d, compile %d" % (r["warmup-page-ms"], r["warmup-worker-ms"], r["warmup-compile-ms"]) for r in runs)))
PY
	fi
done
