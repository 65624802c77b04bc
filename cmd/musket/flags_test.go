package main

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		args     []string
		operands []string
		model    string
		quiet    bool
	}{
		{[]string{"a.litmus"}, []string{"a.litmus"}, "", false},
		{[]string{"-model", "sc", "a", "b"}, []string{"a", "b"}, "sc", false},
		{[]string{"a", "-model", "sc", "b", "-q"}, []string{"a", "b"}, "sc", true},
		{[]string{"a", "--model=tso", "b"}, []string{"a", "b"}, "tso", false},
		{[]string{"-q", "--", "-model", "x"}, []string{"-model", "x"}, "", true},
		{[]string{"a", "--", "-q"}, []string{"a", "-q"}, "", false},
		{nil, nil, "", false},
	}
	for _, tc := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		model := fs.String("model", "", "")
		quiet := fs.Bool("q", false, "")
		got, err := parseInterleaved(fs, tc.args)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !slices.Equal(got, tc.operands) || *model != tc.model || *quiet != tc.quiet {
			t.Errorf("%q: operands %q model %q q %v, want %q %q %v", tc.args, got, *model, *quiet, tc.operands, tc.model, tc.quiet)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := parseInterleaved(fs, []string{"a", "-nosuch"}); err == nil {
		t.Error("an unknown flag after an operand is not an error")
	}
}
