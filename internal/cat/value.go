package cat

import (
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/musket-verify/musket/internal/rel"
)

// value is a run-time CAT value. The concrete types are below; every
// value is immutable once built.
type value interface{}

type (
	// emptyVal is the polymorphic empty value, 0 or {}: it acts as the
	// empty set, relation or set of values as its context needs.
	emptyVal struct{}
	// univVal is _, the universe: all events, or all pairs of events.
	univVal struct{}
	// setVal is a set of events (see setBox).
	setVal *setBox
	// relVal is a relation on events (see relBox).
	relVal *relBox
	// eventVal is one event; it acts as a singleton set where a set is
	// needed.
	eventVal int
	// pairVal is one pair of events; it acts as a singleton relation where
	// a relation is needed.
	pairVal [2]int
	// tagVal is a tag 'name.
	tagVal string
	// tupleVal is a tuple (a, b, ...).
	tupleVal []value
)

// relBox and setBox hold the relation or set of a relVal or setVal. A
// value is a pointer to one, so that making a value costs no allocation
// of its own: a run takes the boxes from slabs (mkRel, mkSet) that its memo keeps
// from Check to Check (a memo serves one Check at a time), where
// boxing a struct into the value interface would allocate each one on
// its own. Boxes, like values, are not changed once made.
type (
	relBox struct{ r rel.Rel }
	setBox struct{ s rel.Set }
)

// slabSize is the number of boxes a run allocates at once.
const slabSize = 64

// mkRel makes the value of relation x.
func (r *run) mkRel(x rel.Rel) value {
	m := r.memo
	if len(m.relSlab) == 0 {
		m.relSlab = make([]relBox, slabSize)
	}
	b := &m.relSlab[0]
	m.relSlab = m.relSlab[1:]
	b.r = x
	return relVal(b)
}

// mkSet makes the value of event set x.
func (r *run) mkSet(x rel.Set) value {
	m := r.memo
	if len(m.setSlab) == 0 {
		m.setSlab = make([]setBox, slabSize)
	}
	b := &m.setSlab[0]
	m.setSlab = m.setSlab[1:]
	b.s = x
	return setVal(b)
}

// The words of the relations and sets a run computes come from slabs
// too (wordSlab words at a time, kept in the memo like the boxes); a
// relation larger than maxSlabWords has its own.
const (
	wordSlab     = 1024
	maxSlabWords = 128
)

// newRel returns an empty relation over the run's events, for an
// operation to write its result into.
func (r *run) newRel() rel.Rel {
	k := rel.RelWords(r.n)
	if k > maxSlabWords {
		return rel.NewRel(r.n)
	}
	return rel.NewRelIn(r.n, r.words(k))
}

// newSet returns an empty event set over the run's events.
func (r *run) newSet() rel.Set {
	k := rel.SetWords(r.n)
	if k > maxSlabWords {
		return rel.NewSet(r.n)
	}
	return rel.NewSetIn(r.n, r.words(k))
}

// words takes k zero words from the memo's slab.
func (r *run) words(k int) []uint64 {
	m := r.memo
	if len(m.words) < k {
		m.words = make([]uint64, wordSlab)
	}
	w := m.words[:k:k]
	m.words = m.words[k:]
	return w
}

// newRelVal and newSetVal make values outside a run.
func newRelVal(x rel.Rel) value { return relVal(&relBox{x}) }
func newSetVal(x rel.Set) value { return setVal(&setBox{x}) }

// valSet is a set of values (of sets, relations, tags, ...), kept in
// insertion order without duplicates.
type valSet struct {
	elems  []value
	hashes []uint64
}

var (
	theEmpty value = emptyVal{}
	theUniv  value = univVal{}
)

