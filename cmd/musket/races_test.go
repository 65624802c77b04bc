package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/result"
)

// TestCheckRaces runs musket check -races on racy and race-free C
// litmus tests under each engine: a race is a violation (exit 1) with a
// witness; without -races the flag is only listed.
func TestCheckRaces(t *testing.T) {
	dir := filepath.Join("testdata", "races")
	tests := []struct {
		file   string
		args   []string
		code   int
		out    []string
		notOut []string
	}{
		{file: "counter-racy", args: []string{"-races", "-model", "rc11"}, code: 1, out: []string{"counter-racy: UNREACHABLE", "DATA RACE: some execution raises data-race", "witness: an execution with the data race"}},
		{file: "counter-racy", args: []string{"-races", "-model", "imm"}, code: 1, out: []string{"DATA RACE"}},
		{file: "counter-racy", args: []string{"-races"}, code: 1, out: []string{"model c11", "DATA RACE"}},
		{file: "counter-racy", args: []string{"-model", "rc11"}, code: 0, out: []string{"flags raised: data-race"}, notOut: []string{"DATA RACE"}},
		{file: "counter-atomic", args: []string{"-races", "-model", "rc11"}, code: 0, notOut: []string{"DATA RACE", "flags raised"}},
		{file: "trylock-racy", args: []string{"-races", "-model", "rc11"}, code: 1, out: []string{"trylock-racy: UNREACHABLE", "DATA RACE"}},
		{file: "trylock", args: []string{"-races", "-model", "rc11"}, code: 0, notOut: []string{"DATA RACE"}},
		{file: "trylock", args: []string{"-races", "-model", "tso"}, code: 2},
	}
	for _, tc := range tests {
		for _, engine := range []string{"enum", "smt", "both"} {
			name := tc.file + " " + strings.Join(tc.args, " ") + " -engine " + engine
			w := filepath.Join(t.TempDir(), "w.dot")
			args := append(append([]string{"check", "-engine", engine, "-witness", w}, tc.args...), filepath.Join(dir, tc.file+".litmus"))
			var out, errb bytes.Buffer
			code := dispatch(args, &out, &errb)
			if code != tc.code {
				t.Errorf("%s: exit %d, want %d\n%s%s", name, code, tc.code, out.String(), errb.String())
				continue
			}
			for _, s := range tc.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("%s: stdout lacks %q:\n%s", name, s, out.String())
				}
			}
			for _, s := range tc.notOut {
				if strings.Contains(out.String(), s) {
					t.Errorf("%s: stdout has %q:\n%s", name, s, out.String())
				}
			}
			// A race under -races has a witness: an execution with a
			// plain access.
			if tc.code == 1 {
				dot, err := os.ReadFile(w)
				if err != nil || !strings.Contains(string(dot), ".NA[") {
					t.Errorf("%s: witness %q (%v), want an execution with a plain access", name, dot, err)
				}
			}
		}
	}
}

// TestCheckBothFlags: under -engine both, engines that raise different
// flags disagree (exit 4), as they do on a verdict.
func TestCheckBothFlags(t *testing.T) {
	defer func(old func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error)) {
		checkRunner = old
	}(checkRunner)
	checkRunner = func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error) {
		r := &result.Result{Name: "P", Status: result.Done}
		if engine == "smt" {
			r.Flags = []string{"data-race"}
		}
		return &bmc.ProgramResult{Name: "P", Target: "C", Model: "rc11", Condition: "exists (x=1)", Result: r, Report: &bmc.Report{}}, nil
	}
	var out, errb bytes.Buffer
	if code := dispatch([]string{"check", "-engine", "both", "-model", "rc11", "a.pts"}, &out, &errb); code != 4 {
		t.Errorf("exit %d, want 4\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), "enum raises flags [], smt [data-race]") {
		t.Errorf("stderr %q", errb.String())
	}
}
