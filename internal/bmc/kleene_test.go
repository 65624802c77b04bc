package bmc_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestKleeneRecursion: recursive definitions that are not monotone get
// herd7's meaning (iteration from empty, the bindings in order) under
// the SMT engine as under the explicit engine; one whose iteration does
// not settle is never given a verdict (the explicit engine stops, the
// SMT engine reports its limit).
func TestKleeneRecursion(t *testing.T) {
	lt, err := litmus.Parse("SB.litmus", []byte(smallTests[0].src))
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("X86")
	for _, tc := range []struct {
		name, src string
		settles   bool
	}{
		// The kernel bell's shape over rf: unmatched reads, matched in
		// order, with a difference on the group's own names.
		{"matching over rf", `let rec free = R \ range(m)
and m = m | (([W] ; rf ; [free]) \ (rf ; [range(m)]))
flag ~empty R \ range(m) as unmatched
flag ~empty m & ext as cross`, true},
		// b depends on the a of the pass (herd7's order of the
		// bindings), by a difference.
		{"a difference on an earlier binding", `let rec b = ((W * R) & loc) \ a
and a = rf
flag ~empty b & ext as other-write
acyclic po | rf | co | fr`, true},
		{"oscillates over two bindings", `let rec a = (W * R) \ b
and b = a & rf
flag ~empty b as b`, false},
		{"oscillates, static", `let rec x = (W * W) \ x
flag ~empty x as x`, false},
		{"oscillates with rf", `let rec x = rf \ x
flag ~empty x as x`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := loadModel(t, tc.src)
			a := enum.Run(context.Background(), lt, m, "m", enum.Options{TagNames: fe.Tags()})
			b := bmc.Run(context.Background(), lt, m, "m", bmc.Options{TagNames: fe.Tags()})
			if !tc.settles {
				if a.Status == result.Done || b.Status == result.Done {
					t.Fatalf("a verdict on a definition that does not settle: enum %s, smt %s %v", a.Status, b.Status, b.Err)
				}
				if tc.name == "oscillates with rf" && !errors.Is(b.Err, result.ErrLimit) {
					t.Errorf("smt: %v, want a limit of the engine", b.Err)
				}
				return
			}
			if a.Status != result.Done || b.Status != result.Done {
				t.Fatalf("enum %s %v, smt %s %v", a.Status, a.Err, b.Status, b.Err)
			}
			if stateSet(a) != stateSet(b) || fmt.Sprint(a.Flags) != fmt.Sprint(b.Flags) {
				t.Errorf("enum {%s} %v, smt {%s} %v", stateSet(a), a.Flags, stateSet(b), b.Flags)
			}
		})
	}
}
