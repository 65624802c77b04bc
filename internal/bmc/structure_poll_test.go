package bmc

import (
	"fmt"
	"testing"

	"github.com/musket-verify/musket/internal/ctxtest"
	"github.com/musket-verify/musket/internal/event"
)

// TestStructurePolls checks, without the clock, that the pass over all
// pairs of events that makes the program's fixed relations (it builds
// no formula, so tick never looks) stops the encoding at the first look
// at its context that says it is done, one look every 64 events (a C
// program with 10^5 pthread_key_create calls went minutes and
// gigabytes past -timeout there; robust5).
func TestStructurePolls(t *testing.T) {
	const n = 300
	p := &progEnc{}
	for i := range n {
		p.events = append(p.events, &evt{id: i, thread: -1, kind: event.Write, loc: fmt.Sprintf("x%d", i), node: -1, inst: -1 - i})
	}
	for _, k := range []int{1, 2, 5} { // rows 0, 64 and 256
		c := ctxtest.After(k)
		e := &encoding{p: p, n: n, f: &fb{limit: c}}
		stopped := func() (stopped bool) {
			defer func() {
				if r := recover(); r != nil {
					if r != errTimeout {
						panic(r)
					}
					stopped = true
				}
			}()
			e.structure(map[string]value{})
			return false
		}()
		if !stopped || c.Looks() != k {
			t.Errorf("context done at look %d: stopped %v after %d looks", k, stopped, c.Looks())
		}
	}
}
