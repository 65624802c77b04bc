package param

import "math/bits"

// guardIndex narrows the compiled instances whose guard may hold in a
// state (compiled.go) before their guards are evaluated. Most guards of
// a protocol test control cells against constants (ProcCmd[#1] =
// NODE_Get, UniMsg_Cmd[#2] = UNI_PutX, Dir_Pending = False): every such
// literal "cell = constant" or "cell <> constant" of a guard that is one
// conjunction keys its instance by that cell, and a state rules out at
// once, by one look-up per key cell, the instances with a literal on the
// cell that its value makes false. A cell whose value is unknown (an
// abstract sample's, under which the test may hold) rules out nothing.
// The candidates are the instances of a bitset, so they come in the
// order of the instances, the order in which compiledSuccessors tries
// them: the successors and their order are those without the index (an
// instance left out has a conjunct false in the state, so its guard
// does not hold, in exact mode, and is triFalse in abstract mode, where
// a literal over known values is as in exact mode). FLASH's instance
// with two processes has about 250 transition instances, of which a
// state enables a handful; the sample (absexplore.go) evaluated every
// guard of every state. Keying an instance by the first such literal of
// its guard only left four times as many candidates as enabled
// instances, whose guards the successors evaluated in vain.
type guardIndex struct {
	n     int // instances
	words int
	cells []int32 // the key cells
	// rows[base[k]+v*words:][:words] (v < nvals[k]): the instances that
	// a state with cells[k] = v does not rule out; row nvals[k]: those
	// that a known value outside 0..nvals[k]-1 does not rule out (no
	// literal "cells[k] = constant")
	base  []int
	nvals []int64
	rows  []uint64
	acc   []uint64
}

// maxKeyValue bounds the constants of the indexed literals
// (enumerations, booleans, processes: small); a literal with a constant
// outside 0..maxKeyValue-1 is left to the guard.
const maxKeyValue = 64

// keyLit is an indexed literal: cell = val (ne false) or cell <> val.
type keyLit struct {
	cell int32
	val  int64
	ne   bool
}

// guardKeys appends the literals of in's guard that the index takes: if
// the guard is one conjunction, its literals "cell = constant" and "cell
// <> constant" (the cell without offset, the constant in
// 0..maxKeyValue-1).
func guardKeys(in *cInst, out []keyLit) []keyLit {
	if len(in.guard) != 1 {
		return out
	}
	for _, l := range in.guard[0].lits {
		if l.op != Eq && l.op != Ne {
			continue
		}
		c, k := l.l, l.r
		if c.cell < 0 {
			c, k = k, c
		}
		if c.cell >= 0 && c.val == 0 && k.cell == cConst && k.val >= 0 && k.val < maxKeyValue {
			out = append(out, keyLit{c.cell, k.val, l.op == Ne})
		}
	}
	return out
}

// guardKey returns the cell and value of the first literal of in's guard
// that is a test cell = constant, if the guard is one conjunction.
func guardKey(in *cInst) (cell int32, val int64, ok bool) {
	for _, k := range guardKeys(in, nil) {
		if !k.ne {
			return k.cell, k.val, true
		}
	}
	return 0, 0, false
}

// newGuardIndex indexes insts; nil when too few of them have a key for
// the index to pay: at least two instances per cell of a first "cell =
// constant" literal, and half the instances with such a literal.
func newGuardIndex(insts []cInst) *guardIndex {
	first := map[int32]bool{}
	keyed := 0
	for i := range insts {
		if c, _, ok := guardKey(&insts[i]); ok {
			first[c] = true
			keyed++
		}
	}
	if len(first) == 0 || keyed < 2*len(first) || 2*keyed < len(insts) {
		return nil
	}
	g := &guardIndex{n: len(insts), words: (len(insts) + 63) / 64}
	slot := map[int32]int{}
	keys := make([][]keyLit, len(insts))
	for i := range insts {
		keys[i] = guardKeys(&insts[i], nil)
		for _, kl := range keys[i] {
			k, seen := slot[kl.cell]
			if !seen {
				k = len(g.cells)
				slot[kl.cell] = k
				g.cells = append(g.cells, kl.cell)
				g.nvals = append(g.nvals, 0)
			}
			g.nvals[k] = max(g.nvals[k], kl.val+1)
		}
	}
	g.base = make([]int, len(g.cells))
	size := 0
	for k := range g.cells {
		g.base[k] = size
		size += int(g.nvals[k]+1) * g.words
	}
	g.rows = make([]uint64, size)
	for i := range g.rows {
		g.rows[i] = ^uint64(0)
	}
	for i, kls := range keys {
		w, b := i/64, uint64(1)<<uint(i%64)
		for _, kl := range kls {
			k := slot[kl.cell]
			for v := int64(0); v <= g.nvals[k]; v++ {
				// v = nvals[k]: a value other than every constant
				holds := v == kl.val
				if kl.ne {
					holds = !holds
				}
				if !holds {
					g.rows[g.base[k]+int(v)*g.words+w] &^= b
				}
			}
		}
	}
	g.acc = make([]uint64, g.words)
	return g
}

// candidates calls fn, in order, with the instances that st does not
// rule out.
func (g *guardIndex) candidates(st []int64, fn func(i int)) {
	acc := g.acc
	for w := range acc {
		acc[w] = ^uint64(0)
	}
	words := g.words
	for k, c := range g.cells {
		v := st[c]
		if v == unknown {
			continue
		}
		if v < 0 || v > g.nvals[k] {
			v = g.nvals[k]
		}
		row := g.rows[g.base[k]+int(v)*words:][:words]
		for w := range acc {
			acc[w] &= row[w]
		}
	}
	for w, x := range acc {
		for x != 0 {
			i := w*64 + bits.TrailingZeros64(x)
			x &= x - 1
			if i >= g.n {
				return
			}
			fn(i)
		}
	}
}

// clone returns a copy of g with a buffer of its own (nil for nil): the
// rows are shared, read only.
func (g *guardIndex) clone() *guardIndex {
	if g == nil {
		return nil
	}
	c := *g
	c.acc = make([]uint64, g.words)
	return &c
}
