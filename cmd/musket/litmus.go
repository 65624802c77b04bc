package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	register("litmus", "check herd7 litmus tests under a memory model", runLitmus)
}

func runLitmus(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("litmus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var incl listFlag
	model := fs.String("model", "", "built-in model name or `.cat file` (default: the architecture's built-in model)")
	fs.Var(&incl, "I", "`folder` to search for included .cat files (repeatable)")
	jobs := fs.Int("j", 0, "parallel workers (default: all cores)")
	expectFile := fs.String("expect", "", "`CSV` of expected verdicts (PATH,1|0); prints disagreements and 'agreement A/T'")
	asJSON := fs.Bool("json", false, "print one JSON object per test")
	timeout := fs.Duration("timeout", 0, "time limit per test (e.g. 10s); 0 means none")
	witness := fs.String("witness", "", "write the witness execution of each test as Graphviz to `FILE` (NAME is inserted before .dot when there are several tests)")
	variant := fs.String("variant", "", "comma-separated CAT variants (if \"name\" in models)")
	bound := fs.Int("unroll", 2, "times a backward jump may be taken on one path")
	quiet := fs.Bool("q", false, "print only disagreements and the summary")
	engine := fs.String("engine", "enum", "`engine`: enum (explicit enumeration, the reference) or smt (SMT encoding solved by Z3)")
	verdictOnly := fs.Bool("verdict-only", false, "smt engine: give the verdict without listing every final state (faster)")
	bell := fs.String("bell", "", "`.bell file` read before the model (herd7's -bell)")
	macros := fs.String("macros", "", "`.def file` of C macros (herd7's -macros), e.g. linux-kernel.def")
	conf := fs.String("conf", "", "herd7 `.cfg file` giving model, bell, macros and variant (e.g. linux-kernel.cfg); flags override it")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: musket litmus [flags] FILE.litmus|FOLDER ...")
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(operands) == 0 {
		fs.Usage()
		return 2
	}
	if *engine != "enum" && *engine != "smt" {
		fmt.Fprintf(stderr, "musket: unknown engine %q (want enum or smt)\n", *engine)
		return 2
	}
	files, err := batch.Files(operands)
	if err != nil {
		fmt.Fprintf(stderr, "musket: %v\n", err)
		return 2
	}
	var table *expect.Table
	if *expectFile != "" {
		if table, err = expect.Read(*expectFile); err != nil {
			fmt.Fprintf(stderr, "musket: %v\n", err)
			return 2
		}
	}
	opts := batch.Options{Model: *model, IncludeDirs: incl, Variants: variantSet(*variant), Jobs: *jobs, Timeout: *timeout, Bound: *bound, Engine: *engine, VerdictOnly: *verdictOnly, Bell: *bell, Macros: *macros}
	if *conf != "" {
		c, err := batch.ReadConf(*conf)
		if err != nil {
			fmt.Fprintf(stderr, "musket: %v\n", err)
			return 2
		}
		if opts.Model == "" {
			opts.Model = c.Model
		}
		if opts.Bell == "" {
			opts.Bell = c.Bell
		}
		if opts.Macros == "" {
			opts.Macros = c.Macros
		}
		if *variant == "" && len(c.Variants) > 0 {
			opts.Variants = variantSet(strings.Join(c.Variants, ","))
		}
	}
	if opts.Macros != "" {
		if _, err := litmus.ReadMacros(opts.Macros); err != nil {
			fmt.Fprintf(stderr, "musket: %v\n", err)
			return 2
		}
	}
	if opts.Model != "" {
		// Fail early on a bad model rather than once per test.
		if _, _, err := batch.LoadModelWith(opts.Model, cat.LoadOptions{IncludeDirs: incl, Bell: opts.Bell}); err != nil {
			fmt.Fprintf(stderr, "musket: %v\n", err)
			return 2
		}
	}
	prog := newProgress(stderr, len(files))
	var (
		badInput, compared, agreed, disagreed int
		noRef, timeouts                       int
		slowest                               *result.Result
		disagreements                         []string
	)
	start := time.Now()
	batch.Run(context.Background(), files, opts, func(j batch.Job) {
		prog.step(filepath.Base(j.Path))
		if j.Err != nil {
			badInput++
			prog.finish()
			fmt.Fprintf(stderr, "%v\n", j.Err)
			return
		}
		r := j.Result
		if slowest == nil || r.Time > slowest.Time {
			slowest = r
		}
		exp := ""
		if table != nil {
			want, found := table.Lookup(j.Path)
			switch {
			case !found:
				noRef++
				if !*quiet {
					fmt.Fprintf(stderr, "no expected result: %s\n", j.Path)
				}
			case r.Status != result.Done:
				if r.Status == result.Timeout {
					timeouts++
				}
				disagreements = append(disagreements, fmt.Sprintf("%s: %s (expected %s)", j.Path, r.Status, okNo(want)))
				compared++
				disagreed++
			default:
				compared++
				exp = okNo(want)
				if r.Ok() == want {
					agreed++
				} else {
					disagreed++
					disagreements = append(disagreements, fmt.Sprintf("%s: %s, expected %s", j.Path, okNo(r.Ok()), okNo(want)))
				}
			}
		} else if r.Status == result.Timeout {
			timeouts++
		}
		if r.Status == result.Failed {
			badInput++
		}
		if *witness != "" && r.Witness != nil {
			name := *witness
			if len(files) > 1 {
				name = strings.TrimSuffix(name, ".dot") + "." + r.Name + ".dot"
			}
			if err := writeDot(name, r.Name, r.Witness); err != nil {
				fmt.Fprintf(stderr, "musket: %v\n", err)
			}
		}
		if *quiet {
			return
		}
		prog.finish()
		if *asJSON {
			report.JSON(stdout, r, exp)
		} else {
			report.Text(stdout, r)
		}
	})
	prog.finish()
	elapsed := time.Since(start)
	if table != nil {
		for _, d := range disagreements {
			fmt.Fprintf(stdout, "DISAGREE %s\n", d)
		}
		fmt.Fprintf(stdout, "agreement %d/%d\n", agreed, compared)
		if noRef > 0 {
			fmt.Fprintf(stdout, "without expected result: %d\n", noRef)
		}
	}
	if len(files) > 1 && !*asJSON {
		fmt.Fprintf(stderr, "%d tests in %.2fs", len(files), elapsed.Seconds())
		if slowest != nil {
			fmt.Fprintf(stderr, "; slowest %s %.2fs", slowest.Name, slowest.Time.Seconds())
		}
		if timeouts > 0 {
			fmt.Fprintf(stderr, "; %d timed out", timeouts)
		}
		fmt.Fprintln(stderr)
	}
	switch {
	case badInput > 0:
		return 2
	case disagreed > 0:
		return 1
	}
	return 0
}

func okNo(b bool) string {
	if b {
		return "Ok"
	}
	return "No"
}

// writeDot writes execution x of the test or program called title to
// file name as Graphviz (-witness).
func writeDot(name, title string, x *result.Execution) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := report.Dot(f, title, x); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
