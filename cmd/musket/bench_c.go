package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/musket-verify/musket/internal/cfront"
)

func init() {
	registerBench("c", "the C benchmark programs (examples/c: locks, lock-free stacks, queues, deques) under RC11 and the hardware targets, against examples/c/expected.csv", runBenchC)
}

// cColumn is one column of the C table: a model of its own (-model) or a
// target whose built-in model checks the program compiled by the C11
// mappings (-target).
type cColumn struct {
	title         string
	model, target string
}

// cColumns are the columns of 'musket bench c', in order.
var cColumns = []cColumn{
	{title: "rc11", model: "rc11"},
	{title: "imm", model: "imm"},
	{title: "tso", target: "x86"},
	{title: "aarch64", target: "aarch64"},
	{title: "power", target: "power"},
	{title: "riscv", target: "riscv"},
}

// The verdicts of a cell.
const (
	cSafe    = "safe"     // no assertion can fail within the bound
	cUnsafe  = "unsafe"   // an assertion can fail
	cRace    = "race"     // a data race (C11 models; an assertion may fail too)
	cTimeout = "timeout"  // the time limit was reached
	cLimit   = "limit"    // another limit: the bound was too small to be sure, unsupported
	cError   = "error"    // bad input, unsupported C
	cDiffer  = "disagree" // the engines disagree (-engine both)
)

// cCell is the answer of one check.
type cCell struct {
	Verdict string        // one of the verdicts above
	Time    time.Duration // as the check measured it
	Note    string        // why, for an error or a limit
	CPU     time.Duration // CPU time of the check, clang's included: user and system of its process, user only in-process (0: unknown)
}

// cCheckOptions are what one check of a C program takes.
type cCheckOptions struct {
	bound     int
	timeout   time.Duration
	engine    string
	noCache   bool                            // -no-cache: clang without the compile cache
	inProcess bool                            // -keep-cc: check in this process, one musket-cc for the table
	ctx       context.Context                 // done when the bench is interrupted: a cell's process is interrupted too (nil: never)
	rowDone   func(done, total int, row cRow) // when set, called as each program's row is complete
}

// benchCCheck checks one C program under one column: 'musket check'
// with the column's -model or -target. By default it runs as a process
// of its own (this executable, benchCProcess) and is timed from its
// start to its exit, which is what a user of 'musket check PROG.c'
// waits for: Go's start-up, the model's load, the compiler, the engines
// and the output, as GenMC's times are whole runs of genmc. With
// -keep-cc (o.inProcess) it runs in this process (benchCInProcess).
// Tests replace it.
var benchCCheck = func(path string, col cColumn, o cCheckOptions) cCell {
	if !o.inProcess {
		if c, ok := benchCProcess(path, col, o); ok {
			return c
		}
	}
	return benchCInProcess(path, col, o)
}

// benchCArgs are the arguments of 'musket check' for one cell.
func benchCArgs(path string, col cColumn, o cCheckOptions) []string {
	args := []string{"-json", "-bound", fmt.Sprint(o.bound), "-engine", o.engine, "-timeout", o.timeout.String()}
	if col.model != "" {
		args = append(args, "-model", col.model)
	} else {
		args = append(args, "-target", col.target)
	}
	if o.noCache {
		args = append(args, "-no-cache")
	}
	return append(args, path)
}

// benchCProcess runs 'musket check' on one cell as a child process of
// this executable, timed from its start to its exit; its CPU time is
// the child's user and system time, its musket-cc's included (the child
// waits for it). It says false when the child cannot be started.
func benchCProcess(path string, col cColumn, o cCheckOptions) (cCell, bool) {
	exe, err := os.Executable()
	if err != nil {
		return cCell{}, false
	}
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	cmd := exec.CommandContext(ctx, exe, append([]string{"check"}, benchCArgs(path, col, o)...)...)
	// SIGINT or SIGTERM sent to the bench alone reaches the check too,
	// which then stops as an interrupted check does.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return cCell{}, false
	}
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		// Killed by a signal: an interruption.
		code = exitInterrupted
	}
	c := cellFromCheck(code, out.Bytes(), errb.String(), wall)
	c.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return c, true
}

