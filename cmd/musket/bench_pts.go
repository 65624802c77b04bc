package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"
)

// ptsBench holds the flags the benches over the corpus' .pts programs
// (bench mutex, bench porthos) share, and the folder they resolve to.
type ptsBench struct {
	fs      *flag.FlagSet
	dir     *string
	corpus  *string
	bound   *int
	timeout *time.Duration
	stats   *bool
	asJSON  *bool
}

// newPtsBench declares the shared flags of bench NAME; unit names what
// -timeout limits ("program", "cell"), statsDoc says what -stats prints.
func newPtsBench(name, unit, statsDoc string, stderr io.Writer) *ptsBench {
	fs := flag.NewFlagSet("bench "+name, flag.ContinueOnError)
	fs.Usage = synopsisUsage(fs)
	fs.SetOutput(stderr)
	return &ptsBench{
		fs:      fs,
		dir:     fs.String("dir", "", "`folder` of the .pts programs (default: CORPUS/mutex/pts)"),
		corpus:  fs.String("corpus", "", "the shared corpus `folder` (default: ../shared/corpus beside the repository)"),
		bound:   fs.Int("bound", 2, "loop unrolling bound"),
		timeout: durationFlag(fs, "timeout", 5*time.Minute, "time limit per "+unit+", a `duration` (e.g. 10s, or 5 for five seconds)"),
		stats:   fs.Bool("stats", false, statsDoc),
		asJSON:  fs.Bool("json", false, "print one JSON object per cell and a summary line (docs/json.md) instead of the table"),
	}
}

// parse reads args, checks the shared flags and finds the programs'
// folder; when ok is false, the command ends with exit status code.
func (b *ptsBench) parse(args []string, stderr io.Writer) (code int, ok bool) {
	operands, code, ok := parseCommand(b.fs, args)
	if !ok {
		return code, false
	}
	if msg := benchFlagsError(*b.bound, 1, *b.timeout, len(operands)); msg != "" {
		return usageError(b.fs, stderr, "%s", msg), false
	}
	if *b.dir == "" {
		c, err := findCorpus(*b.corpus)
		if err != nil {
			fmt.Fprintf(stderr, "musket %s: %v\n", b.fs.Name(), err)
			return exitBadInput, false
		}
		*b.dir = filepath.Join(c, "mutex", "pts")
	}
	return 0, true
}
