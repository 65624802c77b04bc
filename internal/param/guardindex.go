package param

import "math/bits"

// guardIndex narrows the compiled instances whose guard may hold in a
// state (compiled.go) before their guards are evaluated. Most guards of
// a protocol start with a test of a control cell against a constant
// (ProcCmd[#1] = NODE_Get, UniMsg_Cmd[#2] = UNI_PutX): the instance of
// such a guard is keyed by that cell and value, and a state rules out at
// once, by one look-up per key cell, the instances keyed by a value its
// cell does not hold. A cell whose value is not one of a key (an
// abstract sample's unknown, under which the test may hold) rules out
// nothing. The candidates are the instances of a bitset, so
// they come in the order of the instances, the order in which
// compiledSuccessors tries them: the successors and their order are
// those without the index (an instance left out has a conjunct false in
// the state, so its guard does not hold). FLASH's instance with two
// processes has about 250 transition instances, of which a state
// enables a handful; the sample (absexplore.go) evaluated every guard
// of every state.
type guardIndex struct {
	n     int // instances
	words int
	cells []int32 // the key cells
	// allowed[k][v]: the instances that a state with cells[k] = v
	// does not rule out
	allowed [][][]uint64
	acc     []uint64
}

// maxKeyValue bounds the values of a key (enumerations, booleans,
// processes: small).
const maxKeyValue = 64

// guardKey returns the cell and value of the first literal of in's guard
// that is a test cell = constant, if the guard is one conjunction.
func guardKey(in *cInst) (cell int32, val int64, ok bool) {
	if len(in.guard) != 1 {
		return 0, 0, false
	}
	for _, l := range in.guard[0].lits {
		if l.op != Eq {
			continue
		}
		c, k := l.l, l.r
		if c.cell < 0 {
			c, k = k, c
		}
		if c.cell >= 0 && c.val == 0 && k.cell == cConst && k.val >= 0 && k.val < maxKeyValue {
			return c.cell, k.val, true
		}
	}
	return 0, 0, false
}

// newGuardIndex indexes insts; nil when too few of them have a key for
// the index to pay.
func newGuardIndex(insts []cInst) *guardIndex {
	g := &guardIndex{n: len(insts), words: (len(insts) + 63) / 64}
	slot := map[int32]int{}
	type key struct {
		k int
		v int64
	}
	keys := make([]key, len(insts))
	keyed := 0
	for i := range insts {
		keys[i] = key{-1, 0}
		c, v, ok := guardKey(&insts[i])
		if !ok {
			continue
		}
		k, seen := slot[c]
		if !seen {
			k = len(g.cells)
			slot[c] = k
			g.cells = append(g.cells, c)
		}
		keys[i] = key{k, v}
		keyed++
	}
	// one look-up per key cell must save more than it costs: at least
	// two keyed instances per key cell, and half the instances keyed
	if len(g.cells) == 0 || keyed < 2*len(g.cells) || 2*keyed < len(insts) {
		return nil
	}
	g.allowed = make([][][]uint64, len(g.cells))
	for k := range g.cells {
		g.allowed[k] = make([][]uint64, maxKeyValue)
		for v := range g.allowed[k] {
			g.allowed[k][v] = make([]uint64, g.words)
		}
	}
	for i, ky := range keys {
		w, b := i/64, uint64(1)<<uint(i%64)
		for k := range g.cells {
			if ky.k != k {
				for v := range g.allowed[k] {
					g.allowed[k][v][w] |= b
				}
			} else {
				g.allowed[k][ky.v][w] |= b
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
	for k, c := range g.cells {
		v := st[c]
		if v < 0 || v >= maxKeyValue {
			continue
		}
		row := g.allowed[k][v]
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
