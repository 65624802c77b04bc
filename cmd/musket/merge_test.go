package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// musketProcess runs the test binary as musket (TestMain) and returns
// its stdout and exit status.
func musketProcess(t *testing.T, args ...string) ([]byte, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MUSKET_TEST_AS_MUSKET=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	code := 0
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), code
}

// TestShardsMerge runs a corpus folder once and as 4 shards, each a
// process of its own (the second time in this process, to keep the test
// short), and checks that the merge of the shards is the
// merge of the single run byte for byte (and the single run's text less
// its Time lines), with the same exit status; once with the corpus'
// expected verdicts, once with one of them turned so that the run
// disagrees (exit status 1).
func TestShardsMerge(t *testing.T) {
	corpus := testcorpus.Dir(t)
	dir := filepath.Join(corpus, "litmus", "AARCH64", "CO")
	csv, err := os.ReadFile(filepath.Join(corpus, "litmus", "expected", "ARM8.csv"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	good := filepath.Join(tmp, "good.csv")
	os.WriteFile(good, csv, 0o644)
	// Turn the expected verdict of the first CO test.
	re := regexp.MustCompile(`(?m)^(AARCH64/CO/[^,]*),([01])$`)
	flipped := false
	bad := re.ReplaceAllStringFunc(string(csv), func(m string) string {
		if flipped {
			return m
		}
		flipped = true
		if strings.HasSuffix(m, "1") {
			return m[:len(m)-1] + "0"
		}
		return m[:len(m)-1] + "1"
	})
	badCSV := filepath.Join(tmp, "bad.csv")
	os.WriteFile(badCSV, []byte(bad), 0o644)
	for _, c := range []struct {
		csv       string
		code      int
		processes bool
	}{{good, 0, true}, {badCSV, 1, false}} {
		base := []string{"-j", "1", "-engine", "enum", "-expect", c.csv}
		var single, errb bytes.Buffer
		if code := runLitmus(append(append([]string(nil), base...), "-json", dir), &single, &errb); code != c.code {
			t.Fatalf("single run: exit status %d, want %d", code, c.code)
		}
		one := filepath.Join(tmp, "one.json")
		os.WriteFile(one, single.Bytes(), 0o644)
		shards := make([]string, 4)
		outs := make([][]byte, 4)
		if c.processes {
			// Four processes side by side, as a scheduler runs them.
			var wg sync.WaitGroup
			for k := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					outs[k], _ = musketProcess(t, append(append([]string{"litmus"}, base...), "-json", "-shard", []string{"1/4", "2/4", "3/4", "4/4"}[k], dir)...)
				}()
			}
			wg.Wait()
		} else {
			for k := range 4 {
				var b bytes.Buffer
				runLitmus(append(append([]string(nil), base...), "-json", "-shard", []string{"1/4", "2/4", "3/4", "4/4"}[k], dir), &b, &errb)
				outs[k] = b.Bytes()
			}
		}
		for k := range 4 {
			shards[k] = filepath.Join(tmp, []string{"s1", "s2", "s3", "s4"}[k]+".json")
			os.WriteFile(shards[k], outs[k], 0o644)
		}
		var m1, m4 bytes.Buffer
		code1 := runMerge([]string{one}, &m1, &errb)
		// Any order of the shards.
		code4 := runMerge([]string{shards[2], shards[0], shards[3], shards[1]}, &m4, &errb)
		if code1 != c.code || code4 != c.code {
			t.Errorf("merge exit statuses %d (single) and %d (shards), want %d", code1, code4, c.code)
		}
		if !bytes.Equal(m1.Bytes(), m4.Bytes()) {
			t.Errorf("merge of the shards differs from the single run:\n%s\n---\n%s", m4.String(), m1.String())
		}
		if c.code == 1 {
			if !strings.Contains(m4.String(), "DISAGREE ") {
				t.Errorf("no DISAGREE line in the merge:\n%s", m4.String())
			}
			continue
		}
		var text bytes.Buffer
		runLitmus(append(append([]string(nil), base...), dir), &text, &errb)
		var kept []string
		for _, l := range strings.SplitAfter(text.String(), "\n") {
			if !strings.HasPrefix(l, "Time ") {
				kept = append(kept, l)
			}
		}
		if strings.Join(kept, "") != m1.String() {
			t.Errorf("merge differs from the text of the run (less its Time lines):\n%s\n---\n%s", m1.String(), strings.Join(kept, ""))
		}
	}
}

