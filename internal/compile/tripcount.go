package compile

import "github.com/musket-verify/musket/internal/prog"

// maxTrips is the largest trip count TripCounts reports: a loop that runs
// longer is left to the bound.
const maxTrips = 1024

// TripCounts finds the loops of th whose number of iterations is a
// constant: the loops of pthread_create and pthread_join, for (i = 0;
// i < N; i++) whatever its body does with memory. It maps the header
// label of each such loop (a label that backward jumps go to) to the
// number of times its body runs per entry, for UnrollThreadCounts.
//
// A forward constant propagation over the thread's control flow gives
// the registers that have one known value on every path into the loop
// (a register a load, read-modify-write, store-conditional or arbitrary
// value writes has none; nor one never written). The loop's body (from
// the header to its last backward jump) is then run on those values: the
// loop has a constant trip count when every conditional jump met is
// decided by known values until a jump (or the fall-through) leaves the
// body. A loop that can be entered other than through its header, or
// whose run meets a jump decided by memory (a spin loop, a loop nested in
// a loop of unknown count), is left out: the bound applies to it.
func TripCounts(th *prog.Thread) map[string]int {
	labels, err := th.Labels()
	if err != nil {
		return nil
	}
	code := th.Code
	// Headers: labels with a backward jump; region end: the last one.
	end := map[int]int{}
	for j, in := range code {
		if jmp, ok := in.(prog.Jump); ok {
			if h := labels[jmp.Target]; h <= j && j > end[h] {
				end[h] = j
			}
		}
	}
	if len(end) == 0 {
		return nil
	}
	in := propagate(code, labels)
	out := map[string]int{}
	for h, j := range end {
		entry, ok := entryState(code, labels, in, h, j)
		if !ok {
			continue
		}
		if n, ok := runBody(code, labels, entry, h, j); ok {
			out[code[h].(prog.Label).Name] = n
		}
	}
	return out
}

// cstate maps registers to their known values; a register not in it has
// no known value. A nil cstate is a point no path reaches.
type cstate map[string]prog.Value

func (s cstate) clone() cstate {
	c := make(cstate, len(s))
	for k, v := range s {
		c[k] = v
	}
	return c
}

