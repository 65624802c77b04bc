package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/source"
)

func init() {
	register("merge", "merge the -json results of runs (the shards of one campaign) into one result", runMerge)
}

// jsonTest is what merge and diff read of a test's JSON line (the
// fields of jsonTest they need; the witness and the
// explanation are passed through as written).
type jsonTest struct {
	File        string               `json:"file"`
	Name        string               `json:"name"`
	Model       string               `json:"model"`
	Hash        string               `json:"hash"`
	Status      string               `json:"status"`
	Error       string               `json:"error"`
	Verdict     string               `json:"verdict"`
	Observation string               `json:"observation"`
	Unconfirmed string               `json:"unconfirmed"`
	Condition   string               `json:"condition"`
	States      *[]map[string]string `json:"states"`
	Positive    *int                 `json:"positive"`
	Negative    *int                 `json:"negative"`
	Flags       []string             `json:"flags"`
	Bounded     bool                 `json:"bounded"`
	Pruned      bool                 `json:"pruned"`
	Expected    string               `json:"expected"`
	Herd        string               `json:"herd"`
}

// runOutput is one file of 'musket litmus -json' output: its tests, raw
// and decoded, and its summary.
type runOutput struct {
	path  string
	raw   [][]byte
	tests []jsonTest
	sum   *litmusSummary
}

// readRunOutputs reads the JSON Lines of the runs in a file: each run's
// tests, then its summary line (the outputs of several runs may follow
// one another, as GNU parallel gathers the shards' outputs).
func readRunOutputs(path string) ([]*runOutput, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, source.FileError(err)
	}
	defer f.Close()
	var runs []*runOutput
	out := &runOutput{path: path}
	sc := bufio.NewScanner(f)
	// A line is at most the input limit (-max-input; 1 GiB when none):
	// /dev/zero, one line with no end, took 2 GB before "bufio.Scanner:
	// token too long" (robust7).
	maxLine := source.MaxInput()
	if maxLine <= 0 || maxLine > 1<<30 {
		maxLine = 1 << 30
	}
	sc.Buffer(make([]byte, min(1<<20, maxLine)), int(maxLine))
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = source.TrimBOM(b)
		}
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(b, &probe); err != nil {
			return nil, fmt.Errorf("%s:%d:1: not a JSON object (musket litmus -json writes one per line): %v", path, line, err)
		}
		if s, ok := probe["summary"]; ok {
			out.sum = &litmusSummary{}
			if err := json.Unmarshal(s, out.sum); err != nil {
				return nil, fmt.Errorf("%s:%d:1: summary: %v", path, line, err)
			}
			runs = append(runs, out)
			out = &runOutput{path: fmt.Sprintf("%s:%d", path, line+1)}
			continue
		}
		var j jsonTest
		if err := json.Unmarshal(b, &j); err != nil {
			return nil, fmt.Errorf("%s:%d:1: not a test result of musket litmus -json: %v", path, line, err)
		}
		if j.Name == "" && j.Status == "error" && j.File != "" {
			// A file that could not be read (musket litmus -json's error
			// object): named by its file, as the run names it.
			j.Name = strings.TrimSuffix(filepath.Base(j.File), ".litmus")
		}
		if j.Name == "" || j.Status == "" {
			return nil, fmt.Errorf("%s:%d:1: not a test result of musket litmus -json (no name or status)", path, line)
		}
		out.tests = append(out.tests, j)
		out.raw = append(out.raw, append([]byte(nil), b...))
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, &source.TooLargeError{Path: fmt.Sprintf("%s:%d:1: a line", path, line+1), Limit: maxLine}
	} else if err != nil {
		return nil, source.FileError(err)
	}
	if len(out.tests) > 0 || len(runs) == 0 {
		return nil, fmt.Errorf("%s: no summary line after the last test: the run did not finish (or was not musket litmus -json)", path)
	}
	return runs, nil
}

// mergedTest is one test of the merged result.
type mergedTest struct {
	raw []byte
	j   jsonTest
}

// mergeRuns puts the tests of the runs in the order of one run: the
// shards of a campaign (-shard K/N, all N of them, in any order) back
// into input order, the other files one after the other.
// shardGroup is the shards of one run: -shard K/N of a run of inputs
// tests.
type shardGroup struct {
	n, inputs int
	shards    map[int]*runOutput
}

