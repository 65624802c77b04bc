package rel

import "testing"

func TestHash(t *testing.T) {
	n := 70
	a := RelOf(n, [2]int{1, 2}, [2]int{3, 69})
	b := RelOf(n, [2]int{3, 69}, [2]int{1, 2})
	c := RelOf(n, [2]int{1, 2})
	if a.Hash() != b.Hash() {
		t.Errorf("equal relations hash differently")
	}
	if a.Hash() == c.Hash() {
		t.Errorf("different relations hash alike")
	}
	if NewRel(3).Hash() != 0 || NewRel(100).Hash() != 0 || NewSet(5).Hash() != 0 {
		t.Errorf("empty values must hash to 0")
	}
	if SetOf(n, 1, 65).Hash() != SetOf(n, 65, 1).Hash() || SetOf(n, 1).Hash() == SetOf(n, 2).Hash() {
		t.Errorf("set hash")
	}
	// Moving a bit to another word changes the hash.
	if SetOf(n, 1).Hash() == SetOf(n, 65).Hash() {
		t.Errorf("set hash ignores word index")
	}
}
