package litmus

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// mixedLowering is the state of the lowering of one mixed-size test (see
// the comment at the top of aarch64_mixed.go): the sizes of its
// locations, then their chunks, then the rewritten code, initial state
// and final condition.
type mixedLowering struct {
	t     *spec.Test
	arch  string
	exact bool // value arithmetic exact on negative values (RISC-V)
	accs  []a64Access
	errs  source.ErrorList

	locSize map[string]int64 // bytes of each location
	locs    []string         // the locations, in order of appearance
	initVal map[string]prog.Value
	arrays  map[string]bool
	elem    map[string]int64   // the size of an array's elements
	bytes   map[string][]byte  // an array's initial bytes, when its cells have values
	cells   map[string][]int64 // the cells of each array the condition observes
	dynamic map[string]bool    // locations an access reaches at an offset computed at run time
	grain   map[string]int64   // the size of the chunks of such a location
	chunks  map[string][]a64Chunk
	grewAt  map[string]prog.Pos // the access that gave a location its size
}

// maxDynamicChunks bounds the number of chunks of a location that an
// access reaches at an offset computed at run time (each chunk is a
// location of the engines).
const maxDynamicChunks = 64

// unsupported is the start of every message of the lowering.
func (m *mixedLowering) unsupported() string { return "unsupported mixed-size " + m.arch + " test: " }

// posOf is the position of the instruction of access a.
func (m *mixedLowering) posOf(a a64Access) prog.Pos {
	if th := m.t.Threads[a.thread]; a.pc < len(th.Pos) {
		return th.Pos[a.pc]
	}
	return prog.Pos{}
}

// grew records that access a gave location l its size so far.
func (m *mixedLowering) grew(l string, a a64Access) {
	if m.grewAt == nil {
		m.grewAt = map[string]prog.Pos{}
	}
	if p := m.posOf(a); p.Line > 0 {
		m.grewAt[l] = p
	}
}

// sizedAt is where an error about the size of location l points: the
// access that gave it its size, else the test's first line.
func (m *mixedLowering) sizedAt(l string) prog.Pos {
	if p, ok := m.grewAt[l]; ok {
		return p
	}
	return prog.Pos{File: m.t.File, Line: 1, Col: 1}
}

func (m *mixedLowering) addLoc(l string) {
	if _, ok := m.locSize[l]; !ok {
		m.locSize[l] = 0
		m.locs = append(m.locs, l)
	}
}

