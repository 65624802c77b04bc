package result

import (
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// sortStatesByMap is SortStates as it was written, with a map from each
// state's line to the state and the lines sorted: the reference of
// TestSortAsBefore.
func sortStatesByMap(obs []spec.Ref, states []State) []State {
	names := make([]string, len(obs))
	for i, r := range obs {
		names[i] = r.String()
	}
	line := func(s State) string {
		var b strings.Builder
		for i, name := range names {
			b.WriteString(name)
			b.WriteByte('=')
			b.WriteString(s[i].String())
			b.WriteString("; ")
		}
		return b.String()
	}
	keyed := map[string]State{}
	for _, s := range states {
		keyed[line(s)] = s
	}
	keys := make([]string, 0, len(keyed))
	for k := range keyed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]State, len(keys))
	for i, k := range keys {
		out[i] = keyed[k]
	}
	return out
}

// sortRefsBySort is SortRefs as it was written, with sort.SliceStable.
func sortRefsBySort(refs []spec.Ref) []spec.Ref {
	out := append([]spec.Ref(nil), refs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.IsReg() != b.IsReg() {
			return a.IsReg()
		}
		if a.Thread != b.Thread {
			return a.Thread < b.Thread
		}
		return a.Name < b.Name
	})
	return out
}

// TestSortAsBefore compares SortStates and SortRefs with their former
// implementations on random refs (registers of several threads,
// locations, repeated names) and states (integers, addresses, repeated
// states, states that print alike).
func TestSortAsBefore(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	names := []string{"EAX", "r1", "r10", "x", "y", "a[1]"}
	locs := []string{"x", "y", "zz"}
	for n := range 5000 {
		var obs []spec.Ref
		for range rng.Intn(6) {
			th := -1
			if rng.Intn(3) > 0 {
				th = rng.Intn(3)
			}
			obs = append(obs, spec.Ref{Thread: th, Name: names[rng.Intn(len(names))]})
		}
		if got, want := SortRefs(obs), sortRefsBySort(obs); !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: SortRefs(%v) = %v, want %v", n, obs, got, want)
		}
		var states []State
		for range rng.Intn(15) {
			s := make(State, len(obs))
			for k := range s {
				switch rng.Intn(4) {
				case 0:
					s[k] = prog.AddrValue(locs[rng.Intn(len(locs))])
				case 1:
					s[k] = prog.Value{Loc: locs[rng.Intn(len(locs))], Int: int64(rng.Intn(2))}
				default:
					s[k] = prog.IntValue(int64(rng.Intn(12) - 2))
				}
			}
			states = append(states, s)
			if rng.Intn(4) == 0 {
				states = append(states, append(State(nil), s...))
			}
		}
		got, want := SortStates(obs, states), sortStatesByMap(obs, states)
		if len(got) != len(want) {
			t.Fatalf("case %d: SortStates gives %d states, the map %d", n, len(got), len(want))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("case %d: state %d: SortStates %v, the map %v", n, i, got[i], want[i])
			}
		}
	}
}
