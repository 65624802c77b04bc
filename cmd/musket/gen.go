package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/gen"
	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/source"
)

func init() {
	register("gen", "generate litmus tests from cycles of relaxations (diyone7, diy7)", runGen)
}

// runGen is 'musket gen -arch ARCH CYCLE...' (one test, as diyone7) and
// 'musket gen -arch ARCH -relax LIST -size N -o DIR' (every cycle, as
// diy7).
func runGen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	archName := fs.String("arch", "X86", "`architecture`: X86, PPC, AArch64, ARM, RISCV, C (C11 atomics) or LKMM (C tests of the Linux kernel's primitives)")
	relax := fs.String("relax", "", "`edges` (comma- or blank-separated; '*' in a direction stands for R and W: Pod**) to build every cycle from, as diy7 does")
	safe := fs.String("safe", "", "`edges` a cycle may use besides -relax; with -safe, each cycle has one -relax edge at least")
	size := intFlag(fs, "size", 4, 0, "with -relax: edges in a cycle, at most")
	procs := intFlag(fs, "nprocs", 4, 0, "with -relax: threads in a test, at most (0: no bound)")
	timeout := addTimeout(fs, "enumeration (-relax)")
	cond := fs.String("cond", "cycle", "`style` of the final condition, as diy7's -cond: cycle (exists: every edge observed), unicond (forall over the outcomes the architecture's model gives the program), observe (a locations line, no condition)")
	obsMode := fs.String("obs", "", "`mode` of observers, as diy7's -obs: accept (an observer thread for a location written 3 times or more), avoid (final values only; refuse a cycle that needs more), force (an observer thread for 2 writes or more), local (a load at the end of the earlier write's thread for each pair of writes in two threads, no final value); none: final values, and a load where they do not pin the order")
	obsType := fs.String("obstype", "fenced", "`type` of observers with -obs, as diy7's -obstype: fenced (the strongest fence between reads) or straight (loop is not written)")
	out := fs.String("o", "", "write each test to `DIR`/NAME.litmus (and, with -relax, the index DIR/@all) instead of stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: musket gen [-arch ARCH] [-o DIR] CYCLE...          the test of one cycle (diyone7): musket gen -arch PPC LwSyncdWW Rfe DpAddrdR Fre")
		fmt.Fprintln(stderr, "       musket gen [-arch ARCH] -relax LIST [-size N] -o DIR  every cycle of at most N edges over LIST, once up to rotation (diy7)")
		fmt.Fprintln(stderr, "The notation is the diy tool suite's (Alglave, Maranget, Sarkar, Sewell, \"Fences in Weak Memory Models\", CAV 2010):")
		fmt.Fprintln(stderr, "Po{s,d}{R,W}{R,W}, Rfe, Rfi, Fre, Fri, Wse, Wsi (Coe, Coi), fences (MFenced.. on X86; LwSyncd.., Syncd.. on PPC;")
		fmt.Fprintln(stderr, "DMB.SYd.., DMB.LDd.., DMB.STd.. on AArch64; DMBd.., DMB.STd.., DSBd.., ISBd.. on ARM; Fence.rw.rwd.., Fence.tsod..,")
		fmt.Fprintln(stderr, "Fence.id.. (fence.i, which orders no memory access) on RISCV;")
		fmt.Fprintln(stderr, "FenceScd.., FenceAcqd.., FenceReld.. on C), dependencies Dp{Addr,Data,Ctrl}{s,d}{R,W} (DpCtrlIsync on PPC,")
		fmt.Fprintln(stderr, "DpCtrlIsb on AArch64 and ARM, DpCtrlFenceI on RISCV), annotations after the directions (PodWRLA, RfePA on")
		fmt.Fprintln(stderr, "AArch64; PodWRRlAq on RISCV, where AR is an access by an AMO with .aq.rl: amoor.w.aq.rl r,x0 for a read,")
		fmt.Fprintln(stderr, "amoswap.w.aq.rl x0,v for a write; memory orders on C: PodWWRlxRel RfeRelAcq, P or none a plain access).")
		fmt.Fprintln(stderr, "Rmw is an atomic read-modify-write (XCHG on X86, lwarx/stwcx. on PPC, LDXR/STXR on AArch64 (also LxSx; Amo.Swp,")
		fmt.Fprintln(stderr, "Amo.Cas, Amo.LdAdd, Amo.LdEor, Amo.StAdd, Amo.StEor), LDREX/STREX on ARM, amoswap.w on RISCV, atomic_exchange_explicit on C: RmwRlxRlx, RmwAcqAcq); Hat relates two reads of")
		fmt.Fprintln(stderr, "one write in two threads. Detours: DetourR, DetourW, DetourRW, DetourWW (and RfLeave ... RfBack, Fr.., Ws..) go")
		fmt.Fprintln(stderr, "through a write of another thread and back; a coherence order no read pins gets an observer load, or as -obs says.")
		fmt.Fprintln(stderr, "X annotates an exclusive access (AArch64, RISCV: RfeXP, PodWWXX): a LDXR/STXR (lr.w/sc.w) pair, once, its store's")
		fmt.Fprintln(stderr, "success flag 0 in the condition (diy's -unrollatomic 0); a read writes back the value it read.")
		fmt.Fprintln(stderr, "Mixed sizes (AArch64): each access may give its size (b, h, w, q: 1, 2, 4, 8 bytes) and byte offset after the")
		fmt.Fprintln(stderr, "directions, alone or after an annotation and a dot: PosWWw0q0, Rfew4P, PodWWq0L.w0. A write of number v stores")
		fmt.Fprintln(stderr, "v in each of its bytes (w: 0x01010101), a read returns its bytes of the location after the write it reads.")
		fmt.Fprintln(stderr, "LKMM (the Linux kernel's model, diy7 -arch LISA with the kernel's bell): kinds Once, Acquire, Release after the")
		fmt.Fprintln(stderr, "directions (PodWROnceAcquire: READ_ONCE then smp_load_acquire; RfeReleaseOnce: smp_store_release then READ_ONCE;")
		fmt.Fprintln(stderr, "none: Once), fences FenceMbd.., FenceWmbd.., FenceRmbd.. (smp_mb, smp_wmb, smp_rmb), Rmw with its kind twice")
		fmt.Fprintln(stderr, "(RmwOnceOnce xchg_relaxed, RmwAcquireAcquire, RmwReleaseRelease, RmwMbMb xchg). Run its tests with the kernel's")
		fmt.Fprintln(stderr, "model: musket litmus -conf linux-kernel.cfg (from the kernel's tools/memory-model).")
		fmt.Fprintln(stderr, "When -timeout, -memory or a signal stops the enumeration, the tests found so far are written, for at most a")
		fmt.Fprintln(stderr, "second more; those not written by then are dropped, the index lists those written, and the exit status is 3 (130).")
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	a, err := gen.LookupArch(*archName)
	if err != nil {
		return usageError(fs, stderr, "%v", err)
	}
	if !slices.Contains(condStyles, *cond) {
		return usageError(fs, stderr, "-cond %q: want %s", *cond, strings.Join(condStyles, ", "))
	}
	obs, err := gen.ParseObs(*obsMode, *obsType)
	if err != nil {
		return usageError(fs, stderr, "%v", err)
	}
	if *relax == "" {
		if len(operands) == 0 {
			return usageError(fs, stderr, "give a cycle (e.g. PodWR Fre PodWR Fre) or -relax LIST")
		}
		return genOne(a, operands, obs, *cond, *out, stdout, stderr)
	}
	if len(operands) > 0 {
		return usageError(fs, stderr, "-relax enumerates cycles: give no cycle with it (got %q)", strings.Join(operands, " "))
	}
	if *out == "" {
		return usageError(fs, stderr, "-relax writes many tests: give the folder with -o DIR")
	}
	return genAll(a, *relax, *safe, *size, *procs, obs, timeout.resolve(1), *cond, *out, stdout, stderr)
}

