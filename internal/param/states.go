package param

import (
	"math"
	"slices"
)

// stateStore holds the sampled states of a finite instance compactly:
// every state has the same number of cells, and the cells are stored
// with the fewest bytes (1, 2, 4 or 8) that hold every value stored so
// far; a value that does not fit widens the whole store once. The
// states of a weak sample are mostly booleans, enumerations, process
// numbers and small counters: a byte each instead of eight (arbiter v3's
// 175 000 states of 87 cells take 15 MB instead of 124).
type stateStore struct {
	// unknownAs: (abstract samples) the value unknown is stored as -1,
	// which no tracked cell holds
	unknownAs bool
	size      int // cells per state
	width     int // bytes per cell: 1, 2, 4 or 8
	n         int // states stored
	b8        []int8
	b16       []int16
	b32       []int32
	b64       []int64
}

func newStateStore(size int) *stateStore { return &stateStore{size: size, width: 1} }

// len is the number of states stored.
func (s *stateStore) len() int {
	if s == nil {
		return 0
	}
	return s.n
}

// widthFor is the number of bytes that hold v.
func widthFor(v int64) int {
	switch {
	case v >= math.MinInt8 && v <= math.MaxInt8:
		return 1
	case v >= math.MinInt16 && v <= math.MaxInt16:
		return 2
	case v >= math.MinInt32 && v <= math.MaxInt32:
		return 4
	}
	return 8
}

// add appends a copy of st (of s.size cells).
func (s *stateStore) add(st []int64) {
	if s.unknownAs {
		s.addUnknown(st)
		return
	}
	w := s.width
	for _, v := range st {
		w = max(w, widthFor(v))
	}
	if w > s.width {
		s.widen(w)
	}
	switch s.width {
	case 1:
		s.b8 = slices.Grow(s.b8, len(st))
		for _, v := range st {
			s.b8 = append(s.b8, int8(v))
		}
	case 2:
		for _, v := range st {
			s.b16 = append(s.b16, int16(v))
		}
	case 4:
		for _, v := range st {
			s.b32 = append(s.b32, int32(v))
		}
	default:
		s.b64 = append(s.b64, st...)
	}
	s.n++
}

// addUnknown is add for a store with unknownAs.
func (s *stateStore) addUnknown(st []int64) {
	w := s.width
	for _, v := range st {
		if v != unknown {
			w = max(w, widthFor(v))
		}
	}
	if w > s.width {
		s.widen(w)
	}
	for _, v := range st {
		if v == unknown {
			v = -1
		}
		switch s.width {
		case 1:
			s.b8 = append(s.b8, int8(v))
		case 2:
			s.b16 = append(s.b16, int16(v))
		case 4:
			s.b32 = append(s.b32, int32(v))
		default:
			s.b64 = append(s.b64, v)
		}
	}
	s.n++
}

// reserve makes room for k more states (growRoom: at least doubling).
func (s *stateStore) reserve(k int) {
	switch s.width {
	case 1:
		s.b8 = growRoom(s.b8, k*s.size)
	case 2:
		s.b16 = growRoom(s.b16, k*s.size)
	case 4:
		s.b32 = growRoom(s.b32, k*s.size)
	default:
		s.b64 = growRoom(s.b64, k*s.size)
	}
}

// equal reports whether state i is st.
func (s *stateStore) equal(i int, st []int64) bool {
	base := i * s.size
	if s.width == 1 {
		row := s.b8[base : base+s.size]
		for c, v := range st {
			w := int64(row[c])
			if s.unknownAs && w == -1 {
				w = unknown
			}
			if w != v {
				return false
			}
		}
		return true
	}
	for c, v := range st {
		if s.cell(base+c) != v {
			return false
		}
	}
	return true
}

// widen re-stores every state with w bytes a cell.
func (s *stateStore) widen(w int) {
	all := make([]int64, 0, s.n*s.size)
	for i := range s.n * s.size {
		all = append(all, s.rawCell(i))
	}
	s.b8, s.b16, s.b32, s.b64 = nil, nil, nil, nil
	s.width = w
	switch w {
	case 2:
		s.b16 = make([]int16, len(all), max(len(all), 1024))
		for i, v := range all {
			s.b16[i] = int16(v)
		}
	case 4:
		s.b32 = make([]int32, len(all), max(len(all), 1024))
		for i, v := range all {
			s.b32[i] = int32(v)
		}
	default:
		s.b64 = all
	}
}

// cell is the k-th cell of the store, counted over all states.
func (s *stateStore) cell(k int) int64 {
	if s.unknownAs {
		if v := s.rawCell(k); v != -1 {
			return v
		}
		return unknown
	}
	return s.rawCell(k)
}

// rawCell is cell without the decoding of unknown.
func (s *stateStore) rawCell(k int) int64 {
	switch s.width {
	case 1:
		return int64(s.b8[k])
	case 2:
		return int64(s.b16[k])
	case 4:
		return int64(s.b32[k])
	}
	return s.b64[k]
}

// at is cell c of state i.
func (s *stateStore) at(i, c int) int64 { return s.cell(i*s.size + c) }

// row copies state i into buf (grown to s.size cells) and returns it.
func (s *stateStore) row(i int, buf []int64) []int64 {
	if cap(buf) >= s.size {
		buf = buf[:s.size]
	} else {
		buf = make([]int64, s.size)
	}
	base := i * s.size
	switch s.width {
	case 1:
		for c, v := range s.b8[base : base+s.size] {
			buf[c] = int64(v)
			if v == -1 && s.unknownAs {
				buf[c] = unknown
			}
		}
	default:
		for c := range buf {
			buf[c] = s.cell(base + c)
		}
	}
	return buf
}

// rows returns every state, uncompressed (tests).
func (s *stateStore) rows() [][]int64 {
	out := make([][]int64, s.len())
	for i := range out {
		out[i] = s.row(i, nil)
	}
	return out
}
