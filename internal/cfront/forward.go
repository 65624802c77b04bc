package cfront

import (
	"context"
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Forwarding a thread's own stores to its own loads.
//
// The SMT engine keeps values as unbounded integers: a product, quotient
// or remainder of two values it does not know when encoding is non-linear
// arithmetic, where Z3 often gives no answer in minutes even on a program
// of one path. In C the commonest source of such values is a thread
// reading back variables only it writes: -O1 keeps those loads (the
// race-keeping compile step forbids it to drop them), and each one is a
// value the encoding does not know, chosen by rf among the thread's
// stores.
//
// Every model Musket checks C programs under is coherent (SC per
// location: sc, tso, pso, c11, rc11, imm, the Linux kernel's model and the
// hardware models): a read of a cell that no other thread writes reads
// the last store of its own thread before it in program order, or the
// cell's initial value. ownStores finds, with the address analysis of
// mixed.go, the cells that only one thread writes, each store by a plain
// store at that one address; it keeps the last value stored in a
// register of the thread (set at each such store, and at the start to the
// initial value), and gives each load of such a cell at that one address
// the register's value. The load stays (its event, its races, its order
// under the model) and its value stays a dependency of the register it
// sets (r = v + ((l == l) − 1), l the value read, a false dependency as
// the compiled code's is a true one), so that hardware models keep their
// dependency order. The engines then compute the thread's own arithmetic
// from constants.
//
// The analysis is only trusted when every access's address is an object
// of the program (no integer used as an address); otherwise nothing is
// rewritten. Cells that may hold an address are not forwarded. The
// parts of an access cut into parts (mixed sizes) are accesses of their
// chunks, each a location: they are forwarded per chunk, and the rewrite
// keeps an instance's parts consecutive (its assignments go before or
// after the whole instance), so tearing.go still finds the instance. A
// model given as a .cat file may not be coherent: the rewrite is only
// made for the built-in models (coherentModel).

// coherentModel tells whether a model name is one of the built-in models,
// all coherent.
func coherentModel(name string) bool {
	switch strings.ToLower(name) {
	case "sc", "tso", "x86", "x86-tso", "pso", "c11", "rc11", "imm", "aarch64", "arm8", "armv8",
		"power", "ppc", "riscv", "rvwmo", "lkmm", "linux-kernel":
		return true
	}
	return false
}

// cellKey names a cell: an object and an offset.
type cellKey struct {
	obj string
	off int64
}

// ownStores rewrites t (a copy) as above; t itself is not changed. When
// ctx ends before the analysis does, t is returned as it is (an analysis
// stopped halfway is no fixpoint, and the engine then stops at once).
func ownStores(ctx context.Context, t *spec.Test) *spec.Test {
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			return t
		}
	}
	m := initialAnalysis(ctx, t)
	init := map[cellKey]prog.Value{}
	for _, e := range t.Init {
		o, off := splitOff(e.Ref.Name)
		init[cellKey{o, off}] = e.Val
	}
	sizes := make([][]int64, len(t.Threads))
	for ti, th := range t.Threads {
		sizes[ti] = make([]int64, len(th.Code))
		m.env = append(m.env, map[string]*aval{})
	}
	m.run(t, sizes)
	if ctx.Err() != nil {
		return t
	}
	exact := func(a *aval) (cellKey, bool) {
		if a == nil || a.anyInt || len(a.ints) > 0 || len(a.ptrs) != 1 {
			return cellKey{}, false
		}
		for o, offs := range a.ptrs {
			if len(offs) != 1 {
				return cellKey{}, false
			}
			for off := range offs {
				if off == anyOff {
					return cellKey{}, false
				}
				return cellKey{o, off}, true
			}
		}
		return cellKey{}, false
	}
	// owner[c]: the one thread that writes c (by plain stores at c
	// alone), or -1.
	owner := map[cellKey]int{}
	bad := map[cellKey]bool{}
	badObj := map[string]bool{}
	for k, a := range m.addrs {
		if a.anyInt {
			return t // an integer used as an address
		}
		for v := range a.ints {
			if v != 0 {
				return t
			}
		}
		code := t.Threads[k[0]].Code
		in := code[k[1]]
		// (A part of an access cut into parts is an access of its own
		// chunk, a location of its own: coherence holds per chunk. The
		// rewrite below keeps an instance's parts consecutive, as
		// tearing.go reads them.)
		switch in.(type) {
		case prog.Load:
			continue
		case prog.Store:
			if c, ok := exact(a); ok {
				if w, seen := owner[c]; seen && w != k[0] {
					bad[c] = true
				}
				owner[c] = k[0]
				continue
			}
			if v := m.vals[k]; v != nil && len(v.ptrs) == 0 && !hasNull(a) {
				// A store at one of a few cells, of an integer: each
				// cell's register follows it by a case (below).
				some := false
				for o, offs := range a.ptrs {
					for off := range offs {
						if off == anyOff {
							badObj[o] = true
						}
						c := cellKey{o, off}
						if w, seen := owner[c]; seen && w != k[0] || init[c].IsAddr() {
							bad[c] = true
						}
						owner[c] = k[0]
						some = true
					}
				}
				if some {
					continue
				}
			}
		}
		// Any other write (an RMW, a store-conditional, a store whose
		// address is not one cell): none of its cells is forwarded.
		for o, offs := range a.ptrs {
			for off := range offs {
				if off == anyOff {
					badObj[o] = true
				}
				bad[cellKey{o, off}] = true
			}
		}
	}
	// owned tells which thread writes c; a cell no thread writes keeps
	// its initial value, for every thread (-1).
	owned := func(c cellKey) (int, bool) {
		if bad[c] || badObj[c.obj] || init[c].IsAddr() || holdsAddr(m, c) {
			// (a pointer cell: its arithmetic is not the SMT engine's
			// trouble, and an address computed at encoding time must
			// stay the integer the engine makes of it)
			return 0, false
		}
		w, ok := owner[c]
		if !ok {
			return -1, true
		}
		return w, true
	}
	q := *t
	q.Threads = make([]*prog.Thread, len(t.Threads))
	n := 0
	for ti, th := range t.Threads {
		reg := map[cellKey]string{}
		var starts []prog.Instr
		var code []prog.Instr
		var pos []prog.Pos
		// One instruction instance: an access and the parts that follow
		// it. What the rewrite puts before a part goes before the whole
		// instance, what it puts after goes after it, so that the parts
		// stay consecutive (tearing.go and the target mappings read an
		// instance so). A part's value and address only use registers set
		// before the instance, and its parts are at different chunks.
		rewrote := false // an RMW rewritten by cases
		var pre, mid, post []prog.Instr
		var prePos, midPos, postPos []prog.Pos
		flush := func() {
			code = append(append(append(code, pre...), mid...), post...)
			pos = append(append(append(pos, prePos...), midPos...), postPos...)
			pre, mid, post = pre[:0], mid[:0], post[:0]
			prePos, midPos, postPos = prePos[:0], midPos[:0], postPos[:0]
		}
		shadow := func(c cellKey) string {
			r, ok := reg[c]
			if !ok {
				r = fmt.Sprintf("%%own.%d", len(reg)+1)
				reg[c] = r
				starts = append(starts, prog.Assign{Dst: r, Val: prog.Const{V: init[c]}})
			}
			return r
		}
		for pc, in := range th.Code {
			p := th.Pos[pc]
			if !prog.IsPart(in) {
				flush()
			}
			c, ok := exact(m.addrs[[2]int{ti, pc}])
			if ok {
				if w, mine := owned(c); !mine || w != ti && w != -1 {
					ok = false
				}
			}
			switch x := in.(type) {
			case prog.RMW:
				// A bitwise operation on an old value of a few known
				// integers: by cases (rmwcases.go).
				if a := m.addrs[[2]int{ti, pc}]; a != nil && len(a.ptrs) > 0 && !hasNull(a) {
					if y, split := rmwByCases(x, m.load(a, 0)); split {
						in, rewrote = y, true
					}
				}
			case prog.Store:
				if a := m.addrs[[2]int{ti, pc}]; !ok && a != nil && len(a.ptrs) > 0 && !hasNull(a) {
					// At one of several cells: each owned one's register
					// becomes the value when the address is its own,
					// r + (addr == c)·(v − r).
					var sets []prog.Instr
					for o, offs := range a.ptrs {
						for off := range offs {
							c := cellKey{o, off}
							if w, mine := owned(c); !mine || w != ti {
								continue
							}
							r := shadow(c)
							at := prog.Bin{Op: prog.OpEq, X: x.Addr, Y: prog.Const{V: prog.Value{Loc: o, Int: off}}}
							sets = append(sets, prog.Assign{Dst: r, Val: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: r},
								Y: prog.Bin{Op: prog.OpMul, X: at, Y: prog.Bin{Op: prog.OpSub, X: x.Val, Y: prog.Reg{Name: r}}}}})
						}
					}
					for _, s := range sets {
						pre, prePos = append(pre, s), append(prePos, p)
					}
				}
				if ok {
					r := shadow(c)
					pre, prePos = append(pre, prog.Assign{Dst: r, Val: x.Val}), append(prePos, p)
					x.Val = prog.Reg{Name: r}
					in = x
				}
			case prog.Load:
				if a := m.addrs[[2]int{ti, pc}]; !ok && x.Dst != "" && a != nil && len(a.ptrs) > 0 && !hasNull(a) {
					// At one of several cells, all of them this thread's
					// and holding integers: the sum of (addr == c)·r_c.
					var sum prog.Expr
					all := true
					for o, offs := range a.ptrs {
						for off := range offs {
							c := cellKey{o, off}
							if w, mine := owned(c); !mine || w != ti && w != -1 {
								all = false
							}
						}
					}
					if all {
						for o, offs := range a.ptrs {
							for off := range offs {
								at := prog.Bin{Op: prog.OpEq, X: x.Addr, Y: prog.Const{V: prog.Value{Loc: o, Int: off}}}
								sum = addExpr(sum, prog.Bin{Op: prog.OpMul, X: at, Y: prog.Reg{Name: shadow(cellKey{o, off})}})
							}
						}
						post, postPos = append(post, forwarded(&x, &n, sum)), append(postPos, p)
						in = x
					}
				}
				if ok && x.Dst != "" {
					post, postPos = append(post, forwarded(&x, &n, prog.Reg{Name: shadow(c)})), append(postPos, p)
					in = x
				}
			}
			mid, midPos = append(mid, in), append(midPos, p)
		}
		flush()
		if len(reg) == 0 && !rewrote {
			q.Threads[ti] = th
			continue
		}
		nt := *th
		p0 := prog.Pos{}
		if len(th.Pos) > 0 {
			p0 = th.Pos[0]
		}
		for range starts {
			pos = append([]prog.Pos{p0}, pos...)
		}
		nt.Code, nt.Pos = append(starts, code...), pos
		q.Threads[ti] = &nt
	}
	return &q
}

// hasNull tells whether an address may be an integer (null).
func hasNull(a *aval) bool { return a.anyInt || len(a.ints) > 0 }

// holdsAddr tells whether cell c may hold an address.
func holdsAddr(m *mixedAnalysis, c cellKey) bool {
	for k, v := range m.mem[c.obj] {
		if (k == c.off || k == anyOff) && len(v.ptrs) > 0 {
			return true
		}
	}
	return false
}

// forwarded renames the load x's destination to a fresh %read.N (n counts
// them) and returns the assignment that gives the old destination val
// plus a false dependency on the value read: val + ((l == l) - 1).
func forwarded(x *prog.Load, n *int, val prog.Expr) prog.Instr {
	*n++
	read := fmt.Sprintf("%%read.%d", *n)
	dst := x.Dst
	x.Dst = read
	l := prog.Reg{Name: read}
	same := prog.Bin{Op: prog.OpSub, X: prog.Bin{Op: prog.OpEq, X: l, Y: l}, Y: prog.Int(1)}
	return prog.Assign{Dst: dst, Val: prog.Bin{Op: prog.OpAdd, X: val, Y: same}}
}
