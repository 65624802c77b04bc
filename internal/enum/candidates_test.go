package enum

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestTooManyCandidates checks that a test whose reads have more than
// maxCandidates candidate writes in all is refused with a limit (not a
// verdict, not the memory limit), and that a cancelled context stops the
// same run as a timeout, not a verdict.
func TestTooManyCandidates(t *testing.T) {
	const n = 4200 // n loads × (n stores + the initial write) > maxCandidates
	if n*(n+1) <= maxCandidates {
		t.Fatalf("%d×%d does not pass maxCandidates %d", n, n+1, maxCandidates)
	}
	src := "X86 many\n{ x=0; }\n P0 | P1 ;\n" + strings.Repeat(" MOV [x],$1 | MOV EAX,[x] ;\n", n) + "exists (1:EAX=1)\n"
	lt, err := litmus.Parse("many.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.LoadBuiltin("tso")
	if err != nil {
		t.Fatal(err)
	}
	r := Run(context.Background(), lt, m, "tso", Options{})
	if r.Status == result.Done || !errors.Is(r.Err, result.ErrLimit) || !strings.Contains(r.Err.Error(), "candidate writes") {
		t.Errorf("status %s, error %v; want the candidates limit", r.Status, r.Err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := Run(ctx, lt, m, "tso", Options{}); r.Status == result.Done {
		t.Errorf("cancelled: status %s, want no verdict", r.Status)
	}
}
