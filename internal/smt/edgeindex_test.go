package smt

import "testing"

// TestEdgeIndex: the dense and the sparse index answer alike.
func TestEdgeIndex(t *testing.T) {
	for _, dense := range []bool{true, false} {
		x := edgeIndex{dense: dense}
		const n = 5
		if _, ok := x.get(7); ok {
			t.Fatalf("dense=%v: empty index has key 7", dense)
		}
		x.set(7, 0, n)
		x.set(24, 3, n)
		if id, ok := x.get(7); !ok || id != 0 {
			t.Fatalf("dense=%v: get(7) = %d, %v, want 0, true", dense, id, ok)
		}
		if id, ok := x.get(24); !ok || id != 3 {
			t.Fatalf("dense=%v: get(24) = %d, %v, want 3, true", dense, id, ok)
		}
		x.del(7)
		if _, ok := x.get(7); ok {
			t.Fatalf("dense=%v: key 7 still present after del", dense)
		}
		if _, ok := x.get(24); !ok {
			t.Fatalf("dense=%v: key 24 lost", dense)
		}
	}
}
