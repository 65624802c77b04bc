package litmus_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestLISALitmus runs the LISA tests of testdata/lisa with both engines
// under the Linux-kernel memory model (the kernel's files in the corpus): fences, release, address and control dependencies, and the two
// forms of rmw (increment, exchange).
func TestLISALitmus(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "cat", "linux")
	ms := driver.Models{Bell: filepath.Join(dir, "linux-kernel.bell")}
	cases := []engineCase{
		{file: "MP+wmb+rmb", ok: false, states: 3},
		{file: "SB", ok: true, states: 4},
		{file: "MP+rel+addr", ok: false, states: 3},
		{file: "LB+ctrl", ok: false, states: 1},
		{file: "RMW+inc", ok: false, states: 1},
		{file: "SB+xchg", ok: false, states: 3},
	}
	runEngineCasesIn(t, ms, filepath.Join(dir, "linux-kernel.cat"), "LISA", "lisa", 60*time.Second, cases)
}

// TestLISAErrors checks that LISA's unsupported forms are refused by
// name and bad cells are positioned errors.
func TestLISAErrors(t *testing.T) {
	cases := []struct{ cell, want string }{
		{"r[foo] r1 x", `unsupported LISA annotation "foo"`},
		{"f[mb] {a} {b}", "label sets"},
		{"call[f]", "unsupported LISA instruction call"},
		{"r[once] %p x", "symbolic register"},
		{"mov r1 (sub r1 1)", "one of add, xor, and, eq, neq"},
		{"w[once] x", "an integer"},
		{"frob r1", "unknown LISA instruction"},
		{"b[] r1", "a label"},
	}
	for _, tc := range cases {
		src := "LISA T\n{ x = 0; }\n P0 ;\n " + tc.cell + " ;\nexists (x=0)\n"
		_, err := litmus.Parse("t.litmus", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error with %q", tc.cell, err, tc.want)
		}
	}
}
