package symexec

import (
	"sort"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// Start is what an engine that explores a test's threads path by path
// computes before the first path: the refs the test observes, the
// initial state and the memory locations.
type Start struct {
	// Obs are the refs of the test's locations [...] and of its final
	// condition, each once, in result.SortRefs's order.
	Obs []spec.Ref
	// Mem is the initial value of each location the test initialises.
	Mem map[string]prog.Value
	// Regs is, per thread, the initial value of each register the test
	// initialises.
	Regs []map[string]prog.Value
	// Locs are the locations, sorted: those initialised, those whose
	// address is an initial value, the observed ones and those the code
	// names.
	Locs []string
}

// NewStart computes t's Start; the error is about an initial value of a
// register of a thread t does not have.
func NewStart(t *spec.Test) (*Start, error) {
	s := &Start{Mem: map[string]prog.Value{}, Regs: make([]map[string]prog.Value, len(t.Threads))}
	seen := map[spec.Ref]bool{}
	var obs []spec.Ref
	for _, ref := range append(append([]spec.Ref(nil), t.Locations...), spec.Refs(t.Cond)...) {
		if !seen[ref] {
			seen[ref] = true
			obs = append(obs, ref)
		}
	}
	s.Obs = result.SortRefs(obs)
	for i := range s.Regs {
		s.Regs[i] = map[string]prog.Value{}
	}
	locSet := map[string]bool{}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			if e.Ref.Thread >= len(t.Threads) {
				return nil, source.Errorf(e.Pos, "initial value for register of missing thread %d", e.Ref.Thread)
			}
			s.Regs[e.Ref.Thread][e.Ref.Name] = e.Val
		} else {
			s.Mem[e.Ref.Name] = e.Val
			locSet[e.Ref.Name] = true
		}
		if e.Val.IsAddr() {
			locSet[e.Val.Loc] = true
		}
	}
	for _, ref := range s.Obs {
		if !ref.IsReg() {
			locSet[ref.Name] = true
		}
	}
	for _, th := range t.Threads {
		for _, in := range th.Code {
			for _, v := range prog.AddrConsts(in) {
				locSet[LocName(v)] = true
			}
		}
	}
	for l := range locSet {
		s.Locs = append(s.Locs, l)
	}
	sort.Strings(s.Locs)
	return s, nil
}
