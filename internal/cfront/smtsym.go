package cfront

import "github.com/musket-verify/musket/internal/spec"

// smtSymmetry gives the SMT engine the symmetric threads of q (each
// thread's symmetric predecessor, as the graph engine's symmetry
// reduction finds them: symmetricThreads), under the built-in models
// for which bmc's symmetry breaking argues that the parent's fixed order
// of creations and joins does not matter (smtSymmetryModel), or nil.
// bmc checks, besides, that each question it is given is symmetric.
func smtSymmetry(q *spec.Test, asserts []Assertion, opts CheckOptions) []int {
	if opts.SMTNoSymmetry || opts.Liveness || opts.Races || opts.Engine == "enum" || !smtSymmetryModel(opts.Target, opts.ModelName) {
		return nil
	}
	sym, _ := symmetricThreads(q, asserts)
	if sym != nil && opts.ModelName == "aarch64" {
		sym = joinsAfterCreates(q, sym)
	}
	return sym
}

// smtSymmetryModel tells whether bmc's symmetry.go argues for the model
// on a program compiled for target: the parent's create (a release
// write) is ordered after every earlier event of the parent, and its
// join (an acquire read) before every later one, in the relation whose
// acyclicity the model asks for.
//   - Power (lwsync before the write, after the read) and RISC-V (fence
//     rw,w before, fence r,rw after), compiled for themselves: the
//     fences give the orders.
//   - ARMv8 compiled for aarch64: STLR and LDAR give them (bob's po;[L]
//     and [A];po). bob also orders a release write before every later
//     acquire read ([L];po;[A]), which Power's lwsync does not:
//     joinsAfterCreates keeps the groups for which that adds the same
//     edges from each of their start writes.
//   - x86-TSO (tso, x86tso), whatever the target: its ppo (po but a
//     write before a read) orders a start write after every earlier
//     event and a done read before every later one by itself, exactly
//     the pairs lwsync orders under Power, and it adds no other order on
//     them (mfence and locked instructions: symmetricThreads's quiet
//     parent has neither between the creations, nor between the joins).
//   - SC orders every pair.
//
// The other models go to the graph engine, which has its own reduction;
// the C11 models are checked for races by default, which turns this off.
func smtSymmetryModel(target, name string) bool {
	switch name {
	case "power", "riscv", "aarch64":
		return target == name
	case "tso", "x86tso", "sc":
		return true
	}
	return false
}

// joinsAfterCreates keeps, in sym, the groups of symmetric threads whose
// creations (writes of their start flags) all come before their joins
// (reads of their done flags) in main's code; the threads of the other
// groups get no predecessor. Under ARMv8 a start write is ordered before
// every later acquire read ([L];po;[A]); when no join of the group lies
// between its creations, and the parent accesses only its own plain
// locations and the group's flags there (symmetricThreads), the acquire
// reads after one start write of the group are those after every other,
// so that order gives each start write of the group the same edges, as
// bmc's argument needs.
func joinsAfterCreates(q *spec.Test, sym []int) []int {
	main := q.Threads[0]
	first := func(k int) (lastStart, firstDone int) {
		lastStart, firstDone = -1, len(main.Code)
		for i, in := range main.Code {
			for _, l := range accessed(in) {
				if l == startLoc(k) {
					lastStart = max(lastStart, i)
				}
				if l == doneLoc(k) {
					firstDone = min(firstDone, i)
				}
			}
		}
		return lastStart, firstDone
	}
	out := append([]int(nil), sym...)
	// A group is a chain of predecessors; its root has none.
	root := func(k int) int {
		for out[k] >= 0 {
			k = out[k]
		}
		return k
	}
	lastStart, firstDone := map[int]int{}, map[int]int{}
	for k := range sym {
		if sym[k] < 0 && !hasSucc(sym, k) {
			continue
		}
		r := root(k)
		s, d := first(k)
		if v, ok := lastStart[r]; !ok || s > v {
			lastStart[r] = s
		}
		if v, ok := firstDone[r]; !ok || d < v {
			firstDone[r] = d
		}
	}
	any := false
	roots := make([]int, len(sym))
	for k := range sym {
		roots[k] = root(k)
	}
	for k := range sym {
		r := roots[k]
		if lastStart[r] > firstDone[r] {
			out[k] = -1
		} else if out[k] >= 0 {
			any = true
		}
	}
	if !any {
		return nil
	}
	return out
}

// hasSucc tells whether some thread has k as its symmetric predecessor.
func hasSucc(sym []int, k int) bool {
	for _, p := range sym {
		if p == k {
			return true
		}
	}
	return false
}