func mergeRuns(runs []*runOutput) ([]mergedTest, error) {
	var order []any // *runOutput or *shardGroup, by first appearance
	groups := map[string]*shardGroup{}
	for _, r := range runs {
		if r.sum.Shard == "" {
			order = append(order, r)
			continue
		}
		k, n, err := parseShard(r.sum.Shard)
		if err != nil {
			return nil, fmt.Errorf("%s: shard: %v", r.path, err)
		}
		key := fmt.Sprintf("%d/%d", n, r.sum.Inputs)
		g := groups[key]
		if g == nil {
			g = &shardGroup{n: n, inputs: r.sum.Inputs, shards: map[int]*runOutput{}}
			groups[key] = g
			order = append(order, g)
		}
		if prev := g.shards[k]; prev != nil {
			return nil, fmt.Errorf("%s and %s are both shard %s", prev.path, r.path, r.sum.Shard)
		}
		for _, other := range g.shards {
			if err := sameCommand(other, r); err != nil {
				return nil, err
			}
			break
		}
		g.shards[k] = r
	}
	var out []mergedTest
	for _, o := range order {
		switch o := o.(type) {
		case *runOutput:
			for i := range o.tests {
				out = append(out, mergedTest{o.raw[i], o.tests[i]})
			}
		case *shardGroup:
			for k := 1; k <= o.n; k++ {
				r := o.shards[k]
				if r == nil {
					if len(groups) > 1 {
						return nil, fmt.Errorf("the shards are not of one run: %s", describeGroups(order))
					}
					return nil, fmt.Errorf("shard %d/%d of the run of %d tests is missing", k, o.n, o.inputs)
				}
				want := (o.inputs - k + o.n) / o.n
				if len(r.tests) > want {
					return nil, fmt.Errorf("%s: shard %s has %d results for %d tests", r.path, r.sum.Shard, len(r.tests), want)
				}
			}
			// Input i is result i/n of shard i%n+1, so no input past n
			// times the longest shard has one: the loop stops there
			// whatever count of inputs the summaries claim (a hand-made
			// "inputs": 1e12 kept merge and diff busy for hours).
			most := 0
			for _, r := range o.shards {
				most = max(most, len(r.tests))
			}
			for i := 0; i < o.inputs && i < o.n*most; i++ {
				r := o.shards[i%o.n+1]
				if p := i / o.n; p < len(r.tests) {
					out = append(out, mergedTest{r.raw[p], r.tests[p]})
				}
			}
		}
	}
	return out, nil
}

// mergeSummary adds up the summaries as one run's: the counts, the
// names in merged order, the longest time (the shards ran side by side),
// the highest exit status (130 over all).
// sameCommand tells whether two shards of one run were run by the same
// musket with the same options (the summary's version and setup; a run
// by a musket that did not record them has neither): shards run under two
// models, or by two versions, are not the slices of one run.
func sameCommand(a, b *runOutput) error {
	switch {
	case a.sum.Version != b.sum.Version:
		return fmt.Errorf("%s (shard %s) was run by musket %s, %s (shard %s) by musket %s: the shards of one run must come from one version", a.path, a.sum.Shard, orUnknown(a.sum.Version), b.path, b.sum.Shard, orUnknown(b.sum.Version))
	case a.sum.Setup != b.sum.Setup:
		return fmt.Errorf("%s (shard %s) was run with %q, %s (shard %s) with %q: the shards of one run must run one command", a.path, a.sum.Shard, a.sum.Setup, b.path, b.sum.Shard, b.sum.Setup)
	}
	return nil
}

func orUnknown(v string) string {
	if v == "" {
		return "(unrecorded: before 0.1.0-dev of November 2026)"
	}
	return v
}

// describeGroups lists the runs the shards claim to be slices of, for
// the error when they do not make one: "shards 1/3, 3/3 of a run of 21
// tests (s1.json, s3.json); shard 2/4 of a run of 21 tests (s2.json)".
func describeGroups(order []any) string {
	var parts []string
	for _, o := range order {
		g, ok := o.(*shardGroup)
		if !ok {
			continue
		}
		var ks []int
		for k := range g.shards {
			ks = append(ks, k)
		}
		sort.Ints(ks)
		var names, paths []string
		for _, k := range ks {
			names = append(names, fmt.Sprintf("%d/%d", k, g.n))
			paths = append(paths, g.shards[k].path)
		}
		word := "shard"
		if len(ks) > 1 {
			word = "shards"
		}
		parts = append(parts, fmt.Sprintf("%s %s of a run of %d tests (%s)", word, strings.Join(names, ", "), g.inputs, strings.Join(paths, ", ")))
	}
	return strings.Join(parts, "; ")
}