// sizeLocations finds every location of the test and its size in bytes:
// its declared type, else the extent of its accesses (at least an int).
// What the chunks cannot express is refused by name.
func (m *mixedLowering) sizeLocations() {
	t := m.t
	m.locSize = map[string]int64{}
	m.initVal = map[string]prog.Value{}
	m.arrays = map[string]bool{}
	m.elem, m.bytes, m.cells = map[string]int64{}, map[string][]byte{}, map[string][]int64{}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			if e.Val.IsAddr() {
				m.addLoc(e.Val.Loc)
			}
			continue
		}
		m.addLoc(e.Ref.Name)
		m.initVal[e.Ref.Name] = e.Val
		if i := strings.Index(e.Type, "["); i >= 0 {
			// An array of bytes: its elements' size times their number.
			m.arrays[e.Ref.Name] = true
			n, err := strconv.ParseInt(strings.TrimSuffix(e.Type[i+1:], "]"), 0, 64)
			elem := a64TypeSize(strings.TrimSpace(e.Type[:i]))
			if err != nil || elem == 0 || n <= 0 {
				m.errs.Add(e.Pos, fmt.Sprintf(m.unsupported()+"location %s is an array of %s", e.Ref.Name, e.Type))
				continue
			}
			m.locSize[e.Ref.Name] = int64(elem) * n
			m.elem[e.Ref.Name] = int64(elem)
			if len(e.Elems) > 0 {
				// The cells' values, little-endian, each in its
				// element's bytes.
				b := make([]byte, int64(elem)*n)
				for i, v := range e.Elems {
					if v.IsAddr() {
						m.errs.Add(e.Pos, fmt.Sprintf(m.unsupported()+"cell %d of array %s holds an address", i, e.Ref.Name))
						break
					}
					for k := 0; k < elem; k++ {
						b[i*elem+k] = byte(v.Int >> (8 * k))
					}
				}
				m.bytes[e.Ref.Name] = b
			}
			continue
		}
		if e.Type != "" {
			n := a64TypeSize(e.Type)
			if n == 0 {
				m.errs.Add(e.Pos, fmt.Sprintf(m.unsupported()+"location %s has type %s", e.Ref.Name, e.Type))
				continue
			}
			m.locSize[e.Ref.Name] = int64(n)
		}
		if e.Val.IsAddr() {
			m.errs.Add(e.Pos, fmt.Sprintf(m.unsupported()+"location %s holds an address", e.Ref.Name))
		}
	}
	for _, r := range append(append([]spec.Ref(nil), t.Locations...), append(spec.Refs(t.Cond), spec.Refs(t.Filter)...)...) {
		if r.IsReg() {
			continue
		}
		if a, i, ok := cellRef(r.Name); ok {
			// Element i of array a (the parser reads "a[i]" so in the
			// assembly dialects whose arrays are bytes).
			if !m.arrays[a] || i >= m.locSize[a]/max(m.elem[a], 1) {
				m.errs.Add(prog.Pos{File: t.File, Line: 1, Col: 1}, fmt.Sprintf(m.unsupported()+"the condition reads %s, which is not a cell of an array of the initial state", r.Name))
				continue
			}
			if !slices.Contains(m.cells[a], i) {
				m.cells[a] = append(m.cells[a], i)
			}
			continue
		}
		if m.arrays[r.Name] && !slices.Contains(m.cells[r.Name], 0) {
			// An array named alone is its first cell, as in herd.
			m.cells[r.Name] = append(m.cells[r.Name], 0)
		}
		m.addLoc(r.Name)
	}
	declared := map[string]bool{}
	for l, n := range m.locSize {
		declared[l] = n > 0
	}
	m.dynamic = map[string]bool{}
	for _, a := range m.accs {
		if !a.known {
			if a.base == "" {
				m.errs.Add(m.posOf(a), m.unsupported()+"the address of this access is not known before running and is not an offset from a location of the test")
				continue
			}
			// An offset computed at run time: the location is split
			// into bytes, and the access into one access per byte.
			m.addLoc(a.base)
			m.dynamic[a.base] = true
			if !declared[a.base] && a.size > m.locSize[a.base] {
				m.locSize[a.base] = a.size // at offset 0 at least
				m.grew(a.base, a)
			}
			continue
		}
		// A misaligned access is one access like an aligned one (all
		// its bytes related by sm, hence single-copy atomic together
		// in the AArch64 model), as in herd7.
		m.addLoc(a.loc)
		if a.off < 0 || declared[a.loc] && a.off+a.size > m.locSize[a.loc] {
			m.errs.Add(m.posOf(a), fmt.Sprintf(m.unsupported()+"access to bytes %d..%d of %s, which has %d", a.off, a.off+a.size-1, a.loc, m.locSize[a.loc]))
			continue
		}
		if !declared[a.loc] && a.off+a.size > m.locSize[a.loc] {
			m.locSize[a.loc] = a.off + a.size
			m.grew(a.loc, a)
		}
	}
	for _, l := range m.locs {
		if !declared[l] && m.locSize[l] < 4 {
			m.locSize[l] = 4 // an untyped location is an int
		}
		if m.locSize[l] > 8 && !m.arrays[l] {
			m.errs.Add(m.sizedAt(l), fmt.Sprintf(m.unsupported()+"location %s has %d bytes (more than a register)", l, m.locSize[l]))
		}
	}
	m.grains()
}