func genOne(a *gen.Arch, words []string, obs gen.Obs, cond, out string, stdout, stderr io.Writer) int {
	es, err := a.ParseCycle(words)
	if err != nil {
		fmt.Fprintf(stderr, "musket gen: %v\n", err)
		return exitBadInput
	}
	t, err := gen.BuildObs(a, es, obs)
	if err != nil {
		fmt.Fprintf(stderr, "musket gen: %s\n", source.ClipMessage(strings.Join(words, " ")+": "+err.Error()))
		if _, unsup := err.(*gen.ErrUnsupported); unsup {
			return exitLimit
		}
		return exitBadInput
	}
	var b bytes.Buffer
	if err := t.Write(&b); err != nil {
		fmt.Fprintf(stderr, "musket gen: %v\n", err)
		return exitBadInput
	}
	text, err := restyle(b.Bytes(), cond, a.Name)
	if err != nil {
		fmt.Fprintf(stderr, "musket gen: -cond %s: %v\n", cond, err)
		return exitBadInput
	}
	if out == "" {
		if _, err := stdout.Write(text); err != nil {
			fmt.Fprintf(stderr, "musket gen: %v\n", err)
			return exitBadInput
		}
		return exitOK
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintf(stderr, "musket gen: -o: %v\n", err)
		return exitBadInput
	}
	path := filepath.Join(out, testFile(t.Name()))
	if err := writeFileAtomic(path, text); err != nil {
		fmt.Fprintf(stderr, "musket gen: %v\n", err)
		return exitBadInput
	}
	fmt.Fprintln(stdout, path)
	return exitOK
}

