package event

import (
	"fmt"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// fmtLabel is Label as it was written with fmt, the reference of
// TestLabelByHand.
func fmtLabel(e *Event) string {
	name := eventName(e.ID)
	switch e.Kind {
	case Read, Write:
		t := ""
		for _, tag := range e.Tags {
			if tag != "IW" {
				t += "." + tag
			}
		}
		return fmt.Sprintf("%s: %s%s[%s]=%s", name, e.Kind, t, e.Loc, e.Value)
	case Fence:
		return fmt.Sprintf("%s: F[%s]", name, strings.Join(e.Tags, "."))
	case Located:
		return fmt.Sprintf("%s: %s[%s]", name, strings.Join(e.Tags, "."), e.Loc)
	}
	return name + ": B"
}

// TestLabelByHand compares Label with the fmt formula it replaced, on
// every kind of event, tags and values.
func TestLabelByHand(t *testing.T) {
	events := []Event{
		{ID: 0, Kind: Write, Loc: "x", Tags: []string{"IW"}},
		{ID: 3, Kind: Read, Loc: "y", Tags: []string{"X", "A"}, Value: prog.IntValue(-7)},
		{ID: 27, Kind: Write, Loc: "z", Value: prog.AddrValue("x")},
		{ID: 700, Kind: Write, Loc: "a+1", Value: prog.Value{Loc: "x", Int: 2}},
		{ID: 4, Kind: Fence, Tags: []string{"MFENCE"}},
		{ID: 5, Kind: Fence, Tags: []string{"SYNC", "LWSYNC"}},
		{ID: 6, Kind: Fence},
		{ID: 7, Kind: Located, Loc: "l", Tags: []string{"LKW", "Acq"}},
		{ID: 8, Kind: Branch},
	}
	for i := range events {
		if got, want := events[i].Label(), fmtLabel(&events[i]); got != want {
			t.Errorf("event %d: %q, want %q", i, got, want)
		}
	}
}
