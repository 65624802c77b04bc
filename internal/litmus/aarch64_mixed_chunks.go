package litmus

import (
	"fmt"
	"sort"
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
	chunks  map[string][]a64Chunk
}

// unsupported is the start of every message of the lowering.
func (m *mixedLowering) unsupported() string { return "unsupported mixed-size " + m.arch + " test: " }

// posOf is the position of the instruction of access a.
func (m *mixedLowering) posOf(a a64Access) prog.Pos {
	if th := m.t.Threads[a.thread]; a.pc < len(th.Pos) {
		return th.Pos[a.pc]
	}
	return prog.Pos{}
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
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			if e.Val.IsAddr() {
				m.addLoc(e.Val.Loc)
			}
			continue
		}
		m.addLoc(e.Ref.Name)
		m.initVal[e.Ref.Name] = e.Val
		if strings.Contains(e.Type, "[") {
			m.errs.Add(e.Pos, fmt.Sprintf(m.unsupported()+"location %s is an array (%s)", e.Ref.Name, e.Type))
			m.arrays[e.Ref.Name] = true
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
		if !r.IsReg() {
			m.addLoc(r.Name)
		}
	}
	declared := map[string]bool{}
	for l, n := range m.locSize {
		declared[l] = n > 0
	}
	for _, a := range m.accs {
		if !a.known {
			m.errs.Add(m.posOf(a), m.unsupported()+"the address of this access is not known before running (chunks of locations are computed statically)")
			continue
		}
		if a.off%a.size != 0 {
			m.errs.Add(m.posOf(a), fmt.Sprintf(m.unsupported()+"misaligned %d-byte access at %s+%d", a.size, a.loc, a.off))
			continue
		}
		m.addLoc(a.loc)
		if a.off < 0 || declared[a.loc] && a.off+a.size > m.locSize[a.loc] {
			m.errs.Add(m.posOf(a), fmt.Sprintf(m.unsupported()+"access to bytes %d..%d of %s, which has %d", a.off, a.off+a.size-1, a.loc, m.locSize[a.loc]))
			continue
		}
		if !declared[a.loc] && a.off+a.size > m.locSize[a.loc] {
			m.locSize[a.loc] = a.off + a.size
		}
	}
	for _, l := range m.locs {
		if !declared[l] && m.locSize[l] < 4 {
			m.locSize[l] = 4 // an untyped location is an int
		}
		if m.locSize[l] > 8 && !m.arrays[l] {
			m.errs.Add(prog.Pos{}, fmt.Sprintf(m.unsupported()+"location %s has %d bytes (more than a register)", l, m.locSize[l]))
		}
	}
}

// cutChunks cuts each location at its ends and at the ends of every
// access to it (at every byte with splitBytes).
func (m *mixedLowering) cutChunks() {
	bounds := map[string]map[int64]bool{}
	for _, l := range m.locs {
		bounds[l] = map[int64]bool{0: true, m.locSize[l]: true}
	}
	for _, a := range m.accs {
		bounds[a.loc][a.off] = true
		bounds[a.loc][a.off+a.size] = true
	}
	if splitBytes {
		for _, l := range m.locs {
			for b := int64(1); b < m.locSize[l]; b++ {
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
			m.chunks[l] = append(m.chunks[l], a64Chunk{bs[i], bs[i+1] - bs[i]})
		}
	}
}

// covered lists the chunks access a covers, in order.
func (m *mixedLowering) covered(a a64Access) []a64Chunk {
	var out []a64Chunk
	for _, c := range m.chunks[a.loc] {
		if c.off >= a.off && c.off+c.size <= a.off+a.size {
			out = append(out, c)
		}
	}
	return out
}
