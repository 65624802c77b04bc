// Command musket verifies concurrent programs on weak memory models.
//
// Usage:
//
//	musket COMMAND [flags] [files]
//
// Each command lives in its own file and registers itself with register;
// this file only dispatches. Every command exits with the statuses of
// exitTable (exit.go): 0 all well, 1 a verdict asked about failed, 2 bad
// input or usage, 3 a limit reached, 4 the engines disagreed, 130
// interrupted.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"

	"github.com/musket-verify/musket/cmd/musket/internal/earlysignal"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/source"
)

// command is one subcommand of musket.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

// register adds a subcommand; called from init functions.
func register(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	commands[name] = command{summary: summary, run: run}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: musket COMMAND [flags] [files]")
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "Run 'musket COMMAND -h' for the flags of a command; 'musket -version' for the versions.")
	fmt.Fprintln(w)
	fmt.Fprint(w, exitTable)
}

func main() {
	// The explicit engine allocates a relation per operator per candidate
	// execution, small and short-lived: collecting less often saves a
	// quarter of its time for a few tens of MB. GOGC still overrides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(runMain(os.Args[1:]))
}

// runMain runs the command line args as the musket process: a SIGINT or
// SIGTERM that arrives before the command starts its run still ends it
// with exit status 130.
func runMain(args []string) int {
	applyResourceDefaults()
	out := &outWriter{f: os.Stdout}
	code := dispatch(args, out, os.Stderr)
	cfront.WaitSessions() // musket-cc's CPU time is then this process's children's
	if earlysignal.Take() {
		return exitInterrupted
	}
	return out.finish(code, os.Stderr)
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout)
		return 0
	case "help":
		// musket help COMMAND is musket COMMAND -h.
		if len(args) > 1 {
			if _, ok := commands[args[1]]; ok {
				return dispatch(append([]string{args[1], "-h"}, args[2:]...), stdout, stderr)
			}
			fmt.Fprintf(stderr, "musket help: unknown command %q\n", args[1])
			return 2
		}
		usage(stdout)
		return 0
	case "-version", "--version", "-V":
		return runVersion(args[1:], stdout, stderr)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "musket: unknown command %q\n", source.ClipMessage(args[0]))
		fmt.Fprintln(stderr, "usage: musket COMMAND [flags] [files]")
		fmt.Fprintln(stderr, "Run 'musket -h' for the commands.")
		return 2
	}
	return runJSONAware(c.run, args[0], args[1:], stdout, stderr)
}
