package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	registerBench("mutex", "Table II (Dartagnan reachability) of Ponce-de-León et al., \"BMC with Memory Models as Modules\", FMCAD 2018 beside Musket's SMT engine", runBenchMutex)
}

// timedOut marks a tool that did not finish in the paper's time limit.
const timedOut = -1

// mutexTable is Table II of Ponce-de-León, Furbach, Heljanko, Meyer, "BMC with Memory Models as Modules", FMCAD 2018 (seconds, loops unrolled twice; the
// conditions are unreachable): the times of Dartagnan and of herd7 under
// TSO, Power and ARM (timedOut: herd7's "T/O").
var mutexTable = []struct {
	name, file                  string
	tso, power, armv7           float64 // Dartagnan
	herdTSO, herdPower, herdARM float64 // herd7
}{
	{"Parker", "Parker.pts", 0.76, 1.32, 1.29, 0.08, 0.07, 0.08},
	{"Dekker", "Dekker.pts", 4.29, 34.86, 36.88, timedOut, timedOut, timedOut},
	{"Peterson", "Peterson.pts", 0.94, 4.29, 4.13, 4.98, 4.89, 4.85},
	{"Burns", "Burns.pts", 1.10, 4.10, 4.05, 284.90, 316.33, 289.66},
	{"Bakery", "Bakery.pts", 4.64, 40.06, 41.83, timedOut, timedOut, timedOut},
	{"Lamport", "Lamport.pts", 4.56, 72.03, 70.64, timedOut, timedOut, timedOut},
	{"Szymanski", "Szymanski.pts", 18.98, 259.56, 241.34, timedOut, timedOut, timedOut},
}

// mutexColumns are the columns of the table: a target and the paper's
// times for it.
var mutexColumns = []struct {
	title, target string
	paper, herd   func(i int) float64
}{
	{"TSO", "x86", func(i int) float64 { return mutexTable[i].tso }, func(i int) float64 { return mutexTable[i].herdTSO }},
	{"Power", "power", func(i int) float64 { return mutexTable[i].power }, func(i int) float64 { return mutexTable[i].herdPower }},
	{"ARM", "armv7", func(i int) float64 { return mutexTable[i].armv7 }, func(i int) float64 { return mutexTable[i].herdARM }},
}

// The time targets for Musket's cells.
const (
	mutexCellTarget  = 500 * time.Millisecond
	mutexTotalTarget = 30 * time.Second
)

func paperTime(t float64) string {
	if t == timedOut {
		return "T/O"
	}
	return fmt.Sprintf("%.2f", t)
}

// mutexRun is one run of the bench: its options and what it measured.
type mutexRun struct {
	dir               string
	bound             int
	timeout           time.Duration
	noAnalysis, stats bool
	cols              []int // indexes in mutexColumns
	stderr            io.Writer

	st             status
	failures       int
	totals         []time.Duration // per column
	total, slowest time.Duration
	slowestCell    string
	notes          []string
	sig            *run // SIGINT/SIGTERM stop the table
	rep            *benchReport
	rows           int // rows finished
}

func runBenchMutex(args []string, stdout, stderr io.Writer) int {
	b := newPtsBench("mutex", "program", "print the encoding size and the encoding/solving split of each program", stderr)
	targets := b.fs.String("targets", "x86,power,armv7", "comma-separated columns to run: x86 (TSO), power, armv7 (ARM)")
	noAnalysis := b.fs.Bool("no-analysis", false, "encode every pair of every relation (no may/must relation analysis)")
	code, ok := b.parse(args, stderr)
	if !ok {
		return code
	}
	dir, bound, timeout, stats, asJSON := b.dir, b.bound, b.timeout, b.stats, b.asJSON
	cols, bad := mutexColumnsOf(*targets)
	if bad != "" {
		fmt.Fprintf(stderr, "bench mutex: unknown target %q (want x86, power or armv7)\n", bad)
		return 2
	}
	r := &mutexRun{dir: *dir, bound: *bound, timeout: *timeout, noAnalysis: *noAnalysis, stats: *stats, cols: cols,
		stderr: stderr, totals: make([]time.Duration, len(cols))}
	r.sig = interruptible()
	defer r.sig.stop()
	r.rep = newBenchReport("mutex", *asJSON, stdout, stderr, len(mutexTable)*len(cols))
	r.table(r.rep.text())
	r.rep.stopProgress()
	if r.sig.interrupted() {
		fmt.Fprintf(stderr, "interrupted: %d of %d programs finished\n", r.rows, len(mutexTable))
	}
	code = r.footer(r.rep.text())
	if r.sig.interrupted() {
		code = exitInterrupted
	}
	r.rep.close(code, r.sig.interrupted())
	return code
}

