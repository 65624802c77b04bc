package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/musket-verify/musket/internal/param"
)

func init() {
	registerBench("cubicle", "Table 1 of Conchon, Declerck, Zaïdi, \"Cubicle-W\" (IJCAR 2018) beside Musket's param times, then Cubicle's BRAB examples, the files Cubicle-W does not finish and plain Cubicle's own examples (with Cubicle's times)", runBenchCubicle)
}

// cubicleTable is Table 1 of the Cubicle-W paper (benchmark, file,
// Cubicle-W time), then the plain Cubicle examples that Cubicle proves
// only with its invariant inference (brab/) and the Cubicle-W files that
// Cubicle-W does not finish (challenges/, no reference time).
var cubicleTable = []cubicleRow{
	{name: "naive mutex (US)", file: "mutex_N_us.cub", paper: 0.04},
	{name: "naive mutex (S)", file: "mutex_N.cub", paper: 0.30},
	{name: "lamport (US)", file: "lamport_N_us.cub", paper: 0.10},
	{name: "lamport (S)", file: "lamport_N.cub", paper: 0.60},
	{name: "spinlock (S)", file: "spinlock_N.cub", paper: 0.07},
	{name: "sense reversing barrier (S)", file: "sense_rev_N.cub", paper: 0.06},
	{name: "arbiter v1 (S)", file: "arbiter_v1_N.cub", paper: 0.18},
	{name: "arbiter v2 (S)", file: "arbiter_v2_N.cub", paper: 13.5},
	{name: "two phase commit (S)", file: "two_phase_N.cub", paper: 54.1},
	{name: "FLASH, no data (S, BRAB)", file: "brab/sc_flash_nodata.cub", paper: 0},
	{name: "FLASH, buggy (US, BRAB)", file: "brab/sc_flash_buggy.cub", paper: 0},
	{name: "Szymanski, atomic (S, BRAB)", file: "brab/sc_szymanski_at.cub", paper: 0},
	{name: "Szymanski, non-atomic (S, BRAB)", file: "brab/sc_szymanski_na.cub", paper: 0},
	{name: "arbiter v3 (Cubicle-W times out)", file: "challenges/arbiter_v3_N.cub", paper: 0},
	{name: "Chandy-Misra (Cubicle-W times out)", file: "challenges/chandy_misra.cub", paper: 0},
	{name: "ticket spin lock (Cubicle-W times out)", file: "challenges/ticket_spin_lock_N.cub", paper: 0},
	{name: "two phase commit, indexed (Cubicle-W times out)", file: "challenges/two_phase_i_N.cub", paper: 0},
}

// cubicleRow is a benchmark: paper is the reference time (the Cubicle-W
// paper's, or for examples/ Cubicle's from the folder's README).
type cubicleRow struct {
	name, file string
	paper      float64 // seconds, 0: none
	example    bool
	// for examples/: Cubicle's nodes and options (its README's table)
	refNodes, refOpts string
}

// cubicleExamples lists the files of examples/expected.csv, with
// Cubicle's times from the table of examples/README.md
// ("| file | verdict | options | seconds | nodes |").
func cubicleExamples(dir string) []cubicleRow {
	f, err := os.Open(filepath.Join(dir, "examples", "expected.csv"))
	if err != nil {
		return nil
	}
	rows, _ := csv.NewReader(f).ReadAll()
	f.Close()
	ref := map[string]cubicleRow{}
	if readme, err := os.ReadFile(filepath.Join(dir, "examples", "README.md")); err == nil {
		for _, line := range strings.Split(string(readme), "\n") {
			cols := strings.Split(line, "|")
			if len(cols) < 6 {
				continue
			}
			var secs float64
			if _, err := fmt.Sscanf(strings.TrimSpace(cols[4]), "%g", &secs); err == nil {
				ref[strings.TrimSpace(cols[1])] = cubicleRow{paper: secs, refOpts: strings.TrimSpace(cols[3]), refNodes: strings.TrimSpace(cols[5])}
			}
		}
	}
	var out []cubicleRow
	for _, r := range rows {
		if len(r) == 2 {
			c := ref[r[0]]
			out = append(out, cubicleRow{name: "Cubicle example " + strings.TrimSuffix(r[0], ".cub"), file: "examples/" + r[0], paper: c.paper, example: true, refNodes: c.refNodes, refOpts: c.refOpts})
		}
	}
	return out
}

