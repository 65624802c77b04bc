package param

import (
	"testing"
	"time"
)

// verdictCase is a small system and the verdict the search must reach.
type verdictCase struct {
	name, src string
	want      Verdict
}

// verify loads src (a test's own system) and runs the search with a
// time limit; bad input or a wrong verdict fails the test.
func verify(t *testing.T, name, src string, want Verdict, opts Options) *Result {
	t.Helper()
	sys, err := Load(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if opts.Timeout == 0 {
		opts.Timeout = 30 * time.Second
	}
	res, err := Verify(t.Context(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != want {
		t.Fatalf("got %s, want %s", res.Verdict, want)
	}
	if res.Verdict == Unsafe {
		t.Logf("trace: %s", res.TraceString())
	}
	return res
}

// checkVerdicts runs each case as a subtest.
func checkVerdicts(t *testing.T, tests []verdictCase) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { verify(t, "c.cub", tc.src, tc.want, Options{}) })
	}
}
