package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// herd7's spellings of the litmus command's options, and -explain.
func TestHerdFlags(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "tests")
	os.MkdirAll(sub, 0o755)
	src, _ := os.ReadFile("../../examples/litmus/SB+mfences.litmus")
	os.WriteFile(filepath.Join(sub, "SB+mfences.litmus"), src, 0o644)
	os.WriteFile(filepath.Join(dir, "all"), []byte("# index\ntests/SB+mfences.litmus\n\n@more\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "more"), []byte("../../../"+"nowhere/x.litmus\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "one"), []byte("tests/SB+mfences.litmus\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "loop"), []byte("@loop\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "@idx"), []byte("tests/SB+mfences.litmus\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "loop.litmus"), []byte("X86 loop\n{ x=0; }\n P0          | P1         ;\n L0:         | MOV [x],1  ;\n MOV EAX,[x] |            ;\n CMP EAX,0   |            ;\n JE L0       |            ;\nexists (0:EAX=1)\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "lib.cat"), []byte("\"SC\"\nacyclic po | rf | co | fr as sc\n"), 0o644)
	sbf := "../../examples/litmus/SB+mfences.litmus"
	out := filepath.Join(dir, "dots")
	tests := []struct {
		name  string
		args  []string
		code  int
		want  []string
		files []string // under dir, with their content
	}{
		{"@list", []string{"litmus", "@" + filepath.Join(dir, "one")}, 0, []string{"Test SB+mfences Allowed", "Observation SB+mfences Never 0 3"}, nil},
		{"@list naming a missing file", []string{"litmus", "@" + filepath.Join(dir, "all")}, 2, nil, nil},
		{"@list including itself", []string{"litmus", "@" + filepath.Join(dir, "loop")}, 2, nil, nil},
		{"timeout in seconds", []string{"litmus", "-timeout", "5", sbf}, 0, []string{"No"}, nil},
		{"timeout not a number", []string{"litmus", "-timeout", "five", sbf}, 2, nil, nil},
		{"skipchecks", []string{"litmus", "-skipchecks", "tso", sbf}, 0, []string{"Ok", "Positive: 1 Negative: 3"}, nil},
		{"through all", []string{"litmus", "-through", "all", sbf}, 0, []string{"Ok", "States 4"}, nil},
		{"through invalid", []string{"litmus", "-through", "invalid", sbf}, 0, []string{"Ok", "States 4"}, nil},
		{"skipchecks repeated", []string{"litmus", "-skipchecks", "uniproc", "-skipchecks", "tso", sbf}, 0, []string{"Ok"}, nil},
		{"-hexa", []string{"litmus", "-hexa", sbf}, 0, []string{"0:EAX=0x0; 1:EAX=0x1;", "Condition exists (0:EAX=0x0 /\\ 1:EAX=0x0)"}, nil},
		{"-initwrites true, herd7's default", []string{"litmus", "-initwrites", "true", sbf}, 0, []string{"No"}, nil},
		{"-initwrites false is refused", []string{"litmus", "-initwrites", "false", sbf}, 2, nil, nil},
		{"-initwrites bad", []string{"litmus", "-initwrites", "maybe", sbf}, 2, nil, nil},
		{"through smt", []string{"litmus", "-engine", "smt", "-through", "all", sbf}, 2, nil, nil},
		{"show without -o", []string{"litmus", "-show", "all", sbf}, 0, []string{"Observation SB+mfences Never 0 3"}, nil},
		{"an index named with its @", []string{"litmus", filepath.Join(dir, "@idx")}, 0, []string{"Test SB+mfences Allowed"}, nil},
		{"-q prints the results", []string{"litmus", "-q", sbf}, 0, []string{"Test SB+mfences Allowed", "Observation SB+mfences Never 0 3"}, nil},
		{"-unroll 0: no iteration", []string{"litmus", "-engine", "enum", "-unroll", "0", filepath.Join(dir, "loop.litmus")}, 0, []string{"Loop Ok", "Observation loop Always 1 0"}, nil},
		{"-unroll 1", []string{"litmus", "-engine", "enum", "-unroll", "1", filepath.Join(dir, "loop.litmus")}, 0, []string{"Observation loop Always 2 0"}, nil},
		{"-o alone: herd's -show none, an empty file", []string{"litmus", "-o", filepath.Join(dir, "none"), sbf}, 0, nil, []string{"none/SB+mfences.dot", "!digraph"}},
		{"-nshow stops the run", []string{"litmus", "-o", filepath.Join(dir, "one"+"shown"), "-show", "all", "-nshow", "1", sbf}, 0, []string{"States 1", "Positive: 0 Negative: 1"}, []string{"oneshown/SB+mfences.dot", "execution 1 of", "!execution 2 of"}},
		{"-nshow stops the run without -o too (herd7 counts the executions -show selects)", []string{"litmus", "-show", "all", "-nshow", "1", sbf}, 0, []string{"States 1", "Positive: 0 Negative: 1"}, nil},
		{"-nshow with -show under the SMT engine", []string{"litmus", "-engine", "smt", "-show", "all", "-nshow", "1", sbf}, 2, nil, nil},
		{"show bad", []string{"litmus", "-show", "some", "-o", out, sbf}, 2, nil, nil},
		{"o and show", []string{"litmus", "-o", out, "-show", "neg", "-nshow", "2", "-showevents", "mem", sbf}, 0, nil,
			[]string{"dots/SB+mfences.dot", "execution 1 of SB+mfences", "execution 2 of SB+mfences", "!execution 3 of", "!F[MFENCE]"}},
		{"herd7 library name", []string{"litmus", "-model", "x86tso.cat", sbf}, 0, []string{"No"}, nil},
		{"-cat", []string{"litmus", "-cat", "sc.cat", "../../examples/litmus/SB.litmus"}, 0, []string{"No"}, nil},
		{"-cat and -model differ", []string{"litmus", "-cat", "sc.cat", "-model", "tso", sbf}, 2, nil, nil},
		{"-set-libdir", []string{"litmus", "-set-libdir", dir, "-model", "lib.cat", "../../examples/litmus/SB.litmus"}, 0, []string{"No"}, nil},
		{"unknown library name", []string{"litmus", "-model", "nosuch.cat", sbf}, 2, nil, nil},
		{"explain forbidden", []string{"litmus", "-explain", sbf}, 0,
			[]string{"Explain SB+mfences: the outcome is forbidden", "fails tso (acyclic ghb)", "= mfence; fr; mfence; fr"}, nil},
		{"explain allowed", []string{"litmus", "-explain", "../../examples/litmus/SB.litmus"}, 0,
			[]string{"Explain SB: the outcome is allowed", "-fr->"}, nil},
		{"check explain", []string{"check", "-explain", "-model", "tso", "../../examples/asm/mp.litmus"}, 3, // BOUND: a spin loop
			[]string{"MP: BOUND", "fails tso (acyclic ghb)", "= ppo; rfe; ppo; fr"}, nil},
		{"check explain, explicit engine", []string{"check", "-explain", "-engine", "enum", "-model", "tso", "../../examples/asm/mp.litmus"}, 3,
			[]string{"= ppo; rfe; ppo; fr"}, nil},
		{"explain witness", []string{"litmus", "-explain", "-witness", filepath.Join(dir, "w.dot"), sbf}, 0, nil,
			[]string{"w.dot", `[label="mfence", color=crimson`}},
	}
	for _, tc := range tests {
		var o, e bytes.Buffer
		code := dispatch(tc.args, &o, &e)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (stderr %s)", tc.name, code, tc.code, e.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(o.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, w, o.String())
			}
		}
		if len(tc.files) > 0 {
			data, err := os.ReadFile(filepath.Join(dir, tc.files[0]))
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
			for _, w := range tc.files[1:] {
				if neg := strings.HasPrefix(w, "!"); neg == strings.Contains(string(data), strings.TrimPrefix(w, "!")) {
					t.Errorf("%s: %s: contains %q is %v:\n%s", tc.name, tc.files[0], strings.TrimPrefix(w, "!"), !neg, data)
				}
			}
		}
	}
}
