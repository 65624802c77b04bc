package fix

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestNewCBadInput: a C program with a target Musket does not compile
// for, or without a bound, is refused with the reason and, for the
// target, the targets there are.
func TestNewCBadInput(t *testing.T) {
	src, err := os.ReadFile("testdata/mp-race.c")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Target: "tso", Bound: 1}, "want one of [aarch64 armv7 power riscv x86]"},
		{Options{Target: "x86"}, "needs -bound 1 or more"},
	} {
		_, err := NewC(context.Background(), "testdata/mp-race.c", src, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opts, err, c.want)
		}
	}
}