func TestShardFlag(t *testing.T) {
	files := []string{"a", "b", "c", "d", "e"}
	for _, c := range []struct {
		v    string
		want string
	}{{"1/2", "a c e"}, {"2/2", "b d"}, {"3/3", "c"}, {"1/1", "a b c d e"}, {"4/8", "d"}, {"6/8", ""}} {
		var s shardFlag
		if err := s.Set(c.v); err != nil {
			t.Fatal(err)
		}
		got, _ := s.apply(files)
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %v, want %s", c.v, got, c.want)
		}
	}
	for _, v := range []string{"0/4", "5/4", "1/0", "x/2", "2"} {
		var s shardFlag
		if err := s.Set(v); err == nil {
			t.Errorf("%s accepted", v)
		}
	}
}

func TestMergeBadInput(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	sum := func(shard string, inputs int) string {
		return `{"summary":{"tests":1,"finished":1,"errors":0,"timeouts":[],"timeout_ms":0,"interrupted":false,"time_ms":1,"exit_status":0,"shard":"` + shard + `","inputs":` + string(rune('0'+inputs)) + `}}` + "\n"
	}
	test := `{"file":"a.litmus","name":"a","status":"done","verdict":"Ok","observation":"Sometimes","condition":"exists (x=1)"}` + "\n"
	// sumBy is a summary with the version and setup a run records.
	sumBy := func(shard string, inputs int, version, setup string) string {
		return strings.Replace(sum(shard, inputs), `}}`, `,"version":"`+version+`","setup":"`+setup+`"}}`, 1)
	}
	for _, c := range []struct {
		files []string
		err   string
	}{
		{[]string{write("nosum.json", test)}, "no summary line after the last test"},
		{[]string{write("junk.json", "hello\n")}, "junk.json:1:1: not a JSON object"},
		{[]string{write("s1.json", test+sum("1/2", 2))}, "shard 2/2 of the run of 2 tests is missing"},
		{[]string{write("a1.json", test+sum("1/2", 2)), write("b1.json", test+sum("1/2", 2))}, "are both shard 1/2"},
		// Shards of one campaign run one command by one musket: a shard
		// under another model, or from another version, is refused.
		{[]string{write("m1.json", test+sumBy("1/2", 2, "0.1.0", "engine=auto unroll=2")), write("m2.json", test+sumBy("2/2", 2, "0.1.0", "model=sc engine=auto unroll=2"))},
			`m2.json (shard 2/2) with "model=sc engine=auto unroll=2": the shards of one run must run one command`},
		{[]string{write("v1.json", test+sumBy("1/2", 2, "0.1.0", "engine=auto unroll=2")), write("v2.json", test+sumBy("2/2", 2, "0.2.0", "engine=auto unroll=2"))},
			"by musket 0.2.0: the shards of one run must come from one version"},
		{[]string{write("o1.json", test+sum("1/2", 2)), write("o2.json", test+sumBy("2/2", 2, "0.1.0", "engine=auto unroll=2"))},
			"was run by musket (unrecorded"},
		// Shards of two different splits: said as such, not as a
		// missing shard.
		{[]string{write("p1.json", test+sum("1/2", 2)), write("p2.json", test+sum("2/3", 3))},
			"the shards are not of one run: shard 1/2 of a run of 2 tests"},
		// A line longer than -max-input (given 1K below): /dev/zero
		// took 2 GB before "bufio.Scanner: token too long" (robust7).
		{[]string{write("long.json", test+strings.Repeat(" ", 2000)+"\n"+sum("", 1))}, "long.json:2:1: a line: larger than the input limit of 1 KiB (raise it with -max-input)"},
		{[]string{"/dev/zero"}, "/dev/zero:1:1: a line: larger than the input limit of 1 KiB"},
		{[]string{tmp}, tmp + ": is a directory"},
	} {
		var out, errb bytes.Buffer
		code := runMerge(append([]string{"-max-input", "1K"}, c.files...), &out, &errb)
		source.SetMaxInput(source.DefaultMaxInput)
		if code != exitBadInput || !strings.Contains(errb.String(), c.err) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.files, code, errb.String(), c.err)
		}
	}
}

