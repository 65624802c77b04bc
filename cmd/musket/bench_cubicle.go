package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/musket-verify/musket/internal/param"
)

func init() {
	registerBench("cubicle", "Table 1 of Conchon, Declerck, Zaïdi, \"Cubicle-W\" (IJCAR 2018) beside Musket's param times, then Cubicle's BRAB examples and the files Cubicle-W does not finish", runBenchCubicle)
}

// cubicleTable is Table 1 of the Cubicle-W paper (benchmark, file,
// Cubicle-W time), then the plain Cubicle examples that Cubicle proves
// only with its invariant inference (brab/) and the Cubicle-W files that
// Cubicle-W does not finish (challenges/, no reference time).
var cubicleTable = []struct {
	name, file string
	paper      float64 // seconds, 0: none
}{
	{"naive mutex (US)", "mutex_N_us.cub", 0.04},
	{"naive mutex (S)", "mutex_N.cub", 0.30},
	{"lamport (US)", "lamport_N_us.cub", 0.10},
	{"lamport (S)", "lamport_N.cub", 0.60},
	{"spinlock (S)", "spinlock_N.cub", 0.07},
	{"sense reversing barrier (S)", "sense_rev_N.cub", 0.06},
	{"arbiter v1 (S)", "arbiter_v1_N.cub", 0.18},
	{"arbiter v2 (S)", "arbiter_v2_N.cub", 13.5},
	{"two phase commit (S)", "two_phase_N.cub", 54.1},
	{"FLASH, no data (S, BRAB)", "brab/sc_flash_nodata.cub", 0},
	{"FLASH, buggy (US, BRAB)", "brab/sc_flash_buggy.cub", 0},
	{"Szymanski, atomic (S, BRAB)", "brab/sc_szymanski_at.cub", 0},
	{"Szymanski, non-atomic (S, BRAB)", "brab/sc_szymanski_na.cub", 0},
	{"arbiter v3 (Cubicle-W times out)", "challenges/arbiter_v3_N.cub", 0},
	{"Chandy-Misra (Cubicle-W times out)", "challenges/chandy_misra.cub", 0},
	{"ticket spin lock (Cubicle-W times out)", "challenges/ticket_spin_lock_N.cub", 0},
	{"two phase commit, indexed (Cubicle-W times out)", "challenges/two_phase_i_N.cub", 0},
}

func runBenchCubicle(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench cubicle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "`folder` of the .cub benchmarks and expected.csv (default: CORPUS/cubicle)")
	corpus := fs.String("corpus", "", "the shared corpus `folder` (default: ../shared/corpus beside the repository)")
	timeout := fs.Duration("timeout", 5*time.Minute, "time limit per benchmark")
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if msg := benchFlagsError(1, 1, *timeout, len(operands)); msg != "" {
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
	for _, sub := range []string{"", "brab"} {
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
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "benchmark\tfile\texpected\tmusket\tpaper\tmusket time\tnodes\t")
	var st status
	term := isTerminal(stderr)
	sig := interruptible()
	defer sig.stop()
	rows := 0
	for _, b := range cubicleTable {
		if term {
			fmt.Fprintf(stderr, "\r\033[Krunning %s ...", b.file)
		}
		verdict, took, nodes := "error", "-", "-"
		sys, err := param.ParseFile(filepath.Join(*dir, b.file))
		if err != nil {
			fmt.Fprintln(stderr, err)
			st.add(exitBadInput)
		} else {
			res, err := param.Verify(sig.ctx, sys, param.Options{Timeout: *timeout})
			if sig.interrupted() {
				break
			}
			if err != nil {
				fmt.Fprintln(stderr, err)
				st.add(exitBadInput)
			} else {
				switch res.Verdict {
				case param.Safe:
					verdict = "safe"
				case param.Unsafe:
					verdict = "unsafe"
				default:
					verdict = res.Verdict.String()
					st.add(exitLimit)
				}
				took = fmt.Sprintf("%.2fs", res.Time.Seconds())
				nodes = fmt.Sprint(res.Visited)
			}
		}
		want := expected[b.file]
		if want != "" && want != verdict {
			st.add(exitFailed)
			verdict += " (!)"
		}
		paper := "-"
		if b.paper > 0 {
			paper = fmt.Sprintf("%.2fs", b.paper)
		}
		if want == "" {
			want = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", b.name, b.file, want, verdict, paper, took, nodes)
		rows++
	}
	if term {
		fmt.Fprint(stderr, "\r\033[K")
	}
	tw.Flush()
	if sig.interrupted() {
		fmt.Fprintf(stderr, "interrupted: %d of %d benchmarks finished\n", rows, len(cubicleTable))
		return exitInterrupted
	}
	return int(st)
}