// mergeWarnings are the remarks on runs merged one after the other (not
// shards of one run): those from different versions or with different
// options are merged, and said so.
func mergeWarnings(runs []*runOutput) []string {
	var out []string
	for _, r := range runs[1:] {
		if r.sum.Version != runs[0].sum.Version {
			out = append(out, fmt.Sprintf("%s was run by musket %s, %s by musket %s: the merged result mixes versions", runs[0].path, orUnknown(runs[0].sum.Version), r.path, orUnknown(r.sum.Version)))
			break
		}
	}
	for _, r := range runs[1:] {
		if r.sum.Setup != runs[0].sum.Setup {
			out = append(out, fmt.Sprintf("%s was run with %q, %s with %q: the merged result mixes options (models)", runs[0].path, runs[0].sum.Setup, r.path, r.sum.Setup))
			break
		}
	}
	return out
}

func mergeSummary(runs []*runOutput, tests []mergedTest) litmusSummary {
	var s litmusSummary
	pos := map[string]int{}
	for i, t := range tests {
		if _, ok := pos[t.j.File]; !ok {
			pos[t.j.File] = i
		}
		switch t.j.Status {
		case "timeout":
			s.Timeouts = append(s.Timeouts, t.j.Name)
		case "unsupported":
			s.Unsupported = append(s.Unsupported, t.j.Name)
		case "memory limit":
			s.MemoryLimit = append(s.MemoryLimit, t.j.Name)
		case "disagreement":
			s.EngineDisagreements = append(s.EngineDisagreements, t.j.Name)
		case "limit":
			s.Limits = append(s.Limits, t.j.Name)
		}
		if t.j.Unconfirmed != "" {
			s.Unconfirmed = append(s.Unconfirmed, t.j.Name)
		}
	}
	// Empty lists, not null, as musket litmus -json writes them.
	for _, l := range []*[]string{&s.Timeouts, &s.MemoryLimit, &s.Unsupported} {
		if *l == nil {
			*l = []string{}
		}
	}
	var st status
	interrupted := false
	for _, r := range runs {
		x := r.sum
		s.Tests += x.Tests
		s.Finished += x.Finished
		s.Errors += x.Errors
		if s.TimeoutMS == 0 {
			s.TimeoutMS = x.TimeoutMS
		}
		if s.ModelError == "" {
			s.ModelError = x.ModelError
		}
		s.Interrupted = s.Interrupted || x.Interrupted
		if x.SlowestMS > s.SlowestMS {
			s.Slowest, s.SlowestMS = x.Slowest, x.SlowestMS
		}
		s.TimeMS = max(s.TimeMS, x.TimeMS)
		if x.ExitStatus == exitInterrupted {
			interrupted = true
		} else {
			st.add(x.ExitStatus)
		}
		if e := x.Expect; e != nil {
			if s.Expect == nil {
				s.Expect = &expectSummary{Disagreements: []string{}}
			}
			s.Expect.Agreed += e.Agreed
			s.Expect.Compared += e.Compared
			s.Expect.WithoutExpected += e.WithoutExpected
			s.Expect.Disagreements = append(s.Expect.Disagreements, e.Disagreements...)
		}
	}
	if s.Expect != nil {
		// Each disagreement begins with its test's path: merged order.
		at := func(d string) int {
			p, _, _ := strings.Cut(d, ": ")
			if i, ok := pos[p]; ok {
				return i
			}
			return len(tests)
		}
		sort.SliceStable(s.Expect.Disagreements, func(i, j int) bool {
			return at(s.Expect.Disagreements[i]) < at(s.Expect.Disagreements[j])
		})
	}
	s.ExitStatus = int(st)
	if interrupted {
		s.ExitStatus = exitInterrupted
	}
	// The version and setup of one run, when every run has the same
	// (merge -json is then one run's output; else they are left out).
	s.Version, s.Setup = runs[0].sum.Version, runs[0].sum.Setup
	for _, r := range runs[1:] {
		if r.sum.Version != s.Version {
			s.Version = ""
		}
		if r.sum.Setup != s.Setup {
			s.Setup = ""
		}
	}
	return s
}