// mutexColumnsOf returns the columns named by the comma-separated
// targets, or the first name that is not a column.
func mutexColumnsOf(targets string) ([]int, string) {
	var cols []int
	for _, name := range strings.Split(targets, ",") {
		found := false
		for ci, c := range mutexColumns {
			if c.target == strings.TrimSpace(name) {
				cols = append(cols, ci)
				found = true
			}
		}
		if !found {
			return nil, name
		}
	}
	return cols, ""
}

// table checks every program under every column and prints the table.
func (r *mutexRun) table(stdout io.Writer) {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "program\t")
	for _, ci := range r.cols {
		t := mutexColumns[ci].title
		fmt.Fprintf(tw, "%s herd7\t%s Dartagnan\t%s Musket\t", t, t, t)
	}
	fmt.Fprintln(tw, "verdict\t")
	for i, row := range mutexTable {
		fmt.Fprintf(tw, "%s\t", row.name)
		verdict := ""
		for k, ci := range r.cols {
			c := mutexColumns[ci]
			fmt.Fprintf(tw, "%s\t%s\t", paperTime(c.herd(i)), paperTime(c.paper(i)))
			cell, v := r.cell(k, i, c.title, c.target)
			fmt.Fprintf(tw, "%s\t", cell)
			if v == "" {
				continue
			}
			if verdict == "" {
				verdict = v
			} else if verdict != v {
				verdict += "/" + v
			}
		}
		fmt.Fprintf(tw, "%s\t\n", verdict)
		if r.sig.interrupted() {
			break // the row's stopped cells say "-"
		}
		r.rows++
	}
	fmt.Fprintf(tw, "total\t")
	for k := range r.cols {
		fmt.Fprintf(tw, "\t\t%.2f\t", r.totals[k].Seconds())
	}
	fmt.Fprintln(tw, "\t")
	tw.Flush()
}

// cell checks program i for the target of column k: the text of its
// Musket cell and its verdict ("" when there is none).
func (r *mutexRun) cell(k, i int, title, target string) (string, string) {
	name, file := mutexTable[i].name, mutexTable[i].file
	if r.sig.interrupted() {
		return "-", ""
	}
	j := benchCell{Program: name, Column: title, Agrees: true, Expected: "UNREACHABLE",
		Reference: "Dartagnan (FMCAD 2018, Table II)"}
	if t := mutexColumns[r.cols[k]].paper(i); t != timedOut {
		j.RefSeconds = secondsPtr(t)
	}
	ji := r.rep.started(name + " " + title)
	cell, v, err := r.check(k, name, file, title, target, &j)
	if err != nil {
		r.rep.say(r.stderr, "%v\n", err)
		r.st.add(exitBadInput)
		r.failures++
		j.Status, j.Error = "error", err.Error()
		cell, v = "error", ""
	}
	if cell != "-" {
		r.rep.finished(ji, j)
	}
	return cell, v
}

