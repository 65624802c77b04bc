package rel

import (
	"testing"
	"unsafe"
)

// TestSmallValues keeps Rel and Set at four words or less, the largest
// struct Go passes in registers: a larger one is copied through memory,
// in WebAssembly a memory.copy each time (see Rel). And wpr is the words
// per row that NewRel gives each row, for sizes around the word edges.
func TestSmallValues(t *testing.T) {
	word := unsafe.Sizeof(uintptr(0))
	for name, size := range map[string]uintptr{"Rel": unsafe.Sizeof(Rel{}), "Set": unsafe.Sizeof(Set{})} {
		if size > 4*word {
			t.Errorf("%s is %d bytes, more than four words", name, size)
		}
	}
	for _, n := range []int{0, 1, 63, 64, 65, 127, 128, 129, 1000} {
		r := NewRel(n)
		if got, want := r.wpr(), (n+63)/64; got != want || len(r.b) != n*want {
			t.Errorf("n=%d: wpr %d, want %d (%d words)", n, got, want, len(r.b))
		}
	}
}
