package cat

import (
	"strings"
	"testing"
)

// TestDeepCross: five threads of two writes each to one location have
// 10!/2^5 = 113400 coherence orders (a lock taken by five threads of
// the Linux kernel's lock.cat has as many); cross over them must not
// depend on the host stack (Musket's cross.cat leaves cross to a
// built-in).
func TestDeepCross(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	te := testExec{locs: []string{"x"},
		threads: [][]evSpec{{wx, wx}, {wx, wx}, {wx, wx}, {wx, wx}, {wx, wx}}}
	b := build(t, te)
	m, err := modelFrom(t, "T\ninclude \"cross.cat\"\nwith co from generate_cos(po-loc & (W * W) | (IW * (W \\ IW)))\n", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = m.Check(b.withoutCo(), CheckOptions{}, func(o Outcome) bool { n++; return true })
	if err != nil {
		t.Fatal(err)
	}
	if n != 113400 {
		t.Errorf("%d coherence orders, want 113400", n)
	}
}

// TestCrossBuiltin: cross on small sets, as herd7's cross.cat defines it
// (one outcome per union).
func TestCrossBuiltin(t *testing.T) {
	x := sbExec(t).x
	for _, tc := range []struct {
		arg  string
		want int
	}{
		{"{}", 1}, {"{{po, rf}, {0}}", 2}, {"{{po, rf}, {po, fr}}", 4}, {"{{po}, {}}", 0}, {"{{po, 0}, {po}}", 1},
	} {
		m := mustModel(t, "T\nwith c from cross("+tc.arg+")\n")
		n := 0
		if err := m.Check(x, CheckOptions{}, func(Outcome) bool { n++; return true }); err != nil {
			t.Fatal(err)
		}
		if n != tc.want {
			t.Errorf("cross(%s): %d outcomes, want %d", tc.arg, n, tc.want)
		}
	}
}

// TestTailCalls: a recursion in tail position runs in a loop, however
// deep: here 113400 calls, beyond maxCallDepth, through the elements of
// a set; a recursion that is not a tail call stops cleanly at
// maxCallDepth.
func TestTailCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	te := testExec{locs: []string{"x"},
		threads: [][]evSpec{{wx, wx}, {wx, wx}, {wx, wx}, {wx, wx}, {wx, wx}}}
	b := build(t, te)
	if maxCallDepth >= 113400 {
		t.Fatalf("maxCallDepth %d: the test needs a deeper recursion", maxCallDepth)
	}
	m := mustModel(t, `T
include "cross.cat"
let orders = generate_orders(W, po-loc & (W * W) | (IW * (W \ IW)))
let rec last (s, acc) = match s with
  || {} -> acc
  || e ++ rest -> last (rest, e)
  end
let l = last (orders, 0)
empty l as nonempty-last
`)
	var failed []string
	err := m.Check(b.withoutCo(), CheckOptions{}, func(o Outcome) bool {
		if !o.Accepted {
			failed = append(failed, o.Failed)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || failed[0] != "nonempty-last" {
		t.Errorf("failed checks %v, want [nonempty-last]", failed)
	}
	m = mustModel(t, "T\ninclude \"cross.cat\"\nlet orders = generate_orders(W, po-loc & (W * W) | (IW * (W \\ IW)))\nlet rec deep s = match s with || {} -> 0 || e ++ rest -> e | deep rest end\nlet d = deep (orders)\n")
	err = m.Check(b.withoutCo(), CheckOptions{}, func(Outcome) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "recursion too deep (more than 100000 nested calls") {
		t.Errorf("deep recursion: %v", err)
	}
}
