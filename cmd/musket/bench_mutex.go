package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	registerBench("mutex", "seed 003's Table II (Dartagnan reachability) beside Musket's SMT engine", runBenchMutex)
}

// mutexTable is Dartagnan's column of Table II of seed 003 (seconds, loops
// unrolled twice; the conditions are unreachable): TSO, Power, ARM.
var mutexTable = []struct {
	name, file        string
	tso, power, armv7 float64
}{
	{"Parker", "Parker.pts", 0.76, 1.32, 1.29},
	{"Dekker", "Dekker.pts", 4.29, 34.86, 36.88},
	{"Peterson", "Peterson.pts", 0.94, 4.29, 4.13},
	{"Burns", "Burns.pts", 1.10, 4.10, 4.05},
	{"Bakery", "Bakery.pts", 4.64, 40.06, 41.83},
	{"Lamport", "Lamport.pts", 4.56, 72.03, 70.64},
	{"Szymanski", "Szymanski.pts", 18.98, 259.56, 241.34},
}

// mutexColumns are the columns of the table: a target and the paper's
// times for it.
var mutexColumns = []struct {
	title, target string
	paper         func(i int) float64
}{
	{"TSO", "x86", func(i int) float64 { return mutexTable[i].tso }},
	{"Power", "power", func(i int) float64 { return mutexTable[i].power }},
	{"ARM", "armv7", func(i int) float64 { return mutexTable[i].armv7 }},
}

func runBenchMutex(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench mutex", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", filepath.Join("..", "shared", "corpus", "mutex", "pts"), "folder of the .pts programs")
	bound := fs.Int("bound", 2, "loop unrolling bound")
	timeout := fs.Duration("timeout", 5*time.Minute, "time limit per program")
	all := fs.Bool("all", false, "also the Power and ARM columns (when their built-in models exist)")
	stats := fs.Bool("stats", false, "print the encoding size and the encoding/solving split of each program")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	cols := mutexColumns[:1]
	if *all {
		cols = mutexColumns
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "program\t")
	for _, c := range cols {
		fmt.Fprintf(tw, "%s Dartagnan (s)\t%s Musket (s)\t", c.title, c.title)
	}
	fmt.Fprintln(tw, "verdict\t")
	status := 0
	totals := make([]time.Duration, len(cols))
	var notes []string
	type cell struct {
		text string
		pr   *bmc.ProgramResult
	}
	for i, row := range mutexTable {
		fmt.Fprintf(tw, "%s\t", row.name)
		verdict := ""
		for ci, c := range cols {
			fmt.Fprintf(tw, "%.2f\t", c.paper(i))
			m, name, err := bmc.ModelFor(c.target, "", nil)
			if err != nil {
				fmt.Fprintf(tw, "-\t")
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), *timeout)
			pr, err := bmc.CheckProgram(ctx, filepath.Join(*dir, row.file), m, name, bmc.ProgramOptions{Target: c.target, Bound: *bound})
			cancel()
			if err != nil {
				fmt.Fprintf(stderr, "%v\n", err)
				fmt.Fprintf(tw, "error\t")
				status = 2
				continue
			}
			r := pr.Result
			totals[ci] += r.Time
			switch {
			case r.Status == result.Timeout:
				fmt.Fprintf(tw, "T/O\t")
			case r.Status != result.Done:
				fmt.Fprintf(tw, "%s\t", r.Status)
				status = 2
			default:
				fmt.Fprintf(tw, "%.2f\t", r.Time.Seconds())
			}
			v := "UNREACHABLE"
			if pr.Reachable {
				v = "REACHABLE"
				status = 1
			}
			if verdict == "" {
				verdict = v
			} else if verdict != v {
				verdict += "/" + v
			}
			if *stats {
				s := pr.Report.Stats
				notes = append(notes, fmt.Sprintf("%s %s: encoding %.3fs, solving %.3fs; %d events, %d variables, %d constraints, %d may-pairs (%d must)",
					row.name, c.title, pr.Report.Encode.Seconds(), pr.Report.Solve.Seconds(), s.Events, s.Vars(), s.Constraints, s.RelPairs, s.MustPairs))
			}
		}
		fmt.Fprintf(tw, "%s\t\n", verdict)
	}
	fmt.Fprintf(tw, "total\t")
	for ci := range cols {
		fmt.Fprintf(tw, "\t%.2f\t", totals[ci].Seconds())
	}
	fmt.Fprintln(tw, "\t")
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(stdout, n)
	}
	fmt.Fprintf(stdout, "Dartagnan: seed 003, Table II (its machine, 2018); Musket: measured now, bound %d, SMT engine.\n", *bound)
	return status
}
