package main

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRunOutputs reads a file as diff and merge read one: JSON Lines of
// musket litmus -json or a herd7 text log. An error is fine, a panic is
// not, and the outcomes read are named.
func FuzzRunOutputs(f *testing.F) {
	for _, s := range []string{
		"Test SB Allowed\nStates 2\n0:EAX=0; 1:EAX=0;\n[x]=1;\nOk\nHash=abc\n",
		"Test A error\nTest B\nStates 0\nNo\nTimeout\n",
		`{"name":"SB","status":"done","verdict":"Ok","states":[{"x":"1"}]}` + "\n" + `{"summary":{"tests":1}}` + "\n",
		`{"name":"SB","status":"done","shard":"1/2","input":0}` + "\n" + `{"summary":{"tests":1,"shard":"1/2"}}` + "\n",
		`{"status":"error","file":"a/b.litmus"}` + "\n" + `{"summary":{}}` + "\n",
		`{"name":"SB","status":"done"}` + "\n" + `{"summary":{"tests":1,"shard":"1/1","inputs":1000000000000}}` + "\n",
		"States 3\n", "{", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		file := filepath.Join(t.TempDir(), "run.txt")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, order, err := readOutcomes(file)
		if err != nil {
			return
		}
		for _, n := range order {
			if out[n] == nil {
				t.Fatalf("%q in the order but not read", n)
			}
			describeOutcome(out[n])
		}
	})
}