func genAll(a *gen.Arch, relax, safe string, size, procs int, obs gen.Obs, limit time.Duration, cond, out string, stdout, stderr io.Writer) int {
	r, err := a.ExpandList(relax)
	if err != nil {
		fmt.Fprintf(stderr, "musket gen: -relax: %v\n", err)
		return exitBadInput
	}
	s, err := a.ExpandList(safe)
	if err != nil {
		fmt.Fprintf(stderr, "musket gen: -safe: %v\n", err)
		return exitBadInput
	}
	// The cycles grow exponentially with -size: the enumeration stops at
	// the time limit or at SIGINT/SIGTERM, and the tests found so far are
	// written (exit 3 or 130).
	sig := interruptibleIn(commandContext(stdout))
	defer sig.stop()
	ctx, cancel := sig.ctx, context.CancelFunc(func() {})
	if limit > 0 {
		ctx, cancel = context.WithTimeout(sig.ctx, limit)
	}
	defer cancel()
	// -memory is a limit (exit 3) here too: the tests found are kept in
	// memory until written.
	ctx, unwatch := memlimit.Watch(ctx)
	defer unwatch()
	spin := startSpinner(stderr, "gen: enumerating the cycles")
	tests, st, err := a.Enumerate(gen.Options{Relax: r, Safe: s, Size: size, Procs: procs, Obs: obs,
		Stop: func() bool { return ctx.Err() != nil }})
	spin()
	if err != nil {
		fmt.Fprintf(stderr, "musket gen: %v\n", err)
		return exitBadInput
	}
	code := exitOK
	// Writing is bounded too: 4117 tests found before -memory 64M
	// stopped the enumeration took 3.6 s more to write (robust5). It goes
	// on for writeGrace past the limit (or past the stop, when a limit
	// stopped the enumeration), then the tests not yet written are
	// dropped and the run says so. A signal during the writing stops it
	// at once; one that stopped the enumeration leaves it writeGrace.
	wctx, wcancel := sig.ctx, context.CancelFunc(func() {})
	if st.Stopped {
		wctx, wcancel = context.WithTimeout(context.Background(), writeGrace)
	} else if d, ok := ctx.Deadline(); ok {
		wctx, wcancel = context.WithDeadline(sig.ctx, d.Add(writeGrace))
	}
	defer wcancel()
	if st.Stopped {
		code = exitLimit
		if sig.interrupted() {
			code = exitInterrupted
			fmt.Fprintf(stderr, "musket gen: interrupted: the enumeration stopped early; writing the %d tests found so far\n", len(tests))
		} else if memlimit.Exceeded(ctx) {
			fmt.Fprintf(stderr, "musket gen: %v: the enumeration stopped early; writing the %d tests found so far\n", memlimit.Error(), len(tests))
		} else {
			fmt.Fprintf(stderr, "musket gen: timed out (limit %v): the enumeration stopped early; writing the %d tests found so far\n", limit, len(tests))
		}
	}
	spin = startSpinner(stderr, fmt.Sprintf("gen: writing %d tests", len(tests)))
	written, err := writeGenTests(wctx, tests, out, cond)
	spin()
	if err != nil {
		fmt.Fprintf(stderr, "musket gen: %v\n", err)
		return exitBadInput
	}
	if written < len(tests) {
		if code == exitOK {
			code = exitLimit
		}
		switch {
		case st.Stopped:
			fmt.Fprintf(stderr, "musket gen: the time to write the tests is bounded too (%v past the stop): %d of the %d tests found were written (the index lists them)\n", writeGrace, written, len(tests))
		case sig.interrupted():
			code = exitInterrupted
			fmt.Fprintf(stderr, "musket gen: interrupted while writing: %d of the %d tests found were written (the index lists them)\n", written, len(tests))
		default:
			fmt.Fprintf(stderr, "musket gen: the time to write the tests is bounded too (%v past the limit): %d of the %d tests found were written (the index lists them)\n", writeGrace, written, len(tests))
		}
		tests = tests[:written]
	}
	fmt.Fprintf(stdout, "%d tests in %s (index %s)", len(tests), out, filepath.Join(out, "@all"))
	if st.Unsupported > 0 {
		fmt.Fprintf(stdout, "; %d valid cycles left out (three writes or more to one location in a coherence order the condition cannot pin, a dependency into a read-modify-write, or in a mixed-size cycle an observer, an address dependency into an offset, Rmw or Hat)", st.Unsupported)
	}
	fmt.Fprintln(stdout)
	return code
}