// equal says whether s and t know the same registers with the same values.
func (s cstate) equal(t cstate) bool {
	if len(s) != len(t) {
		return false
	}
	for k, v := range s {
		if w, ok := t[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// meet keeps the registers s and t agree on; it tells whether s changed.
func meet(s *cstate, t cstate) bool {
	if t == nil {
		return false
	}
	if *s == nil {
		*s = t.clone()
		return true
	}
	changed := false
	for k, v := range *s {
		if w, ok := t[k]; !ok || w != v {
			delete(*s, k)
			changed = true
		}
	}
	return changed
}

// flow merges s, the state after an instruction, into the state of
// successor t: the first state to reach t is s itself, not a copy (s is
// the caller's to give: it must not be changed afterwards, and only one
// successor may take it: own says whether it still may). It tells
// whether t's state changed.
func flow(dst *cstate, s cstate, own *bool) bool {
	if *dst == nil && *own && s != nil {
		*dst = s
		*own = false
		return true
	}
	if *dst == nil && s != nil {
		*dst = s.clone()
		return true
	}
	return meet(dst, s)
}

// eval evaluates e where every register it reads is known.
func (s cstate) eval(e prog.Expr) (prog.Value, bool) {
	switch e := e.(type) {
	case prog.Const:
		return e.V, true
	case prog.Reg:
		v, ok := s[e.Name]
		return v, ok
	case prog.Bin:
		a, ok := s.eval(e.X)
		if !ok {
			return prog.Value{}, false
		}
		b, ok := s.eval(e.Y)
		if !ok {
			return prog.Value{}, false
		}
		v, err := prog.ApplyTotal(e.Op, a, b)
		return v, err == nil
	case prog.Un:
		a, ok := s.eval(e.X)
		if !ok {
			return prog.Value{}, false
		}
		v, err := prog.ApplyUnary(e.Op, a)
		return v, err == nil
	}
	return prog.Value{}, false
}

// step applies the register effect of a non-jump instruction to s.
func (s cstate) step(in prog.Instr) {
	if a, ok := in.(prog.Assign); ok {
		if v, ok := s.eval(a.Val); ok {
			s[a.Dst] = v
			return
		}
	}
	for _, d := range prog.Defs(in) {
		delete(s, d)
	}
}

// after returns the state after instruction in (a non-jump) from s, and
// whether it is a new map the caller owns: when in changes no known
// register (a store, a fence, a load into a register with no known
// value), it is s itself, which the caller must neither change nor
// give away.
func after(s cstate, in prog.Instr) (cstate, bool) {
	changes := false
	if a, ok := in.(prog.Assign); ok {
		if v, ok := s.eval(a.Val); ok {
			// step sets the register to v.
			if w, had := s[a.Dst]; had && w == v {
				return s, false
			}
			changes = true
		}
	}
	if !changes {
		// step forgets the registers in defines.
		for _, d := range prog.Defs(in) {
			if _, had := s[d]; had {
				changes = true
				break
			}
		}
	}
	if !changes {
		return s, false
	}
	c := s.clone()
	c.step(in)
	return c, true
}

// successors of instruction i under s: the indices control may go to
// (len(code) is the end of the thread).
func successors(code []prog.Instr, labels map[string]int, s cstate, i int) []int {
	jmp, ok := code[i].(prog.Jump)
	if !ok {
		return []int{i + 1}
	}
	t := labels[jmp.Target]
	if jmp.Cond == nil {
		return []int{t}
	}
	if v, ok := s.eval(jmp.Cond); ok {
		if prog.Truth(v) {
			return []int{t}
		}
		return []int{i + 1}
	}
	return []int{t, i + 1}
}

// propagate computes the state before each instruction (the constant
// propagation of Kildall, with jumps whose condition is known following
// one edge only).
func propagate(code []prog.Instr, labels map[string]int) []cstate {
	in := make([]cstate, len(code)+1)
	in[0] = cstate{}
	work := []int{0}
	queued := map[int]bool{0: true}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		queued[i] = false
		if i >= len(code) {
			continue
		}
		s, own := in[i], false
		if _, ok := code[i].(prog.Jump); !ok {
			s, own = after(in[i], code[i])
		}
		for _, t := range successors(code, labels, in[i], i) {
			if flow(&in[t], s, &own) && !queued[t] {
				queued[t] = true
				work = append(work, t)
			}
		}
	}
	return in
}

// entryState is the meet of the states on the edges into the loop
// [h..j] from outside it; false when some edge enters it elsewhere than
// at its header.
func entryState(code []prog.Instr, labels map[string]int, in []cstate, h, j int) (cstate, bool) {
	var entry cstate
	inside := func(i int) bool { return i >= h && i <= j }
	for i, ins := range code {
		if inside(i) || in[i] == nil {
			continue
		}
		s := in[i].clone()
		if _, ok := ins.(prog.Jump); !ok {
			s.step(ins)
		}
		for _, t := range successors(code, labels, in[i], i) {
			if !inside(t) {
				continue
			}
			if t != h {
				return nil, false
			}
			meet(&entry, s)
		}
	}
	return entry, entry != nil
}

// runBody runs the loop [h..j] from its header on the known values of
// entry and returns how many times its body runs at most before control
// leaves it. Each iteration is a constant propagation over the body from
// the header's state (jumps the known values do not decide go both ways,
// inner loops meet at their headers); the states on the edges back to
// the header meet into the next iteration's. The count is known when the
// jumps that decide whether to iterate again are decided by the values
// every path agrees on, until no edge goes back.
func runBody(code []prog.Instr, labels map[string]int, entry cstate, h, j int) (int, bool) {
	cur := entry
	budget := maxUnrolled
	for n := 1; n <= maxTrips; n++ {
		in := make([]cstate, j-h+1)
		in[0] = cur.clone()
		var next cstate
		work := []int{h}
		queued := map[int]bool{h: true}
		for len(work) > 0 {
			budget--
			if budget < 0 {
				return 0, false
			}
			i := work[len(work)-1]
			work = work[:len(work)-1]
			queued[i] = false
			s, own := in[i-h], false
			if _, ok := code[i].(prog.Jump); !ok {
				s, own = after(in[i-h], code[i])
			}
			for _, t := range successors(code, labels, in[i-h], i) {
				switch {
				case t < h || t > j:
					// Leaves the loop.
				case t == h:
					flow(&next, s, &own)
				default:
					if flow(&in[t-h], s, &own) && !queued[t] {
						queued[t] = true
						work = append(work, t)
					}
				}
			}
		}
		if next == nil {
			return n, true
		}
		if next.equal(cur) {
			// The next iteration starts from the same known values, so
			// it runs as this one did, and so does every later one: the
			// loop never leaves on known values (a spin loop, a jump
			// decided by memory), as maxTrips or the budget would find.
			return 0, false
		}
		cur = next
	}
	return 0, false
}
