// Package fuzzlimit holds the time limit that the parsers' fuzz targets
// put on each input: a parser must answer any input within a second.
package fuzzlimit

import (
	"flag"
	"testing"
	"time"
)

// Within runs f and, while fuzzing, fails t when f takes longer than limit
// twice in a row (once may be the machine's load: a pause of the
// collector or of the scheduler, not the input). Plain test runs never
// assert times.
func Within(t testing.TB, limit time.Duration, f func()) {
	t.Helper()
	fl := flag.Lookup("test.fuzz")
	fuzzing := fl != nil && fl.Value.String() != ""
	start := time.Now()
	f()
	if d := time.Since(start); fuzzing && d > limit {
		start = time.Now()
		f()
		if d2 := time.Since(start); d2 > limit {
			t.Fatalf("took %v, then %v again (limit %v)", d, d2, limit)
		}
	}
}
