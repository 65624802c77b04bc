package bmc

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/smt"
)

// traceDir is the value of MUSKET_SMT_TRACE: when set, every query of the
// SMT engine prints its time and Z3's main statistics on the standard
// error, and the solver's assertions are written as SMT-LIB2 to
// <dir>/run<N>.smt2 (N counts the queries of the process; only each run's first is written), for profiling the encoding with the z3 binary.
var traceDir = os.Getenv("MUSKET_SMT_TRACE")

// logicOverride is the value of MUSKET_SMT_LOGIC, one of "default" (Z3's
// general solver) and "QF_LIA": when set, it replaces Options.Logic, to
// measure the solvers against each other on the same encodings.
var logicOverride = envSwitch("MUSKET_SMT_LOGIC", "default", "QF_LIA")

// traceRuns counts the traced queries of the process.
var traceRuns int

// traceQuery reports query n (answered r in d) when tracing is on.
func traceQuery(sol *smt.Solver, n int, d time.Duration, r smt.Result, assumptions []smt.Term) {
	if traceDir == "" {
		return
	}
	st := sol.Statistics()
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(os.Stderr, "smt query %d: %v in %v (%d assumptions)\n", n, r, d.Round(time.Millisecond), len(assumptions))
	for _, k := range keys {
		fmt.Fprintf(os.Stderr, "  %s %g\n", k, st[k])
	}
	traceRuns++
	if n == 1 {
		text := sol.String()
		for _, a := range assumptions {
			text += "(assert " + a.String() + ")\n"
		}
		path := fmt.Sprintf("%s/run%d.smt2", traceDir, traceRuns)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "smt trace: %v\n", err)
		}
	}
}

// paramsOverride is the value of MUSKET_SMT_PARAMS: a comma-separated
// list of Z3 solver parameters NAME=VALUE (VALUE an unsigned integer,
// true or false), set on every solver of the engine, to measure Z3's
// options on the same encodings (e.g. smt.relevancy=0,smt.arith.solver=2).
var paramsOverride = os.Getenv("MUSKET_SMT_PARAMS")

// applyParams sets the parameters of MUSKET_SMT_PARAMS on sol; a
// malformed or unknown one is reported on the standard error and skipped.
func applyParams(sol *smt.Solver) {
	if paramsOverride == "" {
		return
	}
	for _, kv := range strings.Split(paramsOverride, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		var err error
		switch {
		case !ok:
			err = fmt.Errorf("no value")
		case val == "true" || val == "false":
			err = sol.SetBoolParam(name, val == "true")
		default:
			var u uint64
			if u, err = strconv.ParseUint(val, 10, 32); err == nil {
				err = sol.SetUintParam(name, uint(u))
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "MUSKET_SMT_PARAMS: %s: %v\n", kv, err)
		}
	}
}
