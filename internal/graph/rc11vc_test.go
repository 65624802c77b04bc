package graph

import (
	"testing"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// TestRC11VC decides message passing by hand-built graphs with the
// vector-clock check (graphs without SC events), and compares it with
// the matrix check on each: a release write read by an acquire read
// orders the plain write before it, so the plain read after the acquire
// must not read the initial value; with a relaxed flag it may.
func TestRC11VC(t *testing.T) {
	for _, c := range []struct {
		name           string
		wTag, rTag     string
		dataFromWriter bool
		want           bool
	}{
		{"rel-acq, data read from init", "REL", "ACQ", false, false},
		{"rel-acq, data read from writer", "REL", "ACQ", true, true},
		{"rlx flag, data read from init", "RLX", "RLX", false, true},
		{"rel-rlx, data read from init", "REL", "RLX", false, true},
	} {
		g := newGraph(2)
		ix := g.initWrite("x", prog.IntValue(0), []string{"IW"})
		iy := g.initWrite("y", prog.IntValue(0), []string{"IW"})
		mk := func(k event.Kind, loc string, v int64, tags ...string) ev {
			return ev{kind: k, loc: loc, val: prog.IntValue(v), tags: tags, rf: -1, mask: tagMask(tags)}
		}
		wx := g.add(0, mk(event.Write, "x", 1, "NA"))
		g.placeCo(wx, 1)
		wy := g.add(0, mk(event.Write, "y", 1, c.wTag, "A"))
		g.placeCo(wy, 1)
		ry := g.add(1, mk(event.Read, "y", 0, c.rTag, "A"))
		g.setRf(ry, wy)
		rx := g.add(1, mk(event.Read, "x", 0, "NA"))
		if c.dataFromWriter {
			g.setRf(rx, wx)
		} else {
			g.setRf(rx, ix)
		}
		_ = iy
		var chk checker
		got := chk.consistent(nativeRC11, g, nil)
		if !chk.vcMode && got {
			t.Errorf("%s: the vector-clock check was not used", c.name)
		}
		if got != c.want {
			t.Errorf("%s: consistent = %v, want %v", c.name, got, c.want)
		}
		var m checker
		m.prepare(g)
		if mat := m.rc11(nil); mat != got {
			t.Errorf("%s: vector clocks say %v, the matrices %v", c.name, got, mat)
		}
	}
}
