package report

import (
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// herdStatesBySort is herdStates' order as it was computed with
// sort.SliceStable: the reference for TestHerdOrderAsSort.
func herdStatesBySort(r *result.Result) ([]int, []result.State) {
	idx := make([]int, len(r.Observed))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := r.Observed[idx[i]], r.Observed[idx[j]]
		if a.IsReg() != b.IsReg() {
			return a.IsReg()
		}
		if !a.IsReg() {
			return a.String() < b.String()
		}
		if a.Thread != b.Thread {
			return a.Thread < b.Thread
		}
		return regLess(r.Arch, a.Name, b.Name)
	})
	states := append([]result.State(nil), r.States...)
	sort.SliceStable(states, func(i, j int) bool {
		for _, k := range idx {
			a, b := states[i][k], states[j][k]
			if a != b {
				return valueLess(a, b)
			}
		}
		return false
	})
	return idx, states
}

// TestHerdOrderAsSort compares herdStates' order of refs and states with
// sort.SliceStable's on random results: registers of several
// architectures and threads, locations, integer and address values,
// repeated states.
func TestHerdOrderAsSort(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	regs := map[string][]string{"X86": {"EAX", "EBX", "ECX", "EDI", "ESP"}, "RISCV": {"x5", "x6", "x10", "x9"}, "PPC": {"r1", "r2", "r10", "r31"}, "C": {"r0", "a", "tmp"}}
	locs := []string{"x", "y", "z", "buf"}
	for n := range 3000 {
		arch := []string{"X86", "RISCV", "PPC", "C"}[n%4]
		r := &result.Result{Arch: arch}
		for range 1 + rng.Intn(5) {
			if rng.Intn(3) == 0 {
				r.Observed = append(r.Observed, spec.Ref{Thread: -1, Name: locs[rng.Intn(len(locs))]})
			} else {
				rs := regs[arch]
				r.Observed = append(r.Observed, spec.Ref{Thread: rng.Intn(3), Name: rs[rng.Intn(len(rs))]})
			}
		}
		for range rng.Intn(12) {
			s := make(result.State, len(r.Observed))
			for k := range s {
				switch rng.Intn(4) {
				case 0:
					s[k] = prog.AddrValue(locs[rng.Intn(len(locs))])
				case 1:
					s[k] = prog.Value{Loc: locs[rng.Intn(len(locs))], Int: int64(rng.Intn(3))}
				default:
					s[k] = prog.IntValue(int64(rng.Intn(5) - 1))
				}
			}
			r.States = append(r.States, s)
		}
		order := herdOrder(r)
		wantOrder, want := herdStatesBySort(r)
		if !slices.Equal(order, wantOrder) {
			t.Fatalf("case %d (%s, refs %v): herdOrder %v, sort.SliceStable %v", n, arch, r.Observed, order, wantOrder)
		}
		// herdStates prints the states: each of the reference's states
		// printed alone gives the lines expected, in its order.
		got := herdStates(r)
		lines := make([]string, len(want))
		for i, s := range want {
			one := &result.Result{Arch: arch, Observed: r.Observed, States: []result.State{s}}
			lines[i] = herdStates(one)[0]
		}
		if !slices.Equal(got, lines) {
			t.Fatalf("case %d (%s, order %v): herdStates\n%q\nsort.SliceStable\n%q", n, arch, order, got, lines)
		}
	}
}
