package enum

import (
	"fmt"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/ctxtest"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// wideTest is an X86 test of one candidate execution with many events:
// two threads of n stores each to locations of their own.
func wideTest(n int) string {
	var b strings.Builder
	b.WriteString("X86 wide\n{}\n P0 | P1 ;\n")
	for i := range n {
		fmt.Fprintf(&b, " MOV [a%d],$1 | MOV [b%d],$1 ;\n", i, i)
	}
	b.WriteString("exists (a0=1 /\\ b0=1)\n")
	return b.String()
}

// TestEvaluateLooks checks, without the clock, that the evaluation of a
// candidate of many events looks at the run's context inside the
// static relations (every 64 events) and between its dense phases, and
// that the run stops with a timeout, never a verdict, at whichever look
// first says the context is done (fix on big10k went past -timeout
// in these phases; robust5, robust6).
func TestEvaluateLooks(t *testing.T) {
	lt, err := litmus.Parse("wide.litmus", []byte(wideTest(300)))
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.LoadBuiltin("tso")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup(lt.Arch)
	opts := Options{TagNames: fe.Tags()}
	never := ctxtest.After(0)
	want := Run(never, lt, m, "tso", opts)
	if want.Status == result.Timeout || want.Err != nil {
		t.Fatalf("status %s (%v), want a verdict", want.Status, want.Err)
	}
	full := never.Looks()
	// Each look until the candidate is evaluated stops the run with a
	// timeout, at once (no further look: the static pass's stop is not
	// ignored). The looks after it (the witness: immediateCo) may not
	// change the verdict.
	const events = 4 * 300 // the stores and the initial writes
	verdictFrom := 0
	for k := 1; k <= full; k++ {
		c := ctxtest.After(k)
		r := Run(c, lt, m, "tso", opts)
		switch {
		case r.Status == result.Timeout && verdictFrom == 0:
			if c.Looks() != k {
				t.Errorf("done at look %d of %d: looked %d times", k, full, c.Looks())
			}
		case r.Status == want.Status && r.Err == nil:
			if verdictFrom == 0 {
				verdictFrom = k
			}
		default:
			t.Fatalf("done at look %d of %d: status %s (%v), want timeout or %s", k, full, r.Status, r.Err, want.Status)
		}
	}
	if verdictFrom != 0 && verdictFrom <= events/64 {
		t.Errorf("a verdict from look %d on: the static pass over %d events alone should look %d times", verdictFrom, events, events/64)
	}
}