// benchCInProcess runs 'musket check' on one cell in this process, timed
// around the whole command (its flags, the model's load, the compiler,
// the engines, its output); the process's start is not counted. Its CPU
// time is user time, clang's included.
func benchCInProcess(path string, col cColumn, o cCheckOptions) cCell {
	var out, errb bytes.Buffer
	start, cpu0 := time.Now(), cpuTimeAll()+cfront.SessionCPU()
	code := runCheck(benchCArgs(path, col, o), &out, &errb)
	c := cellFromCheck(code, out.Bytes(), errb.String(), time.Since(start))
	c.CPU = cpuTimeAll() + cfront.SessionCPU() - cpu0
	return c
}

// cellFromCheck reads the exit status and JSON output of 'musket check
// -json' on one program into a cell. The cell's time is wall, the whole
// check as the bench timed it: the check's own time_ms starts after its
// flags, the model's load and the compiler's start, which a user waits
// for too.
func cellFromCheck(code int, out []byte, stderr string, wall time.Duration) cCell {
	c := cCell{Time: wall}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var j checkJSON
		if err := dec.Decode(&j); err != nil {
			break
		}
		if j.File != "" {
			if j.Error != "" {
				c.Note = j.Error
			}
		}
	}
	switch code {
	case exitOK:
		c.Verdict = cSafe
	case exitFailed:
		c.Verdict = cUnsafe
		if strings.Contains(string(out), `"verdict":"RACE"`) {
			c.Verdict = cRace
		}
	case exitLimit:
		c.Verdict = cLimit
		if strings.Contains(string(out), `"verdict":"TIMEOUT"`) || strings.Contains(string(out), `"status":"timeout"`) {
			c.Verdict = cTimeout
		}
	case exitDisagree:
		c.Verdict = cDiffer
	default:
		c.Verdict = cError
	}
	if c.Note == "" && !isCVerdict(c.Verdict) {
		c.Note = strings.TrimSpace(stderr)
	}
	return c
}

