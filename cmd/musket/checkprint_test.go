package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/result"
)

// TestPrintStoppedBeforeRead: a litmus test stopped by -timeout before it
// was read (bmc.CheckLitmus: no target, model nor condition) prints as a
// time-out, in text, with -stats and in JSON.
func TestPrintStoppedBeforeRead(t *testing.T) {
	for _, o := range []checkOutput{
		{engine: "smt"}, {engine: "smt", stats: true}, {engine: "enum"}, {engine: "smt", asJSON: true},
	} {
		var out, errb bytes.Buffer
		var st status
		o.path, o.verdict = "big4.litmus", "TIMEOUT"
		o.pr = &bmc.ProgramResult{Name: "big4", Bound: 2, Report: &bmc.Report{}, Result: &result.Result{File: "big4.litmus", Name: "big4", Status: result.Timeout}}
		printCheckResult(&out, &errb, o, &st)
		if !strings.Contains(out.String(), "TIMEOUT") || strings.Contains(out.String(), "target ,") {
			t.Errorf("%+v: %q", o, out.String())
		}
	}
}
