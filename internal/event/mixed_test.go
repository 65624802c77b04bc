package event

import "testing"

// TestSameAccess checks sm and po on a mixed-size access split into two
// chunks (a 64-bit load of x as x and x+4), beside an atomic
// read-modify-write (one instance, two accesses).
func TestSameAccess(t *testing.T) {
	g := &Graph{Events: []Event{
		{ID: 0, Thread: -1, Kind: Write, Loc: "x", Instr: -1},
		{ID: 1, Thread: -1, Kind: Write, Loc: "x+4", Instr: -2},
		{ID: 2, Thread: 0, Kind: Read, Loc: "x", Instr: 1},
		{ID: 3, Thread: 0, Kind: Read, Loc: "x+4", Instr: 1},
		{ID: 4, Thread: 0, Kind: Read, Loc: "x", Instr: 2},
		{ID: 5, Thread: 0, Kind: Write, Loc: "x", Instr: 2},
	}}
	s := g.Static()
	for _, tc := range []struct {
		rel    string
		a, b   int
		expect bool
	}{
		{"sm", 2, 3, true}, {"sm", 3, 2, true}, {"sm", 2, 2, true}, {"si", 3, 2, true},
		{"sm", 0, 1, false}, // initial writes are separate instances
		{"sm", 4, 5, false}, // the read and the write of an RMW are two accesses
		{"sm", 3, 4, false},
		{"po", 2, 3, false}, {"po", 3, 2, false}, // no po inside an access
		{"po", 2, 4, true}, {"po", 3, 4, true}, {"po", 4, 5, true},
		{"same-instance", 2, 3, true}, {"same-instance", 4, 5, true},
	} {
		if got := s.Rels[tc.rel].Has(tc.a, tc.b); got != tc.expect {
			t.Errorf("%s(%d,%d) = %v, want %v", tc.rel, tc.a, tc.b, got, tc.expect)
		}
	}
}