// TestMergeWarnings: runs merged one after the other (not shards) from
// two versions or under two models are merged, with a warning each.
func TestMergeWarnings(t *testing.T) {
	tmp := t.TempDir()
	run := func(name, version, setup string) string {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte(`{"file":"`+name+`.litmus","name":"`+name+`","status":"done","verdict":"Ok","herd":"Test `+name+`\n"}`+"\n"+
			`{"summary":{"tests":1,"finished":1,"exit_status":0,"version":"`+version+`","setup":"`+setup+`"}}`+"\n"), 0o644)
		return p
	}
	for _, c := range []struct {
		files []string
		warn  string // "" for none
	}{
		{[]string{run("a", "0.1.0", "engine=auto"), run("b", "0.1.0", "engine=auto")}, ""},
		{[]string{run("c", "0.1.0", "engine=auto"), run("d", "0.1.0", "model=sc engine=auto")}, "the merged result mixes options (models)"},
		{[]string{run("e", "0.1.0", "engine=auto"), run("f", "0.2.0", "engine=auto")}, "the merged result mixes versions"},
	} {
		var out, errb bytes.Buffer
		code := runMerge(c.files, &out, &errb)
		if code != exitOK || !strings.Contains(out.String(), "Test ") {
			t.Errorf("%v: exit %d, stdout %q: want the runs merged", c.files, code, out.String())
		}
		if got := strings.Contains(errb.String(), "warning"); got != (c.warn != "") || !strings.Contains(errb.String(), c.warn) {
			t.Errorf("%v: stderr %q, want warning %q", c.files, errb.String(), c.warn)
		}
	}
}

// TestMergeSummaryLists: the merged -json summary lists the tests that
// reached the memory limit (it dropped them) and those answered by one
// engine of -engine both (unconfirmed), writes empty lists as []
// (not null, as one run does) and keeps the version and setup the runs
// share.
func TestMergeSummaryLists(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	sum := func(shard string) string {
		return `{"summary":{"tests":1,"finished":1,"exit_status":3,"shard":"` + shard + `","inputs":2,"version":"0.1.0","setup":"engine=auto unroll=2"}}` + "\n"
	}
	a := write("a.json", `{"file":"a.litmus","name":"a","status":"memory limit","herd":"Test a\n"}`+"\n"+sum("1/2"))
	b := write("b.json", `{"file":"b.litmus","name":"b","status":"done","verdict":"Ok","unconfirmed":"smt: timeout (limit 1s)","herd":"Test b\n"}`+"\n"+sum("2/2"))
	var out, errb bytes.Buffer
	runMerge([]string{"-json", a, b}, &out, &errb)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	for _, want := range []string{`"memory_limit":["a"]`, `"unconfirmed":["b"]`, `"unsupported":[]`, `"timeouts":[]`, `"version":"0.1.0"`, `"setup":"engine=auto unroll=2"`} {
		if !strings.Contains(last, want) {
			t.Errorf("merged summary %s: no %s", last, want)
		}
	}
	out.Reset()
	errb.Reset()
	runMerge([]string{a, b}, &out, &errb)
	if !strings.Contains(errb.String(), "memory limit reached: a") || !strings.Contains(errb.String(), "unconfirmed (one engine answered, the other did not finish): b") {
		t.Errorf("stderr %q: want the memory limit and the unconfirmed answer said", errb.String())
	}
}

// TestMergeClaimedInputs: a summary that claims far more inputs than
// its shards have results is merged at once (mergeRuns looped over every
// claimed input: "inputs": 1e12 kept merge and diff busy for hours).
func TestMergeClaimedInputs(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.json")
	os.WriteFile(p, []byte(`{"file":"a.litmus","name":"a","status":"done","verdict":"Ok"}`+"\n"+
		`{"summary":{"tests":1,"finished":1,"exit_status":0,"shard":"1/1","inputs":1000000000000000}}`+"\n"), 0o644)
	runs, err := readRunOutputs(p)
	if err != nil {
		t.Fatal(err)
	}
	tests, err := mergeRuns(runs)
	if err != nil || len(tests) != 1 || tests[0].j.Name != "a" {
		t.Fatalf("merged %v, %v; want the one test a", tests, err)
	}
}
