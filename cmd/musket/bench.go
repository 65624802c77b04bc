package main

import (
	"fmt"
	"io"
	"sort"
	"time"
)

// benches holds the suites of 'musket bench NAME'; each suite registers
// itself from the file that implements it.
var benches = map[string]command{}

func registerBench(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	benches[name] = command{summary: summary, run: run}
}

func init() {
	register("bench", "print a paper's table beside Musket's measured figures", runBench)
}

func runBench(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		w := stderr
		if len(args) > 0 {
			w = stdout
		}
		fmt.Fprintln(w, "usage: musket bench SUITE [flags]")
		names := make([]string, 0, len(benches))
		for n := range benches {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(w, "  %-10s %s\n", n, benches[n].summary)
		}
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	b, ok := benches[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "musket bench: unknown suite %q\n", args[0])
		return 2
	}
	return b.run(args[1:], stdout, stderr)
}

// benchFlagsError checks the flags the bench suites share: a bound of at
// least minBound, a time limit that is not negative, and no operands (a
// suite's files are its table's). It returns what is wrong, or "".
func benchFlagsError(bound, minBound int, timeout time.Duration, operands int) string {
	switch {
	case bound < minBound:
		return fmt.Sprintf("-bound must be %d or more, not %d", minBound, bound)
	case timeout < 0:
		return fmt.Sprintf("negative time limit %v", timeout)
	case operands > 0:
		return "a suite takes no files: its programs are its table's (-dir to read them elsewhere)"
	}
	return ""
}
