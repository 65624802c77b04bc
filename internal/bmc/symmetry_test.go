package bmc

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// TestSymmetricCond checks which questions symmetry breaking takes: a
// condition the same after swapping the group's threads, and no other.
func TestSymmetricCond(t *testing.T) {
	fail := func(th int) spec.Cond {
		return spec.Atom{Ref: spec.Ref{Thread: th, Name: "%fail"}, Neq: true}
	}
	reg := func(th int, v int64) spec.Cond {
		return spec.Atom{Ref: spec.Ref{Thread: th, Name: "r"}, Val: prog.IntValue(v)}
	}
	loc := func(name string, v int64) spec.Cond {
		return spec.Atom{Ref: spec.Ref{Thread: -1, Name: name}, Val: prog.IntValue(v)}
	}
	or := func(cs ...spec.Cond) spec.Cond {
		c := cs[0]
		for _, d := range cs[1:] {
			c = spec.Or{L: c, R: d}
		}
		return c
	}
	own := func(l string) bool { return strings.HasPrefix(l, "%ret.") }
	for _, c := range []struct {
		name string
		cond spec.Cond
		want bool
	}{
		{"every thread's failure", or(fail(0), fail(1), fail(2), fail(3)), true},
		{"in another order", or(fail(3), fail(0), fail(2), fail(1)), true},
		{"one copy left out", or(fail(0), fail(1), fail(2)), false},
		{"a shared location", or(loc("x", 1), fail(1), fail(2), fail(3)), true},
		{"one copy's register", reg(2, 1), false},
		{"every copy's register", spec.And{L: spec.And{L: reg(1, 1), R: reg(2, 1)}, R: reg(3, 1)}, true},
		{"registers with different values", spec.And{L: spec.And{L: reg(1, 1), R: reg(2, 2)}, R: reg(3, 1)}, false},
		{"a copy's own location", or(loc("%ret.1", 0), loc("%ret.2", 0), loc("%ret.3", 0)), false},
		{"a nested mixture", or(spec.And{L: reg(1, 1), R: reg(2, 1)}, reg(3, 1)), false},
		{"a negation", spec.Not{C: fail(1)}, false},
	} {
		e := &encoding{t: &spec.Test{Cond: c.cond}, opts: Options{SymOwn: own}}
		if got := e.symmetricCond([]int{1, 2, 3}); got != c.want {
			t.Errorf("%s: %s: symmetric %v, want %v", c.name, spec.FormatCond(c.cond), got, c.want)
		}
	}
}
