package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzCommands are the commands FuzzCommandLines runs, with whether
// they take -timeout (serve listens and bench runs whole suites: left
// out).
var fuzzCommands = []struct {
	name    string
	timeout bool
}{
	{"litmus", true}, {"check", true}, {"compare", true}, {"prove", true}, {"fix", true},
	{"param", true}, {"gen", true}, {"diff", false}, {"merge", false}, {"models", false}, {"version", false},
}

// FuzzCommandLines runs a command on a command line of fuzzed flags and
// operands, in a folder of small inputs (a litmus test, an assembly test
// with loops, a .pts program, a .cub system, a run's JSON), with a time
// limit of its own last: whatever the flags, the exit status is one of
// the table's and nothing panics. Words with '/' are dropped, so that
// every file a flag names (-witness, -dot, -cpuprofile) is in the folder.
func FuzzCommandLines(f *testing.F) {
	for _, s := range []struct {
		cmd  uint8
		args string
	}{
		{0, "sb.litmus"}, {0, "-engine both -json -witness w.dot sb.litmus sb.litmus"},
		{0, "-model sc -j 3 -nshow 0 -unroll 1 -shard 2/3 sb.litmus mp.litmus"},
		{1, "-bound 0 -engine enum -stats prog.pts"}, {1, "-model pso -bound 2 -explain -races mp.litmus"},
		{2, "-source sc -target tso -bound 1 prog.pts"}, {3, "-model tso mp.litmus"},
		{4, "-target power -bound 1 prog.pts"}, {4, "-costs sb.litmus sb.litmus"},
		{5, "-depth 3 -dfs -selfcheck -invariants sys.cub"}, {5, "-nodes 1 -noapprox -model pso -json sys.cub"},
		{6, "-arch PPC -relax Rfe,PodRR,Fre,PodWW -size 4"}, {6, "-arch x86 Rfe PodRR Fre PodWR"},
		{7, "run.json run.json"}, {8, "run.json -json"}, {9, ""}, {10, ""},
		{0, "-max-input 10 sb.litmus"}, {0, "-memory 1M sb.litmus"}, {1, "- sb.litmus"},
	} {
		f.Add(s.cmd, s.args)
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		f.Fatal(err)
	}
	inputs := map[string]string{
		"sb.litmus": filepath.Join(repo, "examples/litmus/SB.litmus"),
		"mp.litmus": filepath.Join(repo, "examples/asm/mp.litmus"),
		"prog.pts":  filepath.Join(repo, "internal/fix/testdata/peterson.pts"),
		"sys.cub":   filepath.Join(repo, "cmd/musket/testdata/param_intlin.cub"),
	}
	f.Fuzz(func(t *testing.T, cmd uint8, line string) {
		words := strings.Fields(line)
		if len(words) > 16 {
			return
		}
		for _, w := range words {
			if strings.Contains(w, "/") && !isShard(w) || strings.Contains(w, "..") {
				return
			}
		}
		dir := t.TempDir()
		for name, src := range inputs {
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
		os.WriteFile(filepath.Join(dir, "run.json"), []byte(`{"file":"sb.litmus","name":"SB","status":"done","verdict":"Ok"}`+"\n"+`{"summary":{"tests":1}}`+"\n"), 0o644)
		t.Chdir(dir)
		c := fuzzCommands[int(cmd)%len(fuzzCommands)]
		args := append([]string{c.name}, words...)
		if c.timeout {
			args = append(args, "-timeout", "2")
		}
		code := dispatch(args, io.Discard, io.Discard)
		switch code {
		case exitOK, exitFailed, exitBadInput, exitLimit, exitDisagree:
		default:
			t.Fatalf("%q: exit status %d, not one of the table's", args, code)
		}
	})
}

// isShard tells whether w is a -shard value (K/N), the one word with a
// '/' FuzzCommandLines keeps.
func isShard(w string) bool {
	k, n, ok := strings.Cut(w, "/")
	return ok && k != "" && n != "" && strings.Trim(k+n, "0123456789") == ""
}
