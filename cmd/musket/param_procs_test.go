package main

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"testing"
)

// TestParamProcs: a param run from the command line starts on one P and
// gives the others back at its end; a run of the server (a writer that
// carries a context) and a GOMAXPROCS set by the user are left alone.
func TestParamProcs(t *testing.T) {
	orig := runtime.GOMAXPROCS(0)
	userSet := os.Getenv("GOMAXPROCS") != ""
	tests := []struct {
		name   string
		stdout interface{ Write([]byte) (int, error) }
		one    bool // runs on one P
	}{
		{"command line", &bytes.Buffer{}, orig > 1 && !userSet},
		{"server", ctxWriter{&bytes.Buffer{}, context.Background()}, false},
	}
	for _, tc := range tests {
		restore := paramProcs(tc.stdout)
		during := runtime.GOMAXPROCS(0)
		restore()
		// a second call (runParam gives the Ps back early for
		// -parallel-sample, and again when it returns) changes nothing
		restore()
		if after := runtime.GOMAXPROCS(0); after != orig {
			t.Errorf("%s: GOMAXPROCS %d after the run, want %d", tc.name, after, orig)
		}
		if want := map[bool]int{true: 1, false: orig}[tc.one]; during != want {
			t.Errorf("%s: GOMAXPROCS %d during the run, want %d", tc.name, during, want)
		}
	}
}
