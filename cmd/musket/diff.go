package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/lazyre"
	"github.com/musket-verify/musket/internal/source"
)

func init() {
	register("diff", "list the tests whose verdict or final states differ between two runs (JSON results or herd7 logs), as mcompare7", runDiff)
}

// outcome is what one run says of one test.
type outcome struct {
	name    string
	status  string // done, timeout, error, unsupported, disagreement
	verdict string // Ok, No ("" without a verdict)
	states  []string
	hasSt   bool   // the run listed the states
	hash    string // herd7's digest of the test (its Hash= line), "" if not given
}

// readOutcomes reads a run: JSON Lines of musket (litmus -json, merge
// -json), a text log (herd7's or musket's, one test or many), or a
// folder of them (herd7 logs one test per file), every file below it.
// It returns the outcomes by test name, and the names in order.
func readOutcomes(path string) (map[string]*outcome, []string, error) {
	out := map[string]*outcome{}
	var order []string
	add := func(o *outcome) {
		name := o.name
		for i := 2; out[name] != nil; i++ {
			name = fmt.Sprintf("%s(%d)", o.name, i)
		}
		o.name = name
		out[name] = o
		order = append(order, name)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	var files []string
	if st.IsDir() {
		err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		sort.Strings(files)
	} else {
		files = []string{path}
	}
	for _, f := range files {
		src, err := source.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		trimmed := bytes.TrimSpace(src)
		if len(trimmed) > 0 && trimmed[0] == '{' {
			runs, err := readRunOutputs(f)
			if err != nil {
				return nil, nil, err
			}
			tests, err := mergeRuns(runs)
			if err != nil {
				return nil, nil, err
			}
			for _, t := range tests {
				j := t.j
				o := &outcome{name: j.Name, status: j.Status, verdict: j.Verdict, hash: j.Hash}
				if j.States != nil {
					o.hasSt = true
					for _, s := range *j.States {
						o.states = append(o.states, normState(stateText(s)))
					}
					sort.Strings(o.states)
				}
				add(o)
			}
			continue
		}
		outs, err := readTextLog(f, src)
		if err != nil {
			return nil, nil, err
		}
		for _, o := range outs {
			add(o)
		}
	}
	if len(order) == 0 {
		return nil, nil, fmt.Errorf("%s: no test results in it (JSON Lines of musket litmus -json, or herd7's text)", path)
	}
	return out, order, nil
}

// readTextLog reads herd7's text output ("Test NAME Allowed", "States
// N", the states, "Ok"/"No", ...), which musket litmus prints too.
func readTextLog(path string, src []byte) ([]*outcome, error) {
	var out []*outcome
	var cur *outcome
	pending := 0 // state lines still to read
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		l := strings.TrimSpace(sc.Text())
		if pending > 0 {
			pending--
			cur.states = append(cur.states, normState(l))
			if pending == 0 {
				sort.Strings(cur.states)
			}
			continue
		}
		if h, ok := strings.CutPrefix(l, "Hash="); ok && cur != nil {
			cur.hash = strings.TrimSpace(h)
			continue
		}
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "Test":
			if len(f) < 2 {
				return nil, fmt.Errorf("%s:%d:1: a Test line without a name", path, line)
			}
			cur = &outcome{name: f[1], status: "done"}
			if len(f) >= 3 {
				switch f[2] {
				case "error", "unsupported", "limit":
					cur.status = f[2]
				}
			}
			out = append(out, cur)
			continue
		}
		if cur == nil {
			continue
		}
		switch f[0] {
		case "States":
			n, err := strconv.Atoi(f[len(f)-1])
			if len(f) != 2 || err != nil || n < 0 {
				return nil, fmt.Errorf("%s:%d:1: bad States line %q", path, line, l)
			}
			cur.hasSt, pending = true, n
		case "Ok", "No":
			if len(f) == 1 && cur.status == "done" {
				cur.verdict = f[0]
			}
		case "Timeout":
			cur.status = "timeout"
		case "Disagreement":
			cur.status = "disagreement"
		case "Error":
			if cur.status == "done" {
				cur.status = "error"
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d:1: %v", path, line+1, err)
	}
	if pending > 0 {
		return nil, fmt.Errorf("%s:%d:1: %d state lines missing at the end", path, line, pending)
	}
	return out, nil
}

var herdLoc = lazyre.New(`\[([A-Za-z_][A-Za-z0-9_.]*)\]`)

// normState spells a state the same whoever printed it: herd7's [x]
// is x, the assignments sorted, one "; " between them.
func normState(s string) string {
	s = herdLoc.ReplaceAllString(s, "$1")
	var parts []string
	for _, p := range strings.Split(s, ";") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, strings.ReplaceAll(p, " ", ""))
		}
	}
	sort.Slice(parts, func(i, j int) bool {
		a, _, _ := strings.Cut(parts[i], "=")
		b, _, _ := strings.Cut(parts[j], "=")
		return refLess(a, b)
	})
	return strings.Join(parts, "; ") + ";"
}

