package cfront

import (
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestFailureText checks how a failure is said: an assertion "fails", a
// memory error is named as it is.
func TestFailureText(t *testing.T) {
	pos := prog.Pos{File: "a.c", Line: 7}
	for _, tc := range []struct{ text, want string }{
		{"assertion x == 1", "a.c:7: assertion x == 1 fails"},
		{"use after free", "a.c:7: use after free"},
		{"read of uninitialised heap memory", "a.c:7: read of uninitialised heap memory"},
		{"invalid memory access", "a.c:7: invalid memory access"},
		{"free: double free", "a.c:7: free: double free"},
		{"free of memory that malloc did not allocate", "a.c:7: free of memory that malloc did not allocate"},
	} {
		if got := (Assertion{Pos: pos, Text: tc.text}).Failure(); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}
