package litmus

import (
	"errors"
	"fmt"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// lowerInit gives every chunk its initial value: one entry per chunk.
func (m *mixedLowering) lowerInit() {
	t := m.t
	var init []spec.InitEntry
	done := map[string]bool{}
	initChunks := func(l string, p prog.Pos) {
		if done[l] {
			return
		}
		done[l] = true
		v := m.initVal[l]
		b := m.bytes[l]
		for _, c := range m.chunks[l] {
			val := v.Int >> (8 * c.off) & sizeMask(c.size)
			if b != nil {
				// An array with values: the chunk's bytes.
				val = 0
				for k := c.size - 1; k >= 0; k-- {
					val = val<<8 | int64(b[c.off+k])
				}
			}
			init = append(init, spec.InitEntry{Ref: spec.Ref{Thread: -1, Name: chunkName(l, c.off)}, Val: prog.IntValue(val), Pos: p})
		}
	}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			init = append(init, e)
			continue
		}
		initChunks(e.Ref.Name, e.Pos)
	}
	for _, l := range m.locs {
		initChunks(l, prog.Pos{})
	}
	t.Init = init
}

// lowerFinal rewrites the condition, the filter and the locations list
// on the chunks, and records the chunks in the test.
func (m *mixedLowering) lowerFinal() error {
	t := m.t
	t.CondLine = t.ConditionLine()
	// The observed cells of arrays, shown whole in the final states.
	t.Cells = map[string]spec.Chunk{}
	for _, r := range append(append([]spec.Ref(nil), t.Locations...), append(spec.Refs(t.Cond), spec.Refs(t.Filter)...)...) {
		a, i, ok := cellRef(r.Name)
		if !ok {
			a, i = r.Name, 0 // an array named alone: its first cell
		}
		if !r.IsReg() && m.arrays[a] {
			t.Cells[r.Name] = spec.Chunk{Loc: a, Off: i * m.elem[a], Size: m.elem[a]}
		}
	}
	var cerr error
	if t.Cond != nil {
		t.Cond = m.lowerCond(t.Cond, &cerr)
	}
	if t.Filter != nil {
		t.Filter = m.lowerCond(t.Filter, &cerr)
	}
	var obs []spec.Ref
	for _, r := range t.Locations {
		if a, i, ok := cellRef(r.Name); ok && !r.IsReg() || !r.IsReg() && m.arrays[r.Name] {
			if !ok {
				a, i = r.Name, 0
			}
			for _, ch := range m.chunks[a] {
				if e := m.elem[a]; ch.off >= i*e && ch.off+ch.size <= (i+1)*e {
					obs = append(obs, spec.Ref{Thread: -1, Name: chunkName(a, ch.off)})
				}
			}
			continue
		}
		if cs := m.chunks[r.Name]; !r.IsReg() && len(cs) > 1 {
			for _, ch := range cs {
				obs = append(obs, spec.Ref{Thread: -1, Name: chunkName(r.Name, ch.off)})
			}
			continue
		}
		obs = append(obs, r)
	}
	t.Locations = obs
	t.Mixed = true
	t.Chunks = map[string][]spec.Chunk{}
	for _, l := range m.locs {
		for _, c := range m.chunks[l] {
			t.Chunks[l] = append(t.Chunks[l], spec.Chunk{Loc: chunkName(l, c.off), Off: c.off, Size: c.size})
		}
	}
	return cerr
}

// lowerCond rewrites a condition on the chunks: an atom on a location of
// several chunks is the conjunction of an atom per chunk. What cannot be
// rewritten is left as it is, with the error in *cerr (the last one).
func (m *mixedLowering) lowerCond(c spec.Cond, cerr *error) spec.Cond {
	switch c := c.(type) {
	case spec.And:
		return spec.And{L: m.lowerCond(c.L, cerr), R: m.lowerCond(c.R, cerr)}
	case spec.Or:
		return spec.Or{L: m.lowerCond(c.L, cerr), R: m.lowerCond(c.R, cerr)}
	case spec.Not:
		return spec.Not{C: m.lowerCond(c.C, cerr)}
	case spec.Atom:
		if a, i, ok := cellRef(c.Ref.Name); ok && !c.Ref.IsReg() {
			return m.lowerCell(c, a, i, cerr)
		}
		if !c.Ref.IsReg() && m.arrays[c.Ref.Name] {
			return m.lowerCell(c, c.Ref.Name, 0, cerr) // its first cell
		}
		cs := m.chunks[c.Ref.Name]
		if !c.Ref.IsReg() && len(cs) == 1 && cs[0].size < 8 && !c.Val.IsAddr() {
			// The chunk holds the bytes of its location: compare them
			// with those of the value (an int8_t y=-1 holds 0xff).
			c.Val = prog.IntValue(c.Val.Int & sizeMask(cs[0].size))
			return c
		}
		if c.Ref.IsReg() || len(cs) <= 1 {
			return c
		}
		if c.Val.IsAddr() {
			*cerr = fmt.Errorf(m.unsupported()+"the condition compares location %s, of %d chunks, with an address", c.Ref.Name, len(cs))
			return c
		}
		var out spec.Cond
		for _, ch := range cs {
			a := spec.Atom{Ref: spec.Ref{Thread: -1, Name: chunkName(c.Ref.Name, ch.off)}, Val: prog.IntValue(c.Val.Int >> (8 * ch.off) & sizeMask(ch.size))}
			if out == nil {
				out = a
			} else {
				out = spec.And{L: out, R: a}
			}
		}
		if c.Neq {
			return spec.Not{C: out}
		}
		return out
	case spec.RefEq:
		_, _, lc := cellRef(c.L.Name)
		_, _, rc := cellRef(c.R.Name)
		if lc && !c.L.IsReg() || rc && !c.R.IsReg() {
			*cerr = errors.New(m.unsupported() + "the condition compares two final values, one of an array cell")
		}
		if !c.L.IsReg() && len(m.chunks[c.L.Name]) > 1 || !c.R.IsReg() && len(m.chunks[c.R.Name]) > 1 {
			*cerr = errors.New(m.unsupported() + "the condition compares two final values, one of a location of several chunks")
		}
	}
	return c
}

// lowerCell rewrites an atom on cell i of array a: the conjunction of an
// atom per chunk of the cell's bytes, each on its part of the value.
func (m *mixedLowering) lowerCell(c spec.Atom, a string, i int64, cerr *error) spec.Cond {
	if c.Val.IsAddr() {
		*cerr = fmt.Errorf(m.unsupported()+"the condition compares array cell %s with an address", c.Ref.Name)
		return c
	}
	e := m.elem[a]
	var out spec.Cond
	for _, ch := range m.chunks[a] {
		if ch.off < i*e || ch.off+ch.size > (i+1)*e {
			continue
		}
		at := spec.Atom{Ref: spec.Ref{Thread: -1, Name: chunkName(a, ch.off)}, Val: prog.IntValue(c.Val.Int >> (8 * (ch.off - i*e)) & sizeMask(ch.size))}
		if out == nil {
			out = at
		} else {
			out = spec.And{L: out, R: at}
		}
	}
	if out == nil {
		*cerr = fmt.Errorf(m.unsupported()+"array cell %s has no bytes", c.Ref.Name)
		return c
	}
	if c.Neq {
		return spec.Not{C: out}
	}
	return out
}
