package bmc

// Single-event read-modify-writes (prog.RMW.Single: a RISC-V AMO, one
// memory operation in R and W as RVWMO and herd7 have it). The program
// encoding keeps a read and a write (the read's rf and value, the write's
// co place and value, the final state); the model sees one event, the
// read: the write's execution condition is false for the model (ops.exec),
// so that no set or relation of the model, complements included, holds
// it, and its pairs are moved to its read. The read is also in W. Pairs
// between the two halves (po, rmw, iico_data, fr from the read to its own
// write) disappear, and the read never reads from its own write
// (dataFlow). This is the quotient event.Fusion gives the explicit
// engine.

// fuseOf returns the model's event of event i: the read of a single
// read-modify-write's write, i itself otherwise.
func (e *encoding) fuseOf(i int) int {
	if ev := e.p.events[i]; ev.single != nil && ev.kind != ev.single.kind && ev.single.id < i {
		return ev.single.id
	}
	return i
}

// hasSingle tells whether the test has a single-event read-modify-write.
func (e *encoding) hasSingle() bool {
	for _, ev := range e.p.events {
		if ev.single != nil {
			return true
		}
	}
	return false
}

// fusePairs returns m with every single read-modify-write's write replaced
// by its read, the pairs inside one of them dropped (m itself when the
// test has none).
func (e *encoding) fusePairs(m map[[2]int]B) map[[2]int]B {
	if !e.hasSingle() {
		return m
	}
	out := make(map[[2]int]B, len(m))
	for k, b := range m {
		a, c := k[0], k[1]
		if a != c && e.p.events[a].single != nil && e.p.events[a].single.id == c {
			continue
		}
		k2 := [2]int{e.fuseOf(a), e.fuseOf(c)}
		if x, ok := out[k2]; ok {
			out[k2] = e.f.or(x, b)
		} else {
			out[k2] = b
		}
	}
	return out
}

// fuseRel is fusePairs on a relation.
func (e *encoding) fuseRel(r *Rel) *Rel {
	if !e.hasSingle() {
		return r
	}
	m := map[[2]int]B{}
	r.each(func(i, j int, b B) { m[[2]int{i, j}] = b })
	return relOfPairs(e.n, e.fusePairs(m))
}
