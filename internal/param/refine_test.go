package param

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRefineUnsafe checks Verify's check of an UNSAFE answer on a weak
// system (refine.go): a trace that no finite instance confirms sends the
// search to its precise mode (Peterson with fences: a wrong UNSAFE
// before, issue #31), a confirmed one does not, and an answer that
// nothing can confirm is Unconfirmed. Every answer is cross-checked on
// the finite instances (selfcheck.go), and the precise mode is compared
// with the default one: it may only turn UNSAFE into SAFE.
func TestRefineUnsafe(t *testing.T) {
	tests := []struct {
		file    string
		want    Verdict
		refined bool // the precise mode ran
	}{
		{"peterson_fenced_s.cub", Safe, true},
		{"peterson_freeonly_s.cub", Safe, true},
		{"peterson_nofence_us.cub", Unsafe, false},
		{"peterson_turnonly_us.cub", Unsafe, false},
		{"real_unconfirmed.cub", Unconfirmed, true},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			sys, err := ParseFile(filepath.Join("testdata", "tsorefine", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(context.Background(), sys, Options{Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s, %d nodes; note: %s", res.Verdict, res.Visited, res.Note)
			if res.Verdict != tc.want {
				t.Fatalf("got %s, want %s", res.Verdict, tc.want)
			}
			if res.Precise != tc.refined {
				t.Errorf("precise mode ran: %v, want %v (note: %q)", res.Precise, tc.refined, res.Note)
			}
			if res.Verdict == Safe || res.Verdict == Unsafe {
				if cc := SelfCheck(context.Background(), sys, res, Options{}, 20000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
					t.Errorf("cross-check:\n%s", cc)
				}
			}
			// the precise mode alone agrees, and is never less precise
			p, err := search(context.Background(), sys, Options{Timeout: time.Minute, precise: true})
			if err != nil {
				t.Fatal(err)
			}
			d, err := search(context.Background(), sys, Options{Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict == Safe && p.Verdict != Safe {
				t.Errorf("default mode SAFE, precise mode %s", p.Verdict)
			}
			if want := tc.want; want == Safe && p.Verdict != Safe || want == Unsafe && p.Verdict != Unsafe {
				t.Errorf("precise mode alone: %s, want %s", p.Verdict, want)
			}
		})
	}
}

// TestPreciseCorpus runs the precise mode alone (refine.go) on every
// weak file of the corpus's top folder: each must get its expected
// verdict, and the SAFE ones a set closed under pre-images. lamport_N
// had no verdict in it (a chain of fresh processes, each reading from
// the next, grew the cubes' readers without end: see the precise mode
// in preimage.go); it is SAFE in 30 nodes, as in the default mode.
func TestPreciseCorpus(t *testing.T) {
	for name, want := range readExpected(t) {
		sys, err := ParseFile(filepath.Join(corpusDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !sys.Weak {
			continue
		}
		res, err := search(context.Background(), sys, Options{Timeout: time.Minute, precise: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.ToLower(res.Verdict.String()); got != want {
			t.Errorf("%s: the precise mode says %s in %d nodes, want %s", name, got, res.Visited, want)
			continue
		}
		res.Precise = true
		if res.Verdict == Safe {
			if why := closedUnder(t, sys, res); why != "" {
				t.Errorf("%s: SAFE but %s", name, why)
			}
		}
	}
}
