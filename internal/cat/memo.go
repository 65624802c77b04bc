package cat

import (
	"slices"

	"github.com/musket-verify/musket/internal/rel"
)

// Memoisation. The candidate executions of one program share most of
// their inputs (po, loc, the event sets) and differ in rf and co; a model's
// library part (herd7's stdlib.cat, the fence and filter definitions, the
// coherence orders cos.cat generates) depends on the shared part only,
// and much of the rest changes with few rf choices (rfi is empty when no
// thread reads its own writes). The compiler memoises every top-level let
// and check that reads neither the variants nor the execution by name.
// Its key is the versions of the inputs it reads directly (an input's
// version changes when its content does) and the values of the top-level
// slots it reads; Check keeps, per goroutine, the last values of each
// memoised statement with its key, and reuses them when the key is equal
// by content, instead of recomputing. A change of rf thus stops at the
// first let whose value it does not change. Lets that depend on inputs
// only (not on a with) are also the same in every branch of a with.

// memoInfo is the compile-time side of a memoised let: its number, the
// inputs its value depends on, and the top-level slots [lo, hi) it binds
// (its own and those of its let-in's).
type memoInfo struct {
	id     int
	deps   []int      // the inputs it reads directly (compared by version)
	slots  []memoSlot // the top-level slots it reads (compared by value)
	lo, hi int
	// dataOnly: the let reads a slot that may differ from one branch of
	// a with to the next; its value is kept only when it holds no
	// function (a function reads its frame when called, and the dynamic
	// slots of that frame change).
	dataOnly bool
}

// memoSlot is a top-level slot a memoised let reads. The functions of
// static slots are compared by identity: a function value is rebuilt
// whenever what it reads changes.
type memoSlot struct {
	slot   int
	static bool
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
	relSlab []relBox // the boxes mkRel has not given out yet
	setSlab []setBox // the same for mkSet
	words   []uint64 // zero words not given out yet (see run.words)
	spare   *run     // the run of Transient Checks, reused

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
	reads []value  // values of the slots they come from
	bvers []uint32 // versions of the inputs the primitives in reads read
	vals  []value  // slots lo..hi
	holds bool     // the verdict of a memoised check
}

// locInput is the pseudo-input naming Execution.Loc.
const locInput = "\x00Loc"

// locVal is the value of Execution.Loc, for memo comparisons.
type locVal []int

// getMemo takes a memo for a Check over n events.
func (m *Model) getMemo(n int) *memo {
	mm, _ := m.memos.Get().(*memo)
	if mm != nil && mm.n != n && len(mm.inputs) == len(m.inputNames) && len(mm.entries) == m.memoCount {
		// The last execution had another size (the previous test's):
		// forget what depends on it, keeping the storage.
		mm.reset(n)
	}
	if mm == nil || mm.n != n || len(mm.inputs) != len(m.inputNames) {
		k := len(m.inputNames)
		mm = &memo{n: n, inputs: make([]value, k), have: make([]bool, k), version: make([]uint32, k),
			seenGen: make([]uint64, k), where: make([]uint8, k), consts: make([]value, k), entries: make([]memoEntry, m.memoCount)}
	}
	mm.gen++
	return mm
}

// reset makes mm a memo for executions of n events, as new, keeping the
// storage of its entries and its slabs (whose boxes and words are not
// given out yet, and do not depend on n). The versions and generations
// keep counting: no entry is valid any more, whatever they say.
func (mm *memo) reset(n int) {
	mm.n = n
	clear(mm.inputs)
	clear(mm.have)
	clear(mm.where)
	clear(mm.consts)
	for i := range mm.entries {
		e := &mm.entries[i]
		e.valid = false
		clear(e.reads[:cap(e.reads)])
		clear(e.vals[:cap(e.vals)])
		e.reads, e.vals = e.reads[:0], e.vals[:0]
	}
	mm.full, mm.emptySet = rel.Set{}, rel.Set{}
	mm.fullRel, mm.id, mm.emptyRel = rel.Rel{}, rel.Rel{}, rel.Rel{}
	mm.haveFull, mm.haveFullRel, mm.haveID, mm.haveEmpty = false, false, false, false
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
	b := 0
	for k, ms := range mi.slots {
		cur := f.slots[ms.slot]
		if !sameSlot(cur, e.reads[k], ms.static) {
			return false
		}
		// A primitive that reads the execution (partition reads loc) is
		// the same function only while what it reads is unchanged.
		if fn, ok := cur.(*builtinFn); ok {
			for _, name := range fn.reads {
				i, ok := r.m.inputIndex[name]
				if !ok {
					return false
				}
				r.syncInput(i)
				if e.bvers[b] != r.memo.version[i] {
					return false
				}
				b++
			}
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
	e.reads = e.reads[:0]
	e.valid = true
	if mi.dataOnly {
		for _, v := range e.vals {
			if !isData(v) {
				e.valid = false
				return
			}
		}
	}
	e.bvers = e.bvers[:0]
	for _, ms := range mi.slots {
		v := f.slots[ms.slot]
		e.reads = append(e.reads, v)
		if fn, ok := v.(*builtinFn); ok {
			for _, name := range fn.reads {
				i, ok := r.m.inputIndex[name]
				if !ok {
					e.valid = false
					return
				}
				r.syncInput(i)
				e.bvers = append(e.bvers, r.memo.version[i])
			}
		}
	}
}

// sameSlot compares the value of a slot with the one a memo entry was
// computed from.
func sameSlot(a, b value, static bool) bool {
	switch a := a.(type) {
	case *closure, *procVal:
		return static && a == b
	case *builtinFn:
		// An impure primitive is not the same function from one
		// execution to the next; memoLoad compares the inputs the others
		// read.
		return static && a == b && !a.impure
	}
	return sameData(a, b)
}

// isData tells whether v holds no function or procedure.
func isData(v value) bool {
	switch v := v.(type) {
	case nil, emptyVal, univVal, setVal, relVal, eventVal, pairVal, tagVal:
		return true
	case tupleVal:
		for _, x := range v {
			if !isData(x) {
				return false
			}
		}
		return true
	case *valSet:
		for _, x := range v.elems {
			if !isData(x) {
				return false
			}
		}
		return true
	}
	return false
}

// sameData tells whether two values are equal data (functions never are).
func sameData(a, b value) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case emptyVal, univVal, eventVal, pairVal, tagVal:
		return a == b
	case setVal:
		// The same box (a value the memo restored) is the same set.
		b, ok := b.(setVal)
		return ok && (a == b || a.s.Equal(b.s))
	case relVal:
		b, ok := b.(relVal)
		return ok && (a == b || a.r.Equal(b.r))
	case tupleVal:
		b, ok := b.(tupleVal)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameData(a[i], b[i]) {
				return false
			}
		}
		return true
	case *valSet:
		b, ok := b.(*valSet)
		if !ok || len(a.elems) != len(b.elems) {
			return false
		}
		if a == b {
			return true
		}
		for i := range a.elems {
			if !sameData(a.elems[i], b.elems[i]) {
				return false
			}
		}
		return true
	}
	return false
}
