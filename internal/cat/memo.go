package cat

import (
	"slices"

	"github.com/musket-verify/musket/internal/rel"
)

// Memoisation. The candidate executions of one program share most of
// their inputs (po, loc, the event sets) and differ in rf and co; a model's
// library part (herd7's stdlib.cat, the fence and filter definitions, the
// coherence orders cos.cat generates) depends on the shared part only.
// The compiler marks the top-level lets whose value depends on inputs
// only (not on a `with` binding, the variants, or an if's branch), and
// on which inputs. Check keeps, per goroutine, the values of those lets
// and the input values they were computed from; when the inputs are
// equal by content, the values are reused instead of recomputed. This also
// hoists such lets out of the branches of `with`.

// memoInfo is the compile-time side of a memoised let: its number, the
// inputs its value depends on, and the top-level slots [lo, hi) it binds
// (its own and those of its let-in's).
type memoInfo struct {
	id     int
	deps   []int
	lo, hi int
}

// memo is the run-time side, reused from Check to Check.
type memo struct {
	n       int
	gen     uint64   // one per Check
	inputs  []value  // last value seen of each input
	have    []bool   // inputs[i] was seen
	version []uint32 // bumped when inputs[i] changes
	seenGen []uint64 // gen at which inputs[i] was compared
	where   []uint8  // where inputs[i] was found last
	consts  []value  // fallback values that depend on n only
	entries []memoEntry

	// constants of the universe
	full                          rel.Set
	emptySet                      rel.Set
	fullRel, id, emptyRel         rel.Rel
	haveFull, haveFullRel, haveID bool
	haveEmpty                     bool
}

type memoEntry struct {
	valid bool
	vers  []uint32 // versions of the dependencies the values come from
	vals  []value  // slots lo..hi
}

// locInput is the pseudo-input naming Execution.Loc.
const locInput = "\x00Loc"

// locVal is the value of Execution.Loc, for memo comparisons.
type locVal []int

// getMemo takes a memo for a Check over n events.
func (m *Model) getMemo(n int) *memo {
	mm, _ := m.memos.Get().(*memo)
	if mm == nil || mm.n != n || len(mm.inputs) != len(m.inputNames) {
		k := len(m.inputNames)
		mm = &memo{n: n, inputs: make([]value, k), have: make([]bool, k), version: make([]uint32, k),
			seenGen: make([]uint64, k), where: make([]uint8, k), consts: make([]value, k), entries: make([]memoEntry, m.memoCount)}
	}
	mm.gen++
	return mm
}

// syncInput compares input i with its last seen value, once per Check.
func (r *run) syncInput(i int) {
	m := r.memo
	if m.seenGen[i] == m.gen {
		return
	}
	cur := r.input(i)
	if m.seenGen[i] == m.gen {
		return // resolveInput found it equal to inputs[i]
	}
	m.seenGen[i] = m.gen
	if m.have[i] && sameInput(cur, m.inputs[i]) {
		return
	}
	if l, ok := cur.(locVal); ok {
		cur = locVal(slices.Clone(l)) // the engine may reuse its slice
	}
	m.inputs[i], m.have[i] = cur, true
	m.version[i]++
}

// sameInput compares two values of one input.
func sameInput(a, b value) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case setVal:
		b, ok := b.(setVal)
		return ok && a.s.Equal(b.s)
	case relVal:
		b, ok := b.(relVal)
		return ok && a.r.Equal(b.r)
	case locVal:
		b, ok := b.(locVal)
		return ok && slices.Equal(a, b)
	case emptyVal:
		_, ok := b.(emptyVal)
		return ok
	}
	return false
}

// memoLoad restores the slots of a memoised let when its inputs are
// unchanged.
func (r *run) memoLoad(mi *memoInfo, f *frame) bool {
	e := &r.memo.entries[mi.id]
	if !e.valid {
		return false
	}
	for k, i := range mi.deps {
		r.syncInput(i)
		if e.vers[k] != r.memo.version[i] {
			return false
		}
	}
	copy(f.slots[mi.lo:mi.hi], e.vals)
	return true
}

// memoStore records the slots of a memoised let just computed.
func (r *run) memoStore(mi *memoInfo, f *frame) {
	e := &r.memo.entries[mi.id]
	if cap(e.vers) < len(mi.deps) {
		e.vers = make([]uint32, len(mi.deps))
	}
	e.vers = e.vers[:len(mi.deps)]
	for k, i := range mi.deps {
		r.syncInput(i)
		e.vers[k] = r.memo.version[i]
	}
	e.vals = append(e.vals[:0], f.slots[mi.lo:mi.hi]...)
	e.valid = true
}
