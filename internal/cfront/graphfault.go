package cfront

import (
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// Invalid memory accesses under the graph engine.
//
// The SMT engine sees an access outside every object through narrow's
// failure branch, numbered among p.Asserts ("invalid memory access").
// The graph engine computes addresses and needs no narrowing: it stops a
// thread at such an access with the failure register set
// (graph.Options.Fault), and only an execution the model accepts reports
// it. The failure is numbered below zero, -1 for the first place met,
// in a table of the run's own: p.Asserts is not written, since the SMT
// engine may be narrowing the same program beside it (-engine auto).

// faultAssertions gives graph.Options.Fault for test q: each place
// (thread's instruction position) a fault is met gets the next negative
// number, its assertion appended to *table. The same place in two
// threads (a thread's copies) gets one number.
func faultAssertions(q *spec.Test, table *[]Assertion) func(thread, pc int) prog.Value {
	return numberedFaults(q, table, map[Assertion]int{}, "invalid memory access")
}

// numberedFaults is faultAssertions for failures that read text; num
// holds the numbers given, by assertion, and may be shared by several
// texts numbered in one table (a use after free, graph.go).
func numberedFaults(q *spec.Test, table *[]Assertion, num map[Assertion]int, text string) func(thread, pc int) prog.Value {
	f := numberedAt(q, table, num)
	return func(thread, pc int) prog.Value { return f(thread, pc, text) }
}

// uafFaults is numberedFaults for the uses after free of p, whose text
// names the object when it is a local or a thread-local copy whose
// lifetime ended (lifetime.go).
func uafFaults(p *Program, q *spec.Test, table *[]Assertion, num map[Assertion]int) func(thread, pc int, loc string) prog.Value {
	f := numberedAt(q, table, num)
	return func(thread, pc int, loc string) prog.Value {
		text := p.lifetimeText(loc)
		if text == "" {
			text = "use after free"
		}
		return f(thread, pc, text)
	}
}

// numberedAt numbers the failure of text at a thread's instruction.
func numberedAt(q *spec.Test, table *[]Assertion, num map[Assertion]int) func(thread, pc int, text string) prog.Value {
	return func(thread, pc int, text string) prog.Value {
		var pos prog.Pos
		if thread >= 0 && thread < len(q.Threads) && pc < len(q.Threads[thread].Pos) {
			pos = q.Threads[thread].Pos[pc]
		}
		a := Assertion{Pos: pos, Text: text}
		n, ok := num[a]
		if !ok {
			*table = append(*table, a)
			n = len(*table)
			num[a] = n
		}
		return prog.IntValue(int64(-n))
	}
}

// graphFailed is failedAssertion for a run of the graph engine whose
// faults are numbered in table.
func graphFailed(p *Program, r *result.Result, table []Assertion) *Assertion {
	if r.Witness == nil {
		return nil
	}
	for i, ref := range r.Observed {
		if ref.Name == failReg && i < len(r.Witness.State) {
			if n := -r.Witness.State[i].Int; n >= 1 && int(n) <= len(table) {
				a := table[n-1]
				return &a
			}
		}
	}
	return failedAssertion(p, r)
}