// writeGrace is how long gen may go on writing the tests it found past
// its time limit, or past a stop by a limit.
const writeGrace = time.Second

// writeGenTests writes each test to DIR/NAME.litmus and the index @all
// of those written, until ctx is done (looked at before each test): it
// gives how many were written. An error is a file that could not be
// written.
func writeGenTests(ctx context.Context, tests []gen.Generated, out, cond string) (int, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return 0, fmt.Errorf("-o: %w", err)
	}
	var index bytes.Buffer
	written := 0
	for _, g := range tests {
		if ctx.Err() != nil {
			break
		}
		var b bytes.Buffer
		if err := g.Test.WriteNamed(&b, g.Name); err != nil {
			return written, err
		}
		text, err := restyle(b.Bytes(), cond, g.Test.Arch.Name)
		if err != nil {
			return written, fmt.Errorf("%s: -cond %s: %w", g.Name, cond, err)
		}
		file := testFile(g.Name)
		if err := writeFileAtomic(filepath.Join(out, file), text); err != nil {
			return written, err
		}
		index.WriteString(file + "\n")
		written++
	}
	return written, writeFileAtomic(filepath.Join(out, "@all"), index.Bytes())
}

// maxTestFile is the longest file name gen writes, in bytes: a file
// system takes 255, and the temporary file beside it (writeFileAtomic)
// adds a suffix.
const maxTestFile = 200

// testFile is the file of the test called name: name.litmus, or, for a
// name too long for a file (a cycle of hundreds of edges: "file name
// too long", robust5), its start and a digest of the whole name. The
// test inside keeps its whole name.
func testFile(name string) string {
	if len(name)+len(".litmus") <= maxTestFile {
		return name + ".litmus"
	}
	sum := sha256.Sum256([]byte(name))
	return name[:maxTestFile-len(".litmus")-17] + "-" + hex.EncodeToString(sum[:8]) + ".litmus"
}