// check is cell's check: the cell's text, its verdict, and j filled in.
func (r *mutexRun) check(k int, name, file, title, target string, j *benchCell) (string, string, error) {
	m, model, err := driver.Models{}.ForTarget(target)
	if err != nil {
		return "", "", err
	}
	ctx, cancel := r.sig.ctx, context.CancelFunc(func() {})
	if r.timeout > 0 {
		ctx, cancel = context.WithTimeout(r.sig.ctx, r.timeout)
	}
	cpu0 := cpuTime()
	pr, err := bmc.CheckProgram(ctx, filepath.Join(r.dir, file), m, model,
		bmc.ProgramOptions{Target: target, Bound: r.bound, NoAnalysis: r.noAnalysis})
	cancel()
	cpu := cpuTime() - cpu0
	if r.sig.interrupted() {
		return "-", "", nil
	}
	if err != nil {
		return "", "", err
	}
	res := pr.Result
	// The cell is the whole check: reading and compiling the program too.
	took := res.Time
	if pr.Report != nil {
		took += pr.Report.Prepare
	}
	r.totals[k] += took
	r.total += took
	if took > r.slowest {
		r.slowest, r.slowestCell = took, name+" "+title
	}
	cell := fmt.Sprintf("%.2f", took.Seconds())
	j.Status, j.TimeMS, j.CPUMS = res.Status.String(), ms(took), msPtr(cpu)
	switch {
	case res.Status == result.Timeout:
		cell = "T/O"
		r.st.add(exitLimit)
		r.failures++
	case res.Status != result.Done:
		cell = res.Status.String()
		r.st.add(exitLimit)
		r.failures++
	}
	v := "UNREACHABLE"
	if pr.Reachable {
		v = "REACHABLE"
		r.st.add(exitFailed)
		j.Agrees = false
	}
	if res.Status == result.Done {
		j.Verdict = v
	} else if res.Err != nil {
		j.Error = res.Err.Error()
	} else {
		j.Error = res.Status.String()
	}
	if r.stats && pr.Report != nil {
		s := pr.Report.Stats
		rp := pr.Report
		r.notes = append(r.notes, fmt.Sprintf("%s %s: %.3fs, user CPU %.3fs: prepare %.3fs, encoding %.3fs (program %.3fs, model and relation analysis %.3fs), solving %.3fs in %d queries, release %.3fs; %d events, %d variables, %d constraints, %d may-pairs (%d must)",
			name, title, took.Seconds(), cpu.Seconds(), rp.Prepare.Seconds(), rp.Encode.Seconds(), (rp.Encode-rp.Model).Seconds(), rp.Model.Seconds(), rp.Solve.Seconds(), rp.Queries, rp.Release.Seconds(),
			s.Events, s.Vars(), s.Constraints, s.RelPairs, s.MustPairs))
	}
	return cell, v, nil
}

// footer prints the notes, the source of the paper's figures and whether
// the time targets are met, and returns the exit status.
func (r *mutexRun) footer(stdout io.Writer) int {
	for _, n := range r.notes {
		fmt.Fprintln(stdout, n)
	}
	fmt.Fprintf(stdout, "herd7, Dartagnan: Ponce-de-León, Furbach, Heljanko, Meyer, \"BMC with Memory Models as Modules\", FMCAD 2018, Table II (its machine, 2018; T/O: time-out); Musket: measured now, bound %d, SMT engine.\n", r.bound)
	if r.failures > 0 {
		// A cell without a time cannot meet a target.
		fmt.Fprintf(stdout, "targets (every cell < %v, all together < %v): not measured, %d cells without an answer\n",
			mutexCellTarget, mutexTotalTarget, r.failures)
		return int(r.st)
	}
	met := "met"
	if r.slowest >= mutexCellTarget || r.total >= mutexTotalTarget {
		met = "NOT met"
	}
	fmt.Fprintf(stdout, "targets (every cell < %v, all together < %v): %s; slowest cell %s %.2fs, total %.2fs\n",
		mutexCellTarget, mutexTotalTarget, met, r.slowestCell, r.slowest.Seconds(), r.total.Seconds())
	return int(r.st)
}
