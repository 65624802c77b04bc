package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/result"
)

// The exit statuses of every command.
const (
	exitOK          = 0   // all well
	exitFailed      = 1   // a verdict asked about failed, or disagreed with -expect
	exitBadInput    = 2   // bad input or usage
	exitLimit       = 3   // a limit was reached (timeout, memory, unsupported, bound)
	exitDisagree    = 4   // the two engines disagreed (-engine both)
	exitInterrupted = 130 // SIGINT or SIGTERM, after the summary of what finished
)

// exitTable is the table printed by 'musket -h' and repeated in README.md.
const exitTable = `Exit status (every command; when several apply, the highest; 130 overrides all):
  0    all well
  1    a verdict asked about failed: a condition REACHABLE (check), not
       proved (prove), inclusion fails (compare), UNSAFE (param), or a
       verdict that disagrees with -expect (litmus)
  2    bad input or usage (the error says what and where)
  3    a limit was reached: a time limit, memory, a search limit, a model
       the SMT engine cannot encode, a bound not enough for an answer, a
       valid test using a feature Musket does not handle ("unsupported"),
       or -engine both with one engine's answer only ("unconfirmed")
  4    the two engines disagreed (-engine both)
  130  interrupted (SIGINT, SIGTERM), after the summary of what finished
`

// status accumulates a command's exit status: the highest one seen.
type status int

func (s *status) add(code int) {
	if code > int(*s) {
		*s = status(code)
	}
}

// usageError says what is wrong with a command line, then prints the
// command's usage, and returns exitBadInput.
func usageError(fs *flag.FlagSet, stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "musket %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	full := fs.Usage
	if full == nil {
		full = fs.PrintDefaults
	}
	shortUsage(fs, full)
	return exitBadInput
}

// batchTimeout is the default per-test time limit when a command runs
// several tests and -timeout is not given.
const batchTimeout = 60 * time.Second

// timeoutFlag declares -timeout. Its default is no limit for one test
// and batchTimeout for several (see resolve).
type timeoutFlag struct {
	d   time.Duration
	set bool
}

func (t *timeoutFlag) String() string {
	if t == nil || !t.set {
		return ""
	}
	return t.d.String()
}

func (t *timeoutFlag) Set(s string) error {
	d, err := parseSeconds(s)
	if err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("negative time limit %s", s)
	}
	t.d, t.set = d, true
	return nil
}

// parseSeconds reads a time limit as Go writes durations ("10s", "2m")
// or as herd7 takes it, a number of seconds ("5", "0.5").
func parseSeconds(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) < 1e9 {
		return time.Duration(f * float64(time.Second)), nil
	}
	return 0, fmt.Errorf("not a duration (e.g. 10s, 2m, or 5 for five seconds)")
}

// secondsValue is a time.Duration flag read by parseSeconds, so that
// every command's time limits take the same forms ("10s", or "5" for
// five seconds as herd7 takes it); flag.Duration refuses a bare number.
type secondsValue time.Duration

func (d *secondsValue) String() string { return time.Duration(*d).String() }

func (d *secondsValue) Set(s string) error {
	v, err := parseSeconds(s)
	*d = secondsValue(v)
	return err
}

// durationFlag declares a time limit flag on fs with parseSeconds'
// forms; the caller refuses a negative value.
func durationFlag(fs *flag.FlagSet, name string, def time.Duration, usage string) *time.Duration {
	d := def
	fs.Var((*secondsValue)(&d), name, usage)
	return &d
}

// addTimeout declares -timeout on fs, for what ("test", "program").
func addTimeout(fs *flag.FlagSet, what string) *timeoutFlag {
	t := &timeoutFlag{}
	fs.Var(t, "timeout", fmt.Sprintf("time limit per %s, a `duration` (e.g. 10s, or 5 for five seconds as herd7 takes it); 0 means none (default: none for one %s, %v each when there are several)", what, what, batchTimeout))
	return t
}

// resolve is the time limit for a run of n tests.
func (t *timeoutFlag) resolve(n int) time.Duration {
	if t.set || n <= 1 {
		return t.d
	}
	return batchTimeout
}

// nonNegative declares an integer flag that refuses negative values.
type nonNegative struct {
	v   int
	min int
}

func (n *nonNegative) String() string {
	if n == nil {
		return "0"
	}
	return fmt.Sprint(n.v)
}

func (n *nonNegative) Set(s string) error {
	var v int
	if _, err := fmt.Sscan(s, &v); err != nil || fmt.Sprint(v) != s {
		return fmt.Errorf("not an integer")
	}
	if v < n.min {
		return fmt.Errorf("must be %d or more, not %d", n.min, v)
	}
	n.v = v
	return nil
}

// intFlag declares an integer flag whose values must be at least min.
func intFlag(fs *flag.FlagSet, name string, value, min int, usage string) *int {
	n := &nonNegative{v: value, min: min}
	fs.Var(n, name, usage)
	return &n.v
}

// failureStatus is the exit status of a test an engine could not check:
// a limit when the engine stopped at one of its own limits (too many
// control-flow paths, a recursion too deep), bad input otherwise.
func failureStatus(err error) int {
	if errors.Is(err, result.ErrLimit) {
		return exitLimit
	}
	var ce *cat.Error
	if errors.As(err, &ce) && ce.Limit {
		return exitLimit
	}
	return exitBadInput
}

// errorJSON is the JSON object of a file a command could not check (it
// does not parse, it cannot be read, its model fails): every command
// with -json writes one in place of the file's result (docs/json.md).
type errorJSON struct {
	File       string `json:"file"`
	Status     string `json:"status"` // "error"
	Error      string `json:"error"`
	ExitStatus int    `json:"exit_status"`
}

// writeErrorJSON writes the errorJSON of path.
func writeErrorJSON(w io.Writer, path string, err error, code int) {
	writeJSON(w, errorJSON{File: path, Status: "error", Error: err.Error(), ExitStatus: code})
}