// runDiff is 'musket diff A B'.
func runDiff(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verdicts := fs.Bool("verdicts", false, "compare the verdicts only, not the final states")
	quiet := fs.Bool("q", false, "print the totals only")
	byName := fs.Bool("names", false, "compare two tests of one name even when their Hash= lines differ (a generated campaign against logs of tests written by another tool: one cycle, two texts); counted apart")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: musket diff [-verdicts] [-names] [-q] A B")
		fmt.Fprintln(stderr, "A and B are runs: 'musket litmus -json' or 'musket merge -json' output, a text log (herd7's or musket's),")
		fmt.Fprintln(stderr, "or a folder of them (herd7's logs, one file per test). Lists the tests, by name, whose verdict or final")
		fmt.Fprintln(stderr, "states differ (the states only when both runs list them), then the totals, as mcompare7 does. Two tests of")
		fmt.Fprintln(stderr, "one name whose Hash= lines (herd7's digest of a test) differ are different tests: listed, not compared.")
		fmt.Fprintln(stderr, "Exit status 0 when the runs agree on every test both have, 1 when some differ (or no test is in both), 2 on bad input.")
		fs.PrintDefaults()
	}
	ops, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(ops) != 2 {
		return usageError(fs, stderr, "give two runs to compare (got %d)", len(ops))
	}
	a, orderA, err := readOutcomes(ops[0])
	if err != nil {
		fmt.Fprintf(stderr, "musket diff: %v\n", err)
		return exitBadInput
	}
	b, orderB, err := readOutcomes(ops[1])
	if err != nil {
		fmt.Fprintf(stderr, "musket diff: %v\n", err)
		return exitBadInput
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	var common, onlyA, onlyB, verdictDiff, statusDiff, statesDiff, hashDiff, hashNamed int
	for _, name := range orderA {
		x, y := a[name], b[name]
		if y == nil {
			onlyA++
			continue
		}
		common++
		if x.hash != "" && y.hash != "" && x.hash != y.hash {
			if !*byName {
				// herd7's digests differ: two different tests under one
				// name, whose results are not compared (as mcompare7).
				hashDiff++
				if !*quiet {
					fmt.Fprintf(w, "%s: different tests (Hash=%s in A, Hash=%s in B)\n", name, x.hash, y.hash)
				}
				continue
			}
			hashNamed++
		}
		switch {
		case x.status != "done" || y.status != "done":
			if x.status != y.status {
				statusDiff++
				if !*quiet {
					fmt.Fprintf(w, "%s: %s in A, %s in B\n", name, describeOutcome(x), describeOutcome(y))
				}
			}
		case x.verdict != y.verdict:
			verdictDiff++
			if !*quiet {
				fmt.Fprintf(w, "%s: %s in A, %s in B\n", name, x.verdict, y.verdict)
			}
		case !*verdicts && x.hasSt && y.hasSt:
			inA, inB := setDiff(x.states, y.states), setDiff(y.states, x.states)
			if len(inA)+len(inB) > 0 {
				statesDiff++
				if !*quiet {
					fmt.Fprintf(w, "%s: %s in both, states differ\n", name, x.verdict)
					for _, s := range inA {
						fmt.Fprintf(w, "  only in A: %s\n", s)
					}
					for _, s := range inB {
						fmt.Fprintf(w, "  only in B: %s\n", s)
					}
				}
			}
		}
	}
	for _, name := range orderB {
		if a[name] == nil {
			onlyB++
		}
	}
	differ := verdictDiff + statusDiff + statesDiff
	fmt.Fprintf(w, "A: %d tests, B: %d tests, %d in both (%d only in A, %d only in B)\n", len(orderA), len(orderB), common, onlyA, onlyB)
	if hashDiff > 0 {
		fmt.Fprintf(w, "different tests under one name (their Hash= lines differ), not compared: %d\n", hashDiff)
	}
	if hashNamed > 0 {
		fmt.Fprintf(w, "compared by name although their Hash= lines differ (-names): %d\n", hashNamed)
	}
	fmt.Fprintf(w, "differ: %d (verdict %d, final states %d, a verdict on one side only %d); same: %d\n", differ, verdictDiff, statesDiff, statusDiff, common-differ-hashDiff)
	if differ+hashDiff > 0 {
		return exitFailed
	}
	if common == 0 && onlyA+onlyB > 0 {
		// Two runs of different suites (a folder of the wrong
		// architecture) agree on no test: not an agreement.
		fmt.Fprintf(w, "no test is in both runs: nothing compared\n")
		return exitFailed
	}
	return exitOK
}

func describeOutcome(o *outcome) string {
	if o.status == "done" {
		return o.verdict
	}
	return o.status
}

// setDiff lists the elements of sorted a not in sorted b.
func setDiff(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}
