package fix

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMinimal: the self-check finds a change that can be left out and a
// change that can be weakened, and nothing in a cheapest repair.
func TestMinimal(t *testing.T) {
	path := filepath.Join("testdata", "MP.ppc.litmus")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(path, src, Options{Bound: 2})
	if err != nil {
		t.Fatal(err)
	}
	cands := s.Candidates()
	find := func(name string) int {
		for i, c := range cands {
			if change(c) == name {
				return i
			}
		}
		t.Fatalf("no candidate %q", name)
		return -1
	}
	for _, tc := range []struct {
		fix      []string
		unneeded string // the changes Unneeded lists, by change()
		weaker   string // the swaps, "from > to"
		cheaper  int    // of which to a cheaper candidate
	}{
		// The cheapest repair: nothing to take out or weaken.
		{fix: []string{"P0 after 9 lwsync", "P1 line 9 addr"}},
		// sync where lwsync does, and lwsync where the dependency does
		// (the dependency is of another group: no swap).
		{fix: []string{"P0 after 9 sync", "P1 line 9 addr"}, weaker: "P0 after 9 sync > P0 after 9 lwsync", cheaper: 1},
		{fix: []string{"P0 after 9 lwsync", "P1 after 8 sync"}, weaker: "P1 after 8 sync > P1 after 8 lwsync; P1 after 8 sync > P1 after 8 ctrlisync", cheaper: 2},
		// A change more than needed.
		{fix: []string{"P0 after 9 lwsync", "P1 after 8 lwsync", "P1 line 9 addr"}, unneeded: "P1 after 8 lwsync; P1 line 9 addr"},
	} {
		var fix []int
		for _, n := range tc.fix {
			fix = append(fix, find(n))
		}
		sl, err := Minimal(context.Background(), s, fix)
		if err != nil {
			t.Fatal(err)
		}
		var un, we []string
		for _, c := range sl.Unneeded {
			un = append(un, change(cands[c]))
		}
		for _, w := range sl.Weaker {
			we = append(we, change(cands[w.Change])+" > "+change(cands[w.Weaker]))
		}
		if got := strings.Join(un, "; "); got != tc.unneeded {
			t.Errorf("%v: unneeded %q, want %q", tc.fix, got, tc.unneeded)
		}
		if got := strings.Join(we, "; "); got != tc.weaker {
			t.Errorf("%v: weaker %q, want %q", tc.fix, got, tc.weaker)
		}
		if got := len(sl.Cheaper(cands)); got != tc.cheaper {
			t.Errorf("%v: %d cheaper swaps, want %d", tc.fix, got, tc.cheaper)
		}
	}
}
