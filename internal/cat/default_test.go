package cat

import (
	"testing"

	"github.com/musket-verify/musket/internal/rel"
)

// TestNoDefault checks hasDefault against fallback: a run looks no
// further for an input the execution lacks when hasDefault says fallback
// gives it nothing, so fallback must give nothing to every other name.
func TestNoDefault(t *testing.T) {
	m, err := LoadBuiltin("tso")
	if err != nil {
		t.Fatal(err)
	}
	x := &Execution{N: 3, Loc: []int{0, 0, -1},
		Sets: map[string]rel.Set{"R": rel.SetOf(3, 1), "W": rel.SetOf(3, 0), "IW": rel.SetOf(3, 0)},
		Rels: map[string]rel.Rel{"rmw": rel.NewRel(3)}}
	r := &run{m: m, x: x, n: 3, memo: m.getMemo(3)}
	names := []string{"MFENCE", "foo", "co", "rf", "po", "R", "W", "IW", "F", "rmw", "data", "addr", "ctrl", locInput}
	names = append(names, "id", "same-instance", "sm", "si", "Exp", "M", "amo", "loc", "pco", "co0")
	for name := range emptyByDefault {
		names = append(names, name)
	}
	for name := range emptyRelByDefault {
		names = append(names, name)
	}
	for _, name := range names {
		if v := r.fallback(name); v != nil && !hasDefault(name) {
			t.Errorf("fallback gives %s a value, but hasDefault says it has none", name)
		}
	}
	for i, no := range noDefaults(names) {
		if no && hasDefault(names[i]) {
			t.Errorf("noDefaults(%s) = true", names[i])
		}
	}
}
