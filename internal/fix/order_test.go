package fix

import (
	"testing"

	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/pts"
)

// sbWitness is store buffering on two threads: each thread writes its
// flag (line 1) then reads the other's (line 2), both reads reading the
// initial value (fr from each read to the other thread's write).
func sbWitness() *Witness { return twoByTwo('W', 'R', 'W', 'R') }

// mpWitness is message passing: thread 0 writes data (line 1) then the
// flag (line 2); thread 1 reads the flag (line 1, the new value) then the
// data (line 2, the old one).
func mpWitness() *Witness { return twoByTwo('W', 'W', 'R', 'R') }

// twoByTwo is the witness of two threads of two accesses each, of the
// kinds given (thread 0's lines 1 and 2, then thread 1's), in which
// each thread's second access reaches the other thread's first: the
// cycle 0 → 1 → 2 → 3 → 0 of store buffering and message passing.
func twoByTwo(k01, k02, k11, k12 byte) *Witness {
	w := &Witness{Events: []WEvent{{Thread: 0, Line: 1, Kind: k01}, {Thread: 0, Line: 2, Kind: k02}, {Thread: 1, Line: 1, Kind: k11}, {Thread: 1, Line: 2, Kind: k12}}}
	n := len(w.Events)
	for i := 0; i < n; i++ {
		w.Reach = append(w.Reach, make([]bool, n))
		w.Po = append(w.Po, make([]bool, n))
	}
	w.Po[0][1], w.Po[2][3] = true, true
	w.Reach[0][1], w.Reach[2][3], w.Reach[1][2], w.Reach[3][0] = true, true, true, true
	closure(w.Reach)
	closure(w.Po)
	return w
}

// TestRelevantEffects: a stronger access counts only through the pairs
// its code orders: on Power a release store (lwsync before it) orders
// nothing in a store-buffering witness where the store comes first, a
// seq_cst load (sync before it) does; lwsync orders the reads of message
// passing but not a write before a read.
func TestRelevantEffects(t *testing.T) {
	tests := []struct {
		name, target string
		kind         compile.Kind
		order        string
		line, thread int
		w            *Witness
		want         bool
	}{
		{"SB power sc load", "power", compile.Load, pts.SC, 2, 0, sbWitness(), true},
		{"SB power acq load", "power", compile.Load, pts.Acq, 2, 0, sbWitness(), false},
		{"SB power rel store", "power", compile.Store, pts.Rel, 1, 0, sbWitness(), false},
		{"SB power sc store", "power", compile.Store, pts.SC, 1, 0, sbWitness(), false},
		{"SB x86 sc store", "x86", compile.Store, pts.SC, 1, 0, sbWitness(), true},
		{"SB armv7 sc store", "armv7", compile.Store, pts.SC, 1, 0, sbWitness(), true},
		{"SB aarch64 rel store", "aarch64", compile.Store, pts.Rel, 1, 0, sbWitness(), true}, // STLR then a later LDAR
		{"SB aarch64 acq load", "aarch64", compile.Load, pts.Acq, 2, 0, sbWitness(), true},   // an earlier STLR then LDAR
		{"SB riscv rel store", "riscv", compile.Store, pts.Rel, 1, 0, sbWitness(), false},
		{"MP power acq load", "power", compile.Load, pts.Acq, 1, 1, mpWitness(), true},
		{"MP power rel store", "power", compile.Store, pts.Rel, 2, 0, mpWitness(), true},
		{"MP power rel store first", "power", compile.Store, pts.Rel, 1, 0, mpWitness(), false},
		{"MP riscv acq load", "riscv", compile.Load, pts.Acq, 1, 1, mpWitness(), true},
		{"MP riscv acq load second", "riscv", compile.Load, pts.Acq, 2, 1, mpWitness(), false},
	}
	for _, tc := range tests {
		steps, ok := compile.Mapping(tc.target, tc.kind, tc.order)
		if !ok {
			t.Fatalf("%s: no mapping", tc.name)
		}
		c := Cand{Thread: tc.thread, Line: tc.line, effects: effectsOf(steps)}
		if c.effects == nil {
			t.Fatalf("%s: no effects for %v", tc.name, steps)
		}
		if got := relevant(c, tc.w); got != tc.want {
			t.Errorf("%s: relevant = %v, want %v", tc.name, got, tc.want)
		}
		// Without effects (every pair around the access) a candidate
		// on the cycle is always relevant: effects only narrow it.
		c.effects = nil
		if !relevant(c, tc.w) {
			t.Errorf("%s: relevant without effects = false", tc.name)
		}
	}
}