// runMerge is 'musket merge [-json] FILE.json ...'.
func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the merged result as JSON Lines (the tests, then one {\"summary\": ...}), as one 'musket litmus -json' run")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: musket merge [-json] RUN.json ...   (a file may hold several runs one after the other)")
		fmt.Fprintln(stderr, "Merges the outputs of 'musket litmus -json' (the shards of one campaign, -shard K/N, in any order; or")
		fmt.Fprintln(stderr, "separate runs, one after the other) into the result of one run: herd's text of each test (without")
		fmt.Fprintln(stderr, "the Time lines, which differ from run to run), the agreement with -expect, and the exit status one run")
		fmt.Fprintln(stderr, "would have had. The time on stderr is the longest shard's.")
		fs.PrintDefaults()
	}
	files, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		return usageError(fs, stderr, "no result files given")
	}
	var runs []*runOutput
	for _, f := range files {
		rs, err := readRunOutputs(f)
		if err != nil {
			fmt.Fprintf(stderr, "musket merge: %v\n", err)
			return exitBadInput
		}
		runs = append(runs, rs...)
	}
	tests, err := mergeRuns(runs)
	if err != nil {
		fmt.Fprintf(stderr, "musket merge: %v\n", err)
		return exitBadInput
	}
	for _, w := range mergeWarnings(runs) {
		fmt.Fprintf(stderr, "musket merge: warning: %s\n", w)
	}
	s := mergeSummary(runs, tests)
	if *asJSON {
		for _, t := range tests {
			stdout.Write(append(t.raw, '\n'))
		}
		writeJSON(stdout, map[string]litmusSummary{"summary": s})
		return s.ExitStatus
	}
	w := bufio.NewWriter(stdout)
	for _, t := range tests {
		writeMergedText(w, t.j)
	}
	if e := s.Expect; e != nil {
		for _, d := range e.Disagreements {
			fmt.Fprintf(w, "DISAGREE %s\n", d)
		}
		fmt.Fprintf(w, "agreement %d/%d\n", e.Agreed, e.Compared)
		if e.WithoutExpected > 0 {
			fmt.Fprintf(w, "without expected result: %d\n", e.WithoutExpected)
		}
	}
	w.Flush()
	fmt.Fprintf(stderr, "%d tests merged from %d runs; %.2fs (the longest run)", s.Tests, len(runs), s.TimeMS/1000)
	if s.Slowest != "" {
		fmt.Fprintf(stderr, "; slowest %s %.2fs", s.Slowest, s.SlowestMS/1000)
	}
	fmt.Fprintln(stderr)
	if len(s.Timeouts) > 0 {
		fmt.Fprintf(stderr, "timed out: %s\n", strings.Join(s.Timeouts, ", "))
	}
	if len(s.Unsupported) > 0 {
		fmt.Fprintf(stderr, "unsupported (each test's error says what): %s\n", strings.Join(s.Unsupported, ", "))
	}
	if len(s.MemoryLimit) > 0 {
		fmt.Fprintf(stderr, "memory limit reached: %s\n", strings.Join(s.MemoryLimit, ", "))
	}
	if len(s.Limits) > 0 {
		fmt.Fprintf(stderr, "a limit of the engine reached (each test's error says which): %s\n", strings.Join(s.Limits, ", "))
	}
	if len(s.Unconfirmed) > 0 {
		fmt.Fprintf(stderr, "unconfirmed (one engine answered, the other did not finish): %s\n", strings.Join(s.Unconfirmed, ", "))
	}
	if len(s.EngineDisagreements) > 0 {
		fmt.Fprintf(stderr, "the engines disagree on %d tests: %s\n", len(s.EngineDisagreements), strings.Join(s.EngineDisagreements, ", "))
	}
	if s.ModelError != "" {
		fmt.Fprintf(stderr, "the model fails: %s\n", s.ModelError)
	}
	if s.Interrupted {
		fmt.Fprintf(stderr, "interrupted: %d of %d tests finished\n", s.Finished, s.Tests)
	}
	return s.ExitStatus
}

// writeMergedText prints one test as 'musket litmus' printed it (herd's
// text, kept in its JSON as "herd"), without its Time line, which differs
// from run to run.
func writeMergedText(w io.Writer, j jsonTest) {
	for _, line := range strings.SplitAfter(j.Herd, "\n") {
		if !strings.HasPrefix(line, "Time ") {
			io.WriteString(w, line)
		}
	}
}

// stateText prints a final state as herd does ("0:EAX=0; 1:EAX=1; x=2;"):
// registers by thread and name, then locations.
func stateText(st map[string]string) string {
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return refLess(keys[a], keys[b]) })
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, "%s=%s; ", k, st[k])
	}
	return strings.TrimRight(sb.String(), " ")
}

// refLess orders refs as herd prints them: registers ("T:R") by thread
// number then name, then locations by name.
func refLess(a, b string) bool {
	ta, ra, aReg := strings.Cut(a, ":")
	tb, rb, bReg := strings.Cut(b, ":")
	if aReg != bReg {
		return aReg
	}
	if !aReg {
		return a < b
	}
	na, errA := strconv.Atoi(ta)
	nb, errB := strconv.Atoi(tb)
	if errA == nil && errB == nil && na != nb {
		return na < nb
	}
	if ta != tb {
		return ta < tb
	}
	return ra < rb
}
