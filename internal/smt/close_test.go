package smt

import (
	"errors"
	"testing"

	"github.com/musket-verify/musket/internal/memlimit"
)

// TestCloseAfterMemout closes a context after Z3 ran out of the memory
// CapMemory gave it (as the SMT engine beside the graph engine does under
// -engine auto). Deleting Z3's objects allocates, and an allocation past
// the limit thrown from a destructor aborted the whole process
// ("terminate called after throwing an instance of 'out_of_memory_error'"):
// Close must free them with the limit lifted.
func TestCloseAfterMemout(t *testing.T) {
	c := NewArenaContext()
	// 16 MB more than Z3 holds now.
	restore := CapMemory(int64(AllocatedBytes()) + 16<<20)
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				e, ok := r.(*Error)
				if !ok {
					panic(r)
				}
				err = e
			}
		}()
		s := c.NewSolver()
		for n := 8; n < 400; n += 8 {
			php(c, s, n, false)
		}
		return nil
	}()
	c.Close()
	restore()
	if err == nil || !errors.Is(err, memlimit.ErrExceeded) {
		t.Fatalf("Z3 did not run out of its 16 MB (error %v): the test does not reach the case it is for", err)
	}
	// Z3 works again once the limit is back.
	c = NewContext()
	defer c.Close()
	if r := c.NewSolver().Check(); r != Sat {
		t.Errorf("an empty solver after the memory-out: %v, want sat", r)
	}
}