// kindName names the kind of a value for error messages.
func kindName(v value) string {
	switch v := v.(type) {
	case emptyVal:
		return "empty"
	case univVal:
		return "universe"
	case setVal, eventVal:
		return "event set"
	case relVal, pairVal:
		return "relation"
	case tagVal:
		return "tag"
	case tupleVal:
		return "tuple"
	case *valSet:
		return "set of values"
	case *closure, *builtinFn:
		return "function"
	case *procVal:
		return "procedure"
	case nil:
		return "unbound"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// isEmptyValue tells whether v has no element.
func isEmptyValue(v value, n int) (bool, bool) {
	switch v := v.(type) {
	case emptyVal:
		return true, true
	case univVal:
		return n == 0, true
	case setVal:
		return v.s.IsEmpty(), true
	case relVal:
		return v.r.IsEmpty(), true
	case *valSet:
		return len(v.elems) == 0, true
	case eventVal, pairVal:
		return false, true
	}
	return false, false
}

var tagSeed = maphash.MakeSeed()

const (
	saltEvent = 0x51afd7ed558ccd01
	saltPair  = 0x2545f4914f6cdd1d
	saltTuple = 0x9fb21c651e98df25
)

// hashValue hashes v for sets of values; empty sets, relations and 0 hash
// alike (0), as they are equal.
func hashValue(v value) uint64 {
	switch v := v.(type) {
	case emptyVal:
		return 0
	case setVal:
		return v.s.Hash()
	case relVal:
		return v.r.Hash()
	case eventVal:
		return mix(uint64(v) ^ saltEvent)
	case pairVal:
		return mix(uint64(v[0])<<32 ^ uint64(v[1]) ^ saltPair)
	case tagVal:
		return maphash.String(tagSeed, string(v))
	case *valSet:
		var h uint64
		for _, x := range v.hashes {
			h += mix(x)
		}
		return h
	case tupleVal:
		h := uint64(saltTuple)
		for _, x := range v {
			h = mix(h ^ hashValue(x))
		}
		return h
	}
	return 1
}

func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// equalValues tells whether a and b are the same value.
func equalValues(a, b value) bool {
	if _, ok := a.(emptyVal); ok {
		e, known := isEmptyValue(b, -1)
		return known && e
	}
	if _, ok := b.(emptyVal); ok {
		e, known := isEmptyValue(a, -1)
		return known && e
	}
	switch a := a.(type) {
	case univVal:
		_, ok := b.(univVal)
		return ok
	case setVal:
		switch b := b.(type) {
		case setVal:
			return a.s.Equal(b.s)
		case *valSet:
			return a.s.IsEmpty() && len(b.elems) == 0
		case relVal:
			return a.s.IsEmpty() && b.r.IsEmpty()
		}
	case relVal:
		switch b := b.(type) {
		case relVal:
			return a.r.Equal(b.r)
		case *valSet:
			return a.r.IsEmpty() && len(b.elems) == 0
		case setVal:
			return a.r.IsEmpty() && b.s.IsEmpty()
		}
	case eventVal:
		b, ok := b.(eventVal)
		return ok && a == b
	case pairVal:
		b, ok := b.(pairVal)
		return ok && a == b
	case tagVal:
		b, ok := b.(tagVal)
		return ok && a == b
	case *valSet:
		switch b := b.(type) {
		case *valSet:
			if len(a.elems) != len(b.elems) {
				return false
			}
			for i, x := range a.elems {
				if !b.has(x, a.hashes[i]) {
					return false
				}
			}
			return true
		case setVal:
			return len(a.elems) == 0 && b.s.IsEmpty()
		case relVal:
			return len(a.elems) == 0 && b.r.IsEmpty()
		}
	case tupleVal:
		b, ok := b.(tupleVal)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equalValues(a[i], b[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
	return false
}

func (s *valSet) has(v value, h uint64) bool {
	for i, x := range s.hashes {
		if x == h && equalValues(s.elems[i], v) {
			return true
		}
	}
	return false
}

// with returns s plus v (s itself when v is already in).
func (s *valSet) with(v value) *valSet {
	h := hashValue(v)
	if s.has(v, h) {
		return s
	}
	n := len(s.elems)
	o := &valSet{elems: make([]value, n+1), hashes: make([]uint64, n+1)}
	copy(o.elems, s.elems)
	copy(o.hashes, s.hashes)
	o.elems[n], o.hashes[n] = v, h
	return o
}

// newValSet builds a set of values from elems, dropping duplicates.
func newValSet(elems ...value) *valSet {
	s := &valSet{elems: make([]value, 0, len(elems)), hashes: make([]uint64, 0, len(elems))}
	for _, v := range elems {
		h := hashValue(v)
		if !s.has(v, h) {
			s.elems = append(s.elems, v)
			s.hashes = append(s.hashes, h)
		}
	}
	return s
}

func (s *valSet) union(t *valSet) *valSet {
	o := &valSet{elems: append([]value(nil), s.elems...), hashes: append([]uint64(nil), s.hashes...)}
	for i, v := range t.elems {
		if !o.has(v, t.hashes[i]) {
			o.elems = append(o.elems, v)
			o.hashes = append(o.hashes, t.hashes[i])
		}
	}
	return o
}

func (s *valSet) filter(t *valSet, keep bool) *valSet {
	o := &valSet{}
	for i, v := range s.elems {
		if t.has(v, s.hashes[i]) == keep {
			o.elems = append(o.elems, v)
			o.hashes = append(o.hashes, s.hashes[i])
		}
	}
	return o
}

// showValue prints a value for messages and tests.
func showValue(v value) string {
	switch v := v.(type) {
	case emptyVal:
		return "{}"
	case univVal:
		return "_"
	case setVal:
		return v.s.String()
	case relVal:
		return v.r.String()
	case eventVal:
		return fmt.Sprintf("e%d", int(v))
	case pairVal:
		return fmt.Sprintf("(%d,%d)", v[0], v[1])
	case tagVal:
		return "'" + string(v)
	case tupleVal:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = showValue(x)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *valSet:
		parts := make([]string, len(v.elems))
		for i, x := range v.elems {
			parts[i] = showValue(x)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "<" + kindName(v) + ">"
}
