package event

import (
	"context"
	"errors"
	"testing"

	"github.com/musket-verify/musket/internal/ctxtest"
)

// TestStaticContext checks that the pass over all pairs of events looks
// at its context every 64 events, stops at the first look that says the
// context is done, and, when never told to stop, gives Static's sets and
// relations (the clock is never read: the context counts its looks).
func TestStaticContext(t *testing.T) {
	g := benchGraph(4, 4, 250) // 1004 events: 16 looks
	want := g.Static()
	never := ctxtest.After(0)
	got, err := g.StaticContext(never)
	if err != nil {
		t.Fatal(err)
	}
	if rows := (g.N() + 63) / 64; never.Looks() != rows {
		t.Errorf("%d looks at the context over %d events, want %d", never.Looks(), g.N(), rows)
	}
	if setsText(got) != setsText(want) {
		t.Error("StaticContext's sets differ from Static's")
	}
	for name, r := range want.Rels {
		if !got.Rels[name].Equal(r) {
			t.Errorf("StaticContext's %s differs from Static's", name)
		}
	}
	for _, k := range []int{1, 2, 9, 16} {
		c := ctxtest.After(k)
		s, err := g.StaticContext(c)
		if s != nil || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("done at look %d: got %v, %v; want no relations and the deadline", k, s != nil, err)
		}
		if c.Looks() != k {
			t.Errorf("done at look %d: looked %d times", k, c.Looks())
		}
	}
}
