package cfront

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestClangFailure: a clang killed by a signal (clang-14 overflows its
// stack on an expression of 10^5 terms) is a limit of clang, said so;
// it was "clang rejects the program:" with nothing after it (robust7).
// A clang that exits with an error and no message says its status.
func TestClangFailure(t *testing.T) {
	for _, tc := range []struct {
		script string
		limit  bool
		want   string
	}{
		{"kill -SEGV $$", true, "p.c: clang crashed (segmentation fault) while it compiled the program: a limit of clang"},
		{"kill -ABRT $$", true, "p.c: clang crashed (aborted)"},
		{"echo 'p.c:1:1: error: expected' >&2; exit 1", false, "p.c: clang rejects the program:\np.c:1:1: error: expected"},
		{"exit 1", false, "p.c: clang rejects the program:\n(no message; clang exited with status 1)"},
	} {
		var errb strings.Builder
		cmd := exec.Command("sh", "-c", tc.script)
		cmd.Stderr = &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%s: %v", tc.script, err)
		}
		got := clangFailure("p.c", ee, []byte(errb.String()))
		var le *LimitError
		if errors.As(got, &le) != tc.limit || !strings.HasPrefix(got.Error(), tc.want) {
			t.Errorf("%s: %v (a limit: %v); want %q (a limit: %v)", tc.script, got, errors.As(got, &le), tc.want, tc.limit)
		}
	}
}