func runBenchCubicle(args []string, stdout, stderr io.Writer) int {
	// the collector as 'musket param' sets it (param.go), so that the
	// peak memory column is what a run of 'musket param' peaks at
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(50))
	}
	fs := flag.NewFlagSet("bench cubicle", flag.ContinueOnError)
	fs.Usage = synopsisUsage(fs)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "`folder` of the .cub benchmarks and expected.csv (default: CORPUS/cubicle)")
	corpus := fs.String("corpus", "", "the shared corpus `folder` (default: ../shared/corpus beside the repository)")
	timeout := durationFlag(fs, "timeout", 5*time.Minute, "time limit per benchmark, a `duration` (e.g. 10s, or 5 for five seconds)")
	exTimeout := durationFlag(fs, "examples-timeout", time.Minute, "time limit per file of examples/ (plain Cubicle's own examples), a `duration` (e.g. 10s, or 5 for five seconds)")
	asJSON := fs.Bool("json", false, "print one JSON object per benchmark and a summary line (docs/json.md) instead of the table")
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if msg := benchFlagsError(1, 1, *timeout, len(operands)); msg != "" {
		return usageError(fs, stderr, "%s", msg)
	}
	if msg := benchFlagsError(1, 1, *exTimeout, len(operands)); msg != "" {
		return usageError(fs, stderr, "%s", msg)
	}
	if *dir == "" {
		c, err := findCorpus(*corpus)
		if err != nil {
			fmt.Fprintf(stderr, "musket bench cubicle: %v\n", err)
			return exitBadInput
		}
		*dir = filepath.Join(c, "cubicle")
	}
	expected := map[string]string{}
	for _, sub := range []string{"", "brab", "examples"} {
		if f, err := os.Open(filepath.Join(*dir, sub, "expected.csv")); err == nil {
			rows, _ := csv.NewReader(f).ReadAll()
			f.Close()
			for _, r := range rows {
				if len(r) == 2 {
					expected[filepath.ToSlash(filepath.Join(sub, r[0]))] = strings.TrimSpace(r[1])
				}
			}
		}
	}
	table := append(cubicleTable[:len(cubicleTable):len(cubicleTable)], cubicleExamples(*dir)...)
	rep := newBenchReport("cubicle", *asJSON, stdout, stderr, len(table))
	tw := tabwriter.NewWriter(rep.text(), 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "benchmark\tfile\texpected\tmusket\treference time\tmusket time\tmusket CPU\tgoal\tpeak memory\tnodes\treference nodes\treference options\t")
	var st status
	sig := interruptible()
	defer sig.stop()
	rows := 0
	for _, b := range table {
		limit := *timeout
		if b.example {
			limit = min(limit, *exTimeout)
		}
		ci := rep.started(b.file)
		want := expected[b.file]
		j := benchCell{Program: b.file, Column: "param", Status: "error", Agrees: true, Expected: want}
		if b.paper > 0 {
			j.RefSeconds = secondsPtr(b.paper)
			j.Reference = "Cubicle-W (IJCAR 2018, Table 1)"
			if b.example {
				j.Reference = "Cubicle (examples/README.md)"
			}
		}
		verdict, took, nodes, cpu, peak, goal := "error", "-", "-", "-", "-", "-"
		resetPeakMemory()
		cpu0 := cpuTime()
		sys, err := param.ParseFile(filepath.Join(*dir, b.file))
		if err != nil {
			rep.say(stderr, "%v\n", err)
			st.add(exitBadInput)
			j.Error = err.Error()
		} else {
			res, err := param.Verify(sig.ctx, sys, param.Options{Timeout: limit})
			if sig.interrupted() {
				break
			}
			if err != nil {
				rep.say(stderr, "%v\n", err)
				st.add(exitBadInput)
				j.Error = err.Error()
			} else {
				j.Status, j.TimeMS = "done", ms(res.Time)
				switch res.Verdict {
				case param.Safe:
					verdict = "safe"
				case param.Unsafe:
					verdict = "unsafe"
				default:
					verdict = res.Verdict.String()
					st.add(exitLimit)
					j.Status, j.Error = "limit", verdict
					if res.Verdict == param.Timeout {
						j.Status = "timeout"
					}
				}
				took = fmt.Sprintf("%.2fs", res.Time.Seconds())
				nodes = fmt.Sprint(res.Visited)
				if d := cpuTime() - cpu0; d > 0 {
					cpu = fmt.Sprintf("%.2fs", d.Seconds())
					j.CPUMS = msPtr(d)
					goal = cubicleGoal(b.paper, d.Seconds(), res.Verdict == param.Safe || res.Verdict == param.Unsafe)
				}
				if mb := peakMemoryMB(); mb > 0 {
					peak = fmt.Sprintf("%.0fMB", mb)
					j.PeakMB = secondsPtr(mb)
				}
			}
		}
		if verdict == "safe" || verdict == "unsafe" {
			j.Verdict = verdict
			if want != "" && want != verdict {
				// A wrong verdict; a limit or an error is said by the status above.
				st.add(exitFailed)
				verdict += " (!)"
				j.Agrees = false
			}
		}
		rep.finished(ci, j)
		paper := "-"
		if b.paper > 0 {
			paper = fmt.Sprintf("%.2fs", b.paper)
		}
		if want == "" {
			want = "-"
		}
		refNodes, refOpts := "-", "-"
		if b.refNodes != "" {
			refNodes = b.refNodes
		}
		if b.refOpts != "" {
			refOpts = b.refOpts
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", b.name, b.file, want, verdict, paper, took, cpu, goal, peak, nodes, refNodes, refOpts)
		rows++
	}
	rep.stopProgress()
	if sig.interrupted() {
		fmt.Fprintf(stderr, "interrupted: %d of %d benchmarks finished\n", rows, len(table))
	}
	tw.Flush()
	if sig.interrupted() {
		rep.close(exitInterrupted, true)
		return exitInterrupted
	}
	rep.close(int(st), false)
	return int(st)
}

// cubicleGoal says whether a run met the goal of issue #31 against the
// reference time ref (seconds, 0: none): an answer within twice the
// reference's time, or within 0.1 s where twice the reference is less.
// The process's start, which 'musket param' pays and the
// in-process bench does not, is not counted.
func cubicleGoal(ref, cpu float64, answered bool) string {
	if ref <= 0 {
		return "-"
	}
	if !answered {
		return "no"
	}
	limit := max(2*ref, 0.1)
	if cpu <= limit {
		return "yes"
	}
	return fmt.Sprintf("no (%.1fx)", cpu/ref)
}