// grains chooses the chunk size of each location that an access reaches
// at an offset computed at run time: the largest size that divides the
// location's size and every offset and size of an access to it, among
// them every offset within the location that the access at run time may
// take (a byte when any offset may be taken). Each access to it then
// covers whole chunks, wherever it goes. An offset outside the location
// reaches none of its chunks: that execution has no location to access
// and is left out.
func (m *mixedLowering) grains() {
	m.grain = map[string]int64{}
	for l := range m.dynamic {
		g := m.locSize[l]
		for _, a := range m.accs {
			switch {
			case a.known && a.loc == l:
				g = gcd(gcd(g, a.off), a.size)
			case !a.known && a.base == l:
				g = gcd(g, a.size)
				if a.offs == nil {
					g = 1
				}
				for _, o := range a.offs {
					if o >= 0 && o+a.size <= m.locSize[l] {
						g = gcd(g, o)
					}
				}
			}
		}
		if len(m.cells[l]) > 0 {
			g = gcd(g, m.elem[l]) // the observed cells are whole chunks
		}
		m.grain[l] = g
		if n := m.locSize[l] / g; n > maxDynamicChunks {
			m.errs.Add(m.sizedAt(l), fmt.Sprintf(m.unsupported()+"location %s has %d bytes and an access reaches it at an offset computed at run time: %d chunks of %d bytes (at most %d)", l, m.locSize[l], n, g, maxDynamicChunks))
		}
	}
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// cutChunks cuts each location at its ends and at the ends of every
// access to it (at every byte with splitBytes).
func (m *mixedLowering) cutChunks() {
	bounds := map[string]map[int64]bool{}
	for _, l := range m.locs {
		bounds[l] = map[int64]bool{0: true, m.locSize[l]: true}
	}
	for _, a := range m.accs {
		if a.known {
			bounds[a.loc][a.off] = true
			bounds[a.loc][a.off+a.size] = true
		}
	}
	for l, is := range m.cells {
		for _, i := range is {
			bounds[l][i*m.elem[l]] = true
			bounds[l][(i+1)*m.elem[l]] = true
		}
	}
	for _, l := range m.locs {
		if splitBytes || m.dynamic[l] {
			g := m.grain[l]
			if splitBytes {
				g = 1
			}
			for b := g; b < m.locSize[l]; b += g {
				bounds[l][b] = true
			}
		}
	}
	m.chunks = map[string][]a64Chunk{}
	for _, l := range m.locs {
		var bs []int64
		for b := range bounds[l] {
			bs = append(bs, b)
		}
		sort.Slice(bs, func(i, j int) bool { return bs[i] < bs[j] })
		for i := 0; i+1 < len(bs); i++ {
			c := a64Chunk{bs[i], bs[i+1] - bs[i]}
			if m.arrays[l] && !m.dynamic[l] && !m.accessed(l, c) && !m.observed(l, c) {
				// The cells of an array that no access touches and
				// the condition does not read: no location for them.
				continue
			}
			m.chunks[l] = append(m.chunks[l], c)
		}
	}
}

// observed tells whether chunk c of array l is in a cell the condition
// reads.
func (m *mixedLowering) observed(l string, c a64Chunk) bool {
	for _, i := range m.cells[l] {
		if e := m.elem[l]; i*e <= c.off && c.off+c.size <= (i+1)*e {
			return true
		}
	}
	return false
}

// cellRef splits a cell "a[i]" of the condition into a and i.
func cellRef(name string) (string, int64, bool) {
	k := strings.IndexByte(name, '[')
	if k <= 0 || !strings.HasSuffix(name, "]") {
		return "", 0, false
	}
	i, err := strconv.ParseInt(name[k+1:len(name)-1], 10, 64)
	if err != nil || i < 0 {
		return "", 0, false
	}
	return name[:k], i, true
}

// accessed tells whether an access of the test covers chunk c of l.
func (m *mixedLowering) accessed(l string, c a64Chunk) bool {
	for _, a := range m.accs {
		if a.known && a.loc == l && a.off <= c.off && c.off+c.size <= a.off+a.size {
			return true
		}
	}
	return false
}

// covered lists the chunks access a covers, in order.
func (m *mixedLowering) covered(a a64Access) []a64Chunk {
	var out []a64Chunk
	if !a.known {
		// One chunk of the location's grain after the other, at
		// offsets from the access's address (a.off is 0).
		g := m.grain[a.base]
		if splitBytes {
			g = 1
		}
		for k := int64(0); k < a.size; k += g {
			out = append(out, a64Chunk{k, g})
		}
		return out
	}
	for _, c := range m.chunks[a.loc] {
		if c.off >= a.off && c.off+c.size <= a.off+a.size {
			out = append(out, c)
		}
	}
	return out
}
