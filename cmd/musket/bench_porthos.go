package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/musket-verify/musket/internal/porthos"
)

func init() {
	registerBench("porthos", "Table III (Porthos state inclusion) of Ponce-de-León et al., \"BMC with Memory Models as Modules\", FMCAD 2018 beside Musket's compare", runBenchPorthos)
}

// The time targets.
const (
	porthosCellTarget  = 5 * time.Second
	porthosTotalTarget = 5 * time.Minute
)

func runBenchPorthos(args []string, stdout, stderr io.Writer) int {
	b := newPtsBench("porthos", "cell", "print where the time of each cell went (encoding, oracle, source reachability, the rest: releasing the solvers) and the size of the oracle's encoding", stderr)
	code, ok := b.parse(args, stderr)
	if !ok {
		return code
	}
	dir, bound, timeout, stats, asJSON := b.dir, b.bound, b.timeout, b.stats, b.asJSON
	rep := newBenchReport("porthos", *asJSON, stdout, stderr, len(porthos.TableIII)*len(porthos.TableIIIColumns))
	text := rep.text()
	tw := tabwriter.NewWriter(text, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "program\tinclusion\tpaper SAT\tpaper s\tpaper IT\tMusket\tMusket s\tMusket IT\t")
	status := 0
	var total time.Duration
	var notes []string
	sig := interruptible()
	defer sig.stop()
	cells, slow := 0, []string{}
rows:
	for _, row := range porthos.TableIII {
		for ci, col := range porthos.TableIIIColumns {
			if sig.interrupted() {
				break rows
			}
			paper := row.Cells[ci]
			ci := rep.started(row.Program + " " + col.Title)
			src, err := porthos.ParseSide(col.Source, nil)
			if err == nil {
				var tgt porthos.Side
				tgt, err = porthos.ParseSide(col.Target, nil)
				if err == nil {
					var p *porthos.Program
					p, err = porthos.Load(filepath.Join(*dir, row.Program+".pts"), &src, &tgt, *bound)
					if err == nil {
						ctx, cancel := sig.ctx, context.CancelFunc(func() {})
						if *timeout > 0 {
							ctx, cancel = context.WithTimeout(sig.ctx, *timeout)
						}
						cpu0 := cpuTime()
						r := porthos.Check(ctx, p, &src, &tgt, porthos.Options{Bound: *bound})
						cpu := cpuTime() - cpu0
						cancel()
						if sig.interrupted() {
							break rows
						}
						cells++
						if *stats {
							s := r.Stats
							notes = append(notes, fmt.Sprintf("%s %s: %.3fs, user CPU %.3fs: encoding %.3fs, oracle %.3fs, source reachability %.3fs, the rest %.3fs; %d iterations; oracle encoding %d events, %d variables, %d constraints, %d may-pairs (%d must)",
								row.Program, col.Title, r.Time.Seconds(), cpu.Seconds(), r.Encode.Seconds(), r.Oracle.Seconds(), r.Reach.Seconds(),
								(r.Time-r.Encode-r.Oracle-r.Reach).Seconds(), r.Iterations, s.Events, s.Vars(), s.Constraints, s.RelPairs, s.MustPairs))
						}
						total += r.Time
						verdict := "holds"
						cell := benchCell{Program: row.Program, Column: col.Title, Status: "done", Agrees: true,
							TimeMS: ms(r.Time), CPUMS: msPtr(cpu), Reference: "Porthos (FMCAD 2018, Table III)"}
						if paper.Time != porthos.TableIIITimedOut {
							cell.Expected, cell.RefSeconds = paperVerdict(paper), secondsPtr(paper.Time)
						}
						switch {
						case r.Status != porthos.Done:
							verdict = r.Status.String()
							status = max(status, exitLimit)
							cell.Status, cell.Error = r.Status.String(), verdict
						case !r.Holds:
							verdict = "fails"
						}
						if r.Status == porthos.Done {
							cell.Verdict = verdict
						}
						if r.Status == porthos.Done && paper.Time != porthos.TableIIITimedOut && r.Holds != paper.Holds {
							// A wrong verdict: the only failure of the table.
							verdict += " (!)"
							status = max(status, exitFailed)
							cell.Agrees = false
						}
						rep.finished(ci, cell)
						if r.Time > porthosCellTarget {
							slow = append(slow, fmt.Sprintf("%s %s %.2fs", row.Program, col.Title, r.Time.Seconds()))
						}
						fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%d\t\n", row.Program, col.Title, paperVerdict(paper), paperTime(paper.Time), paperIters(paper), verdict, r.Time.Seconds(), r.Iterations)
						continue
					}
				}
			}
			rep.finished(ci, benchCell{Program: row.Program, Column: col.Title, Status: "error", Agrees: true, Error: err.Error()})
			rep.stopProgress()
			fmt.Fprintf(stderr, "musket: %v\n", err)
			rep.close(exitBadInput, false)
			return exitBadInput
		}
	}
	rep.stopProgress()
	if sig.interrupted() {
		fmt.Fprintf(stderr, "interrupted: %d of %d cells finished\n", cells, len(porthos.TableIII)*len(porthos.TableIIIColumns))
	}
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(text, n)
	}
	fmt.Fprintf(text, "total %.2fs (targets: every cell under %v, all together under %v)\n", total.Seconds(), porthosCellTarget, porthosTotalTarget)
	// A missed performance target is said, not a failure: the exit
	// status is about the verdicts.
	if len(slow) > 0 {
		fmt.Fprintf(text, "performance target missed: %d cells over %v: %s\n", len(slow), porthosCellTarget, strings.Join(slow, ", "))
	}
	if total > porthosTotalTarget {
		fmt.Fprintf(text, "performance target missed: total %.2fs over %v\n", total.Seconds(), porthosTotalTarget)
	}
	if sig.interrupted() {
		rep.close(exitInterrupted, true)
		return exitInterrupted
	}
	rep.close(status, false)
	return status
}

// paperVerdict is the paper's SAT column: "-" where Porthos timed out.
func paperVerdict(c porthos.TableIIICell) string {
	switch {
	case c.Time == porthos.TableIIITimedOut:
		return "-"
	case !c.Holds:
		return "fails"
	}
	return "holds"
}

func paperIters(c porthos.TableIIICell) string {
	if c.Iters < 0 {
		return "-"
	}
	return fmt.Sprint(c.Iters)
}
