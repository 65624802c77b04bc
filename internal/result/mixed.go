package result

import (
	"slices"
	"strings"

	"github.com/musket-verify/musket/internal/spec"
)

// Unchunk shows the final states of a mixed-size test (whose locations the
// front-end split into chunks, t.Chunks) with whole locations again: the
// observed chunks "x", "x+4" of x become one x, whose value is assembled
// little-endian from them, in the states, the witness and the candidate
// executions of an explanation; and the condition is printed as the test wrote
// it (t.CondLine). The refs of an unsigned 64-bit type are marked
// (r.Unsigned), for herd prints them unsigned. The value of a location of a signed type narrower
// than 64 bits is sign-extended from its size, as herd prints it (an
// int8_t holding the byte 0xff is -1).
func Unchunk(r *Result, t *spec.Test) {
	if r == nil {
		return
	}
	markUnsigned(r, t)
	r.Arrays = t.WholeArrays
	if !t.Mixed {
		return
	}
	unchunk(r, t)
}

// unchunk is Unchunk's work on a mixed-size test, in a function of its
// own: every test goes through Unchunk, few are mixed-size, and in
// WebAssembly V8 optimised the whole of it (10 KB of body, on the second
// pass over a folder of tests) for the few lines that run on the others.
//
//go:noinline
func unchunk(r *Result, t *spec.Test) {
	if t.CondLine != "" {
		r.Condition = t.CondLine
	}
	defer signExtend(r, t)
	// Which observed chunk belongs to which location, at which offset.
	type part struct {
		whole string
		off   int64
	}
	of := map[string]part{}
	for name, cell := range t.Cells {
		// The chunks of an observed array cell make the cell.
		for _, c := range t.Chunks[cell.Loc] {
			if c.Off >= cell.Off && c.Off+c.Size <= cell.Off+cell.Size {
				of[c.Loc] = part{name, c.Off - cell.Off}
			}
		}
	}
	for l, cs := range t.Chunks {
		if len(cs) < 2 {
			continue
		}
		for _, c := range cs {
			if _, inCell := of[c.Loc]; !inCell {
				of[c.Loc] = part{l, c.Off}
			}
		}
	}
	var obs []spec.Ref
	index := map[spec.Ref]int{}
	for _, ref := range r.Observed {
		if p, ok := of[ref.Name]; ok && !ref.IsReg() {
			ref = spec.Ref{Thread: -1, Name: p.whole}
		}
		if _, seen := index[ref]; !seen {
			index[ref] = len(obs)
			obs = append(obs, ref)
		}
	}
	if len(obs) == len(r.Observed) && len(of) == 0 {
		return
	}
	sorted := SortRefs(obs)
	pos := map[spec.Ref]int{}
	for i, ref := range sorted {
		pos[ref] = i
	}
	merge := func(s State) State {
		out := make(State, len(sorted))
		for i, ref := range r.Observed {
			v := s[i]
			if p, ok := of[ref.Name]; ok && !ref.IsReg() {
				k := pos[spec.Ref{Thread: -1, Name: p.whole}]
				out[k].Int |= v.Int << (8 * p.off)
				continue
			}
			out[pos[ref]] = v
		}
		return out
	}
	states := make([]State, len(r.States))
	for i, s := range r.States {
		states[i] = merge(s)
	}
	executions := []*Execution{r.Witness}
	if r.Explain != nil {
		for _, rj := range r.Explain.Rejected {
			executions = append(executions, rj.Execution)
		}
	}
	for _, e := range executions {
		if e != nil && len(e.State) == len(r.Observed) {
			e.State = merge(e.State)
		}
	}
	r.Observed = sorted
	r.States = SortStates(sorted, states)
}

// signedWidths gives the bits of each location of t whose declared type
// (int when none is declared, as in herd) is a signed integer type
// narrower than 64 bits.
func signedWidths(t *spec.Test) map[string]uint {
	types := map[string]string{}
	for _, e := range t.Init {
		if !e.Ref.IsReg() {
			types[e.Ref.Name] = e.Type
		}
	}
	out := map[string]uint{}
	for name, cell := range t.Cells {
		ty := strings.TrimSpace(types[cell.Loc])
		if i := strings.IndexByte(ty, '['); i >= 0 {
			ty = strings.TrimSpace(ty[:i]) // the type of the elements
		}
		if !strings.HasPrefix(ty, "uint") && !strings.HasPrefix(ty, "unsigned") && !strings.Contains(ty, "*") && cell.Size < 8 {
			out[name] = uint(8 * cell.Size)
		}
	}
	for l, cs := range t.Chunks {
		ty := strings.TrimSpace(types[l])
		if strings.HasPrefix(ty, "uint") || strings.HasPrefix(ty, "unsigned") || strings.ContainsAny(ty, "*[") {
			continue
		}
		var size int64
		for _, c := range cs {
			size = max(size, c.Off+c.Size)
		}
		if size > 0 && size < 8 {
			out[l] = uint(8 * size)
		}
	}
	return out
}

// signExtend sign-extends, in r's states and executions, the values of
// the locations of signed types narrower than 64 bits.
func signExtend(r *Result, t *spec.Test) {
	widths := signedWidths(t)
	if len(widths) == 0 {
		return
	}
	var cols []int
	var bits []uint
	for i, ref := range r.Observed {
		if w, ok := widths[ref.Name]; ok && !ref.IsReg() {
			cols, bits = append(cols, i), append(bits, w)
		}
	}
	if len(cols) == 0 {
		return
	}
	fix := func(s State) {
		for k, i := range cols {
			if i < len(s) && !s[i].IsAddr() {
				sh := 64 - bits[k]
				s[i].Int = s[i].Int << sh >> sh
			}
		}
	}
	for _, s := range r.States {
		fix(s)
	}
	executions := []*Execution{r.Witness}
	if r.Explain != nil {
		for _, rj := range r.Explain.Rejected {
			executions = append(executions, rj.Execution)
		}
	}
	for _, e := range executions {
		if e != nil && len(e.State) == len(r.Observed) {
			fix(e.State)
		}
	}
	r.States = SortStates(r.Observed, r.States)
}

// markUnsigned records in r.Unsigned the refs t declares with an
// unsigned 64-bit type.
func markUnsigned(r *Result, t *spec.Test) {
	for _, e := range t.Init {
		if e.Type == "" {
			continue // most entries: no type, and no fields to join
		}
		switch strings.Join(strings.Fields(e.Type), " ") {
		case "uint64_t", "unsigned long", "unsigned long long", "unsigned long int", "__u64", "u64":
			if !slices.Contains(r.Unsigned, e.Ref) {
				r.Unsigned = append(r.Unsigned, e.Ref)
			}
		}
	}
}
