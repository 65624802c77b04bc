package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/musket-verify/musket/internal/porthos"
)

func init() {
	registerBench("porthos", "Table III (Porthos state inclusion) of Ponce-de-León et al., \"BMC with Memory Models as Modules\", FMCAD 2018 beside Musket's compare", runBenchPorthos)
}

// porthosCell is one cell of Table III: Porthos' time (timedOut for
// T/O), its oracle iterations (-1 unknown) and whether inclusion fails
// (the SAT column; unknown when it timed out).
type porthosCell struct {
	time  float64
	iters int
	fails bool
}

// porthosTable is Table III of Ponce-de-León, Furbach, Heljanko, Meyer, "BMC with Memory Models as Modules", FMCAD 2018 (seconds, bound 2).
var porthosTable = []struct {
	name                    string
	tsoSC, powerTSO, armTSO porthosCell
}{
	{"Parker", porthosCell{0.70, 1, true}, porthosCell{2.46, 2, true}, porthosCell{1.90, 1, true}},
	{"Dekker", porthosCell{12.31, 1, true}, porthosCell{108.89, 0, false}, porthosCell{134.43, 0, false}},
	{"Peterson", porthosCell{1.31, 1, true}, porthosCell{6.33, 0, false}, porthosCell{6.51, 0, false}},
	{"Burns", porthosCell{2.00, 1, true}, porthosCell{6.12, 1, false}, porthosCell{7.89, 1, false}},
	{"Bakery", porthosCell{10.78, 2, true}, porthosCell{836.44, 43, false}, porthosCell{timedOut, -1, false}},
	{"Lamport", porthosCell{10.64, 3, true}, porthosCell{timedOut, -1, false}, porthosCell{timedOut, -1, false}},
	{"Szymanski", porthosCell{101.32, 1, true}, porthosCell{940.75, 0, false}, porthosCell{850.44, 0, false}},
}

var porthosColumns = []struct {
	title, source, target string
	cell                  func(i int) porthosCell
}{
	{"TSO⊆SC", "sc", "tso", func(i int) porthosCell { return porthosTable[i].tsoSC }},
	{"Power⊆TSO", "tso", "power", func(i int) porthosCell { return porthosTable[i].powerTSO }},
	{"ARM⊆TSO", "tso", "armv7", func(i int) porthosCell { return porthosTable[i].armTSO }},
}

// The time targets.
const (
	porthosCellTarget  = 60 * time.Second
	porthosTotalTarget = 5 * time.Minute
)

func runBenchPorthos(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench porthos", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "`folder` of the .pts programs (default: CORPUS/mutex/pts)")
	corpus := fs.String("corpus", "", "the shared corpus `folder` (default: ../shared/corpus beside the repository)")
	bound := fs.Int("bound", 2, "loop unrolling bound")
	timeout := fs.Duration("timeout", 5*time.Minute, "time limit per cell")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if *dir == "" {
		c, err := findCorpus(*corpus)
		if err != nil {
			fmt.Fprintf(stderr, "musket bench porthos: %v\n", err)
			return exitBadInput
		}
		*dir = filepath.Join(c, "mutex", "pts")
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "program\tinclusion\tpaper SAT\tpaper s\tpaper IT\tMusket\tMusket s\tMusket IT\t")
	status := 0
	var total time.Duration
	prog := newProgress(stderr, len(porthosTable)*len(porthosColumns))
	for i, row := range porthosTable {
		for _, col := range porthosColumns {
			paper := col.cell(i)
			prog.step(row.name + " " + col.title)
			src, err := porthos.ParseSide(col.source, nil)
			if err == nil {
				var tgt porthos.Side
				tgt, err = porthos.ParseSide(col.target, nil)
				if err == nil {
					var p *porthos.Program
					p, err = porthos.Load(filepath.Join(*dir, row.name+".pts"), &src, &tgt, *bound)
					if err == nil {
						ctx, cancel := context.WithTimeout(context.Background(), *timeout)
						r := porthos.Check(ctx, p, &src, &tgt, porthos.Options{Bound: *bound})
						cancel()
						total += r.Time
						verdict := "holds"
						switch {
						case r.Status != porthos.Done:
							verdict = r.Status.String()
							status = exitLimit
						case !r.Holds:
							verdict = "fails"
						}
						if r.Time > porthosCellTarget {
							status = 1
						}
						fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%d\t\n", row.name, col.title, paperVerdict(paper), paperTime(paper.time), paperIters(paper), verdict, r.Time.Seconds(), r.Iterations)
						continue
					}
				}
			}
			prog.finish()
			fmt.Fprintf(stderr, "musket: %v\n", err)
			return 2
		}
	}
	prog.finish()
	tw.Flush()
	fmt.Fprintf(stdout, "total %.2fs (targets: every cell under %v, all together under %v)\n", total.Seconds(), porthosCellTarget, porthosTotalTarget)
	if total > porthosTotalTarget {
		status = 1
	}
	return status
}

func paperVerdict(c porthosCell) string {
	switch {
	case c.time == timedOut:
		return "-"
	case c.fails:
		return "fails"
	}
	return "holds"
}

func paperIters(c porthosCell) string {
	if c.iters < 0 {
		return "-"
	}
	return fmt.Sprint(c.iters)
}