// cExpected reads examples/c/expected.csv: program,model,verdict, the
// program as its file name, the model as a column title, the verdict
// safe or unsafe. It returns the table and the programs in the order of
// their first row.
func cExpected(path string) (map[[2]string]string, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	table := map[[2]string]string{}
	var order []string
	for i, row := range rows {
		if i == 0 && len(row) == 3 && row[0] == "program" {
			continue
		}
		if len(row) != 3 {
			return nil, nil, fmt.Errorf("%s:%d: want program,model,verdict", path, i+1)
		}
		prog, model, verdict := strings.TrimSpace(row[0]), strings.TrimSpace(row[1]), strings.TrimSpace(row[2])
		if !isCVerdict(verdict) {
			return nil, nil, fmt.Errorf("%s:%d: verdict %q (want safe, unsafe or race)", path, i+1, verdict)
		}
		known := false
		for _, c := range cColumns {
			known = known || c.title == model
		}
		if !known {
			return nil, nil, fmt.Errorf("%s:%d: unknown model %q", path, i+1, model)
		}
		key := [2]string{prog, model}
		if _, dup := table[key]; dup {
			return nil, nil, fmt.Errorf("%s:%d: %s under %s given twice", path, i+1, prog, model)
		}
		if !containsString(order, prog) {
			order = append(order, prog)
		}
		table[key] = verdict
	}
	return table, order, nil
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func runBenchC(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench c", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "`folder` of the .c programs and their expected.csv (default: examples/c of the repository)")
	bound := fs.Int("bound", 2, "loop unrolling `bound`")
	timeout := durationFlag(fs, "timeout", 10*time.Second, "time limit per cell (one program under one model), a `duration` (e.g. 10s, or 5 for five seconds)")
	models := fs.String("models", "rc11,imm,tso,aarch64,power,riscv", "comma-separated `columns` to run")
	engine := fs.String("engine", "auto", "`engine` of the checks: auto (as musket check: the graph engine and the SMT engine side by side where the graph engine applies), smt, graph, enum or both")
	noCache := fs.Bool("no-cache", false, "compile with clang without the compile cache (as musket check -no-cache)")
	keepCC := fs.Bool("keep-cc", false, "check in this process with one compiler process (musket-cc) for the whole table, as 'musket check A.c B.c' does, instead of one 'musket check' process per cell as a user of 'musket check PROG.c' waits for; the table is faster, and its ratios to GenMC then leave Musket's and the compiler's start out")
	asJSON := fs.Bool("json", false, "print one JSON object per cell and a summary line (docs/json.md) instead of the tables")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: musket bench c [flags] [PROGRAM.c ...]

Checks each C program of examples/c (or those named) under RC11 and IMM
(-model rc11, imm) and compiled for x86 (TSO), AArch64, Power and RISC-V
by the C11 mappings (-target), as 'musket check' does, and prints program
x model with the verdict (safe: no assertion can fail within the bound;
unsafe: one can; race: a data race under rc11 or imm, where races are
reported first, an assertion may fail too) and the time, each cell
against expected.csv. A cell that
differs from its expected verdict is marked with '!', an error or a
limit is said below the table. Then, for RC11 and IMM, GenMC's verdict and time on
the same program (GenMC v0.10.3, built against LLVM 14, measured on the
programs of examples/c: Kokologiannakis, Vafeiadis, "GenMC: A Model
Checker for Weak Memory Models", CAV 2021), ours, and the ratio, with
the geometric mean of the ratios.

Exit status: the highest of the cells: 0 every cell as expected, 1 a
verdict differs, 2 a check failed (bad input, unsupported C), 3 a time
limit or the bound was reached, 4 the engines disagree (-engine both),
130 interrupted.

Flags:
`)
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if *bound < 1 {
		return usageError(fs, stderr, "-bound %d: want 1 or more", *bound)
	}
	switch *engine {
	case "smt", "enum", "both", "auto", "graph":
	default:
		return usageError(fs, stderr, "unknown engine %q (want auto, smt, graph, enum or both)", *engine)
	}
	var cols []cColumn
	for _, name := range strings.Split(*models, ",") {
		found := false
		for _, c := range cColumns {
			if c.title == strings.TrimSpace(name) {
				cols = append(cols, c)
				found = true
			}
		}
		if !found {
			return usageError(fs, stderr, "unknown column %q (want rc11, imm, tso, aarch64, power or riscv)", name)
		}
	}
	if *dir == "" {
		ex, err := findExamples()
		if err != nil {
			fmt.Fprintf(stderr, "musket bench c: %v\n", err)
			return exitBadInput
		}
		*dir = filepath.Join(ex, "c")
	}
	want, order, err := cExpected(filepath.Join(*dir, "expected.csv"))
	if err != nil {
		fmt.Fprintf(stderr, "musket bench c: %v\n", err)
		return exitBadInput
	}
	var paths []string
	if len(operands) > 0 {
		paths = operands
	} else {
		files, _ := filepath.Glob(filepath.Join(*dir, "*.c"))
		sort.Strings(files)
		for _, p := range order {
			paths = append(paths, filepath.Join(*dir, p))
		}
		for _, f := range files {
			if !containsString(order, filepath.Base(f)) {
				paths = append(paths, f)
			}
		}
	}
	sig := interruptible()
	defer sig.stop()
	o := cCheckOptions{bound: *bound, timeout: *timeout, engine: *engine, noCache: *noCache, inProcess: *keepCC, ctx: sig.ctx}
	rep := newBenchReport("c", *asJSON, stdout, io.Discard, 0) // rows show as they finish instead
	o.rowDone = func(done, total int, row cRow) {
		if isTerminal(stderr) {
			// The table comes at the end; on a terminal each row shows as it finishes.
			fmt.Fprintln(stderr, rowLine(done, total, cols, row))
		}
		for i := range row.cells {
			rep.add(cBenchCell(cols[i], row, i))
		}
	}
	// By default each check is a 'musket check' process of its own
	// (benchCProcess), which starts its own musket-cc, as a single
	// 'musket check' does and as GenMC's times include a process start;
	// with -keep-cc one musket-cc serves the whole table, as for 'musket
	// check A.c B.c' (cfront.KeepSessions), each cell's CPU time counting
	// its share.
	release := func() {}
	if *keepCC {
		release = cfront.KeepSessions()
	}
	t := benchCTable(paths, cols, want, o, sig.interrupted)
	release()
	t.keptCC = *keepCC
	if sig.interrupted() {
		fmt.Fprintf(stderr, "interrupted: %d of %d cells checked\n", t.cells, len(paths)*len(cols))
		t.print(rep.text(), *bound, *engine, *timeout)
		rep.close(exitInterrupted, true)
		return exitInterrupted
	}
	t.print(rep.text(), *bound, *engine, *timeout)
	rep.close(int(t.st), false)
	return int(t.st)
}

// cBenchCell is cell i of row as -json prints it.
func cBenchCell(col cColumn, row cRow, i int) benchCell {
	c := row.cells[i]
	b := benchCell{Program: row.program, Column: col.title, TimeMS: ms(c.Time), CPUMS: msPtr(c.CPU),
		Expected: row.want[i], Agrees: true}
	switch c.Verdict {
	case cSafe, cUnsafe, cRace:
		b.Status, b.Verdict = "done", c.Verdict
		b.Agrees = row.want[i] == "" || c.Verdict == row.want[i]
	case cTimeout:
		b.Status = "timeout"
	case cLimit:
		b.Status = "limit"
	case cDiffer:
		b.Status = "disagreement"
	default:
		b.Status = "error"
	}
	if !isCVerdict(c.Verdict) {
		b.Error = firstLine(c.Note, c.Verdict)
	}
	if g, ok := genmcFigures[[2]string{row.program, col.title}]; ok {
		b.Reference, b.RefSeconds = "GenMC v0.10.3", secondsPtr(g)
	}
	return b
}

// cTable is the measured table.
type cTable struct {
	cols   []cColumn
	rows   []cRow
	st     status
	cells  int
	notes  []string
	keptCC bool // -keep-cc: one musket-cc served the whole table
}

type cRow struct {
	program string
	cells   []cCell
	want    []string // "" when expected.csv has no verdict
}

// benchCTable checks every program under every column (stopping when
// stop says so) and compares with the expected verdicts.
func benchCTable(paths []string, cols []cColumn, want map[[2]string]string, o cCheckOptions, stop func() bool) *cTable {
	t := &cTable{cols: cols}
	for _, p := range paths {
		if stop() {
			break
		}
		row := cRow{program: filepath.Base(p)}
		for _, col := range cols {
			if stop() {
				break
			}
			c := benchCCheck(p, col, o)
			w := want[[2]string{row.program, col.title}]
			row.cells = append(row.cells, c)
			row.want = append(row.want, w)
			t.cells++
			where := row.program + " " + col.title
			switch c.Verdict {
			case cSafe, cUnsafe, cRace:
				if w == "" {
					t.notes = append(t.notes, where+": no expected verdict in expected.csv")
				} else if c.Verdict != w {
					t.st.add(exitFailed)
					t.notes = append(t.notes, fmt.Sprintf("%s: %s, expected %s", where, c.Verdict, w))
				}
			case cTimeout:
				t.st.add(exitLimit)
				t.notes = append(t.notes, fmt.Sprintf("%s: time limit reached (%v)", where, o.timeout))
			case cLimit:
				t.st.add(exitLimit)
				t.notes = append(t.notes, where+": "+firstLine(c.Note, "a limit was reached"))
			case cDiffer:
				t.st.add(exitDisagree)
				t.notes = append(t.notes, where+": "+firstLine(c.Note, "the engines disagree"))
			default:
				t.st.add(exitBadInput)
				t.notes = append(t.notes, where+": "+firstLine(c.Note, "the check failed"))
			}
		}
		t.rows = append(t.rows, row)
		if o.rowDone != nil {
			o.rowDone(len(t.rows), len(paths), row)
		}
	}
	return t
}

// rowLine is a finished row as the terminal shows it while the table is
// being measured: "[3/10] ttas.c: rc11 PASS 0.52s, imm PASS 0.40s".
func rowLine(done, total int, cols []cColumn, row cRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%d/%d] %s:", done, total, row.program)
	for i, c := range row.cells {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %s %s %.2fs", sep, cols[i].title, c.Verdict, c.Time.Seconds())
	}
	return b.String()
}

func firstLine(s, otherwise string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return otherwise
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// print writes the table, then the notes (mismatches, errors, limits) and
// the slowest cell.
func (t *cTable) print(w io.Writer, bound int, engine string, timeout time.Duration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "program\t")
	for _, c := range t.cols {
		fmt.Fprintf(tw, "%s\t", c.title)
	}
	fmt.Fprintln(tw)
	var slowest time.Duration
	slowestCell := ""
	var total time.Duration
	for _, r := range t.rows {
		fmt.Fprintf(tw, "%s\t", r.program)
		for i, c := range r.cells {
			mark := ""
			if isCVerdict(c.Verdict) && r.want[i] != "" && c.Verdict != r.want[i] {
				mark = "!"
			}
			fmt.Fprintf(tw, "%s%s %.2fs\t", c.Verdict, mark, c.Time.Seconds())
			total += c.Time
			if c.Time > slowest {
				slowest, slowestCell = c.Time, r.program+" "+t.cols[i].title
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(w, "bound %d, engine %s, time limit %v per cell; rc11: -model rc11; tso, aarch64, power, riscv: -target x86, aarch64, power, riscv (the C11 mappings, the target's built-in model); '!': differs from expected.csv\n",
		bound, engine, timeout)
	for _, n := range t.notes {
		fmt.Fprintln(w, "  "+n)
	}
	if slowestCell != "" {
		fmt.Fprintf(w, "%d cells in %.2fs; slowest %s %.2fs\n", t.cells, total.Seconds(), slowestCell, slowest.Seconds())
	}
	t.printGenMC(w)
}

// printGenMC writes, for the columns GenMC has figures for (rc11, imm),
// GenMC's time, ours and the ratio per program, and the geometric mean
// of the ratios with the worst one.
func (t *cTable) printGenMC(w io.Writer) {
	var cols []int
	for i, c := range t.cols {
		if _, ok := genmcFigures[[2]string{"ttas.c", c.title}]; ok {
			cols = append(cols, i)
		}
	}
	if len(cols) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "program\t")
	for _, i := range cols {
		c := t.cols[i].title
		fmt.Fprintf(tw, "%s GenMC\t%s ours\tratio\tours cpu\tcpu ratio\t", c, c)
	}
	fmt.Fprintln(tw)
	logSum := make([]float64, len(t.cols))
	cpuLogSum := make([]float64, len(t.cols))
	cpuN := make([]int, len(t.cols))
	n := make([]int, len(t.cols))
	worst := make([]float64, len(t.cols))
	worstAt := make([]string, len(t.cols))
	var differ []string
	for _, r := range t.rows {
		fmt.Fprintf(tw, "%s\t", r.program)
		for _, i := range cols {
			g, ok := genmcFigures[[2]string{r.program, t.cols[i].title}]
			if !ok || i >= len(r.cells) {
				fmt.Fprint(tw, "-\t-\t-\t-\t-\t")
				continue
			}
			c := r.cells[i]
			gv := genmcVerdicts[[2]string{r.program, t.cols[i].title}]
			if gv != "" && isCVerdict(c.Verdict) && gv != c.Verdict {
				differ = append(differ, fmt.Sprintf("%s %s: ours %s, GenMC %s", r.program, t.cols[i].title, c.Verdict, gv))
			}
			if !isCVerdict(c.Verdict) {
				fmt.Fprintf(tw, "%.2fs %s\t%s\t-\t-\t-\t", g, gv, c.Verdict)
				continue
			}
			ratio := c.Time.Seconds() / g
			logSum[i] += math.Log(ratio)
			n[i]++
			if ratio > worst[i] {
				worst[i], worstAt[i] = ratio, r.program
			}
			fmt.Fprintf(tw, "%.2fs %s\t%.2fs %s\t%.1fx\t", g, gv, c.Time.Seconds(), c.Verdict, ratio)
			if c.CPU > 0 {
				cr := c.CPU.Seconds() / g
				cpuLogSum[i] += math.Log(cr)
				cpuN[i]++
				fmt.Fprintf(tw, "%.2fs\t%.1fx\t", c.CPU.Seconds(), cr)
			} else {
				fmt.Fprint(tw, "-\t-\t")
			}
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "geometric mean\t")
	for _, i := range cols {
		if n[i] == 0 {
			fmt.Fprint(tw, "\t\t-\t\t-\t")
			continue
		}
		fmt.Fprintf(tw, "\t\t%.1fx\t", math.Exp(logSum[i]/float64(n[i])))
		if cpuN[i] > 0 {
			fmt.Fprintf(tw, "\t%.1fx\t", math.Exp(cpuLogSum[i]/float64(cpuN[i])))
		} else {
			fmt.Fprint(tw, "\t-\t")
		}
	}
	fmt.Fprintln(tw)
	tw.Flush()
	for _, i := range cols {
		if n[i] > 0 {
			fmt.Fprintf(w, "%s: Musket / GenMC time over %d programs: geometric mean %.2fx, worst %.1fx (%s)",
				t.cols[i].title, n[i], math.Exp(logSum[i]/float64(n[i])), worst[i], worstAt[i])
			if cpuN[i] > 0 {
				fmt.Fprintf(w, "; CPU time / GenMC time: geometric mean %.2fx", math.Exp(cpuLogSum[i]/float64(cpuN[i])))
			}
			fmt.Fprintln(w)
		}
	}
	if len(differ) > 0 {
		fmt.Fprintf(w, "verdicts other than GenMC's: %s (GenMC reports the first error it meets; Musket reports a data race first, with an assertion that fails too: musket check -h)\n", strings.Join(differ, "; "))
	}
	start := "each check is a musket check process of its own, timed from its start to its exit (Go's start-up, the model's load, the compiler process musket-cc, the engines and the output), as GenMC's times are whole runs of genmc"
	if t.keptCC {
		start = "the checks run in one Musket process, which starts once and keeps one compiler process (musket-cc) for the table (-keep-cc), where GenMC's times each include a process start"
	}
	fmt.Fprintf(w, "GenMC v0.10.3 (built against LLVM 14), measured in the same window on another session's machine; ours include clang-14's compilation, as GenMC's do, unless the compile cache held the program's IR (a program checked before: -no-cache compiles each time, as GenMC does); %s; cpu: CPU time of the check and of clang (user and system; user only with -keep-cc; all engines run, -engine auto runs two), which a loaded machine does not stretch as it does wall time\n", start)
}

// genmcFigures are GenMC's times in seconds on the programs of
// examples/c (program, model), from
// ../shared/reference/genmc-0.10.3/examples-c.csv (GenMC v0.10.3 built
// against LLVM 14; verdicts as ours; ttas.c under rc11 with
// --disable-ipr).
var genmcFigures = map[[2]string]float64{
	{"chase-lev.c", "imm"}: 0.31, {"chase-lev.c", "rc11"}: 0.06,
	{"chase-lev-bug.c", "imm"}: 0.08, {"chase-lev-bug.c", "rc11"}: 0.11,
	{"clh.c", "imm"}: 0.05, {"clh.c", "rc11"}: 0.06,
	{"clh-bug.c", "imm"}: 0.06, {"clh-bug.c", "rc11"}: 0.04,
	{"mcs.c", "imm"}: 0.05, {"mcs.c", "rc11"}: 0.06,
	{"mcs-bug.c", "imm"}: 0.05, {"mcs-bug.c", "rc11"}: 0.07,
	{"msqueue.c", "imm"}: 0.07, {"msqueue.c", "rc11"}: 0.06,
	{"msqueue-bug.c", "imm"}: 0.08, {"msqueue-bug.c", "rc11"}: 0.05,
	{"rwlock.c", "imm"}: 0.05, {"rwlock.c", "rc11"}: 0.06,
	{"rwlock-bug.c", "imm"}: 0.05, {"rwlock-bug.c", "rc11"}: 0.05,
	{"seqlock.c", "imm"}: 0.05, {"seqlock.c", "rc11"}: 0.05,
	{"seqlock-bug.c", "imm"}: 0.05, {"seqlock-bug.c", "rc11"}: 0.05,
	{"ticket.c", "imm"}: 0.07, {"ticket.c", "rc11"}: 0.09,
	{"ticket-bug.c", "imm"}: 0.12, {"ticket-bug.c", "rc11"}: 0.13,
	{"treiber.c", "imm"}: 0.05, {"treiber.c", "rc11"}: 0.05,
	{"treiber-bug.c", "imm"}: 0.05, {"treiber-bug.c", "rc11"}: 0.05,
	{"ttas.c", "imm"}: 0.09, {"ttas.c", "rc11"}: 0.04,
	{"ttas-bug.c", "imm"}: 0.10, {"ttas-bug.c", "rc11"}: 0.06,
}

// genmcVerdicts are GenMC's verdicts on the programs of examples/c, as
// ours are worded, from the same file as genmcFigures: pass (PASS), race
// (FAIL(Non-atomic race)), unsafe (FAIL(Safety violation): an
// assertion).
var genmcVerdicts = map[[2]string]string{
	{"chase-lev.c", "imm"}: cSafe, {"chase-lev.c", "rc11"}: cSafe,
	{"chase-lev-bug.c", "imm"}: cUnsafe, {"chase-lev-bug.c", "rc11"}: cUnsafe,
	{"clh.c", "imm"}: cSafe, {"clh.c", "rc11"}: cSafe,
	{"clh-bug.c", "imm"}: cUnsafe, {"clh-bug.c", "rc11"}: cUnsafe,
	{"mcs.c", "imm"}: cSafe, {"mcs.c", "rc11"}: cSafe,
	{"mcs-bug.c", "imm"}: cUnsafe, {"mcs-bug.c", "rc11"}: cUnsafe,
	{"msqueue.c", "imm"}: cSafe, {"msqueue.c", "rc11"}: cSafe,
	{"msqueue-bug.c", "imm"}: cUnsafe, {"msqueue-bug.c", "rc11"}: cRace,
	{"rwlock.c", "imm"}: cSafe, {"rwlock.c", "rc11"}: cSafe,
	{"rwlock-bug.c", "imm"}: cUnsafe, {"rwlock-bug.c", "rc11"}: cRace,
	{"seqlock.c", "imm"}: cSafe, {"seqlock.c", "rc11"}: cSafe,
	{"seqlock-bug.c", "imm"}: cUnsafe, {"seqlock-bug.c", "rc11"}: cUnsafe,
	{"ticket.c", "imm"}: cSafe, {"ticket.c", "rc11"}: cSafe,
	{"ticket-bug.c", "imm"}: cUnsafe, {"ticket-bug.c", "rc11"}: cUnsafe,
	{"treiber.c", "imm"}: cSafe, {"treiber.c", "rc11"}: cSafe,
	{"treiber-bug.c", "imm"}: cUnsafe, {"treiber-bug.c", "rc11"}: cRace,
	{"ttas.c", "imm"}: cSafe, {"ttas.c", "rc11"}: cSafe,
	{"ttas-bug.c", "imm"}: cUnsafe, {"ttas-bug.c", "rc11"}: cUnsafe,
}

// isCVerdict tells whether a cell's verdict is an answer (safe, unsafe,
// race) rather than a limit or an error.
func isCVerdict(v string) bool { return v == cSafe || v == cUnsafe || v == cRace }
