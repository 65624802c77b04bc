package porthos

import (
	"context"
	"github.com/musket-verify/musket/internal/spec"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/result"
)

// stateCond is the condition "the final state is st".
func stateCond(obs []spec.Ref, st result.State) spec.Cond {
	var c spec.Cond = spec.Bool{V: true}
	for i, ref := range obs {
		c = spec.And{L: c, R: spec.Atom{Ref: ref, Val: st[i]}}
	}
	return c
}

// TestLamportCrossCheck settles the cells of Table III the paper timed out
// on (Lamport under Power and ARM): inclusion in TSO fails. The explicit
// engine does not finish on Lamport within minutes (herd timed out too),
// so the missing state is checked by the SMT engine's ordinary
// reachability question (bmc.Run, which the bmc package checks against the
// explicit engine), independent of the oracle, of the inconsistency
// encoding and of the least fixpoints: the compiled program reaches the
// state under the target model and not under TSO.
func TestLamportCrossCheck(t *testing.T) {
	path := filepath.Join(corpus, "mutex", "pts", "Lamport.pts")
	for _, target := range []string{"power", "armv7"} {
		t.Run(target, func(t *testing.T) {
			r := compare(t, path, "tso", target, Options{Bound: 2})
			if r.Holds {
				t.Fatalf("%s ⊆ tso holds; want a missing state", target)
			}
			src, tgt := side(t, "tso"), side(t, target)
			p, err := Load(path, &src, &tgt, 2)
			if err != nil {
				t.Fatal(err)
			}
			reach := func(test *spec.Test, s Side, tags []string) bool {
				q := *test
				q.Quant = spec.Exists
				q.Cond = stateCond(r.Observed, r.Missing[0])
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				res := bmc.Run(ctx, &q, s.Model, s.ModelName, bmc.Options{TagNames: tags, VerdictOnly: true, PositiveOnly: true})
				if res.Status != result.Done {
					t.Fatalf("bmc under %s: %s %v", s.ModelName, res.Status, res.Err)
				}
				return res.Positive > 0
			}
			if !reach(p.Target, tgt, p.TargetTags) {
				t.Errorf("missing state %v is not reachable under %s", r.Missing[0], target)
			}
			if reach(p.Source, src, p.SourceTags) {
				t.Errorf("missing state %v is reachable under tso", r.Missing[0])
			}
		})
	}
}
