package cat

import (
	"testing"
)

// TestIndexedInputs checks that an execution whose inputs are given by
// index (Execution.Inputs) gets the same outcomes as the one looked up by
// name, over the litmus shapes and several built-in models, each Check
// after the others (the memo keeps what it saw).
func TestIndexedInputs(t *testing.T) {
	for _, name := range []string{"sc", "tso", "power", "riscv"} {
		m, err := LoadBuiltin(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range shapes {
			b := build(t, sh.exec)
			byName := outcomes(t, m, b.x)
			x := *b.x
			x.Inputs = make([]Input, m.NumInputs())
			for k, v := range x.Rels {
				if i := m.InputIndex(k); i >= 0 {
					x.Inputs[i] = Input{Kind: RelInput, Rel: v}
				}
			}
			for k, v := range x.Sets {
				if i := m.InputIndex(k); i >= 0 {
					x.Inputs[i] = Input{Kind: SetInput, Set: v}
				}
			}
			byIndex := outcomes(t, m, &x)
			if got, want := summary(byIndex), summary(byName); got != want {
				t.Errorf("%s, %s: by index %q, by name %q", name, sh.name, got, want)
			}
			for i := range byName {
				for _, r := range []string{"co", "fr", "po", "ppo", "hb"} {
					a, okA := byName[i].Rel(r)
					c, okC := byIndex[i].Rel(r)
					if okA != okC || okA && !a.Equal(c) {
						t.Errorf("%s, %s, outcome %d: %s differs by index", name, sh.name, i, r)
					}
				}
			}
		}
	}
	tso, err := LoadBuiltin("tso")
	if err != nil {
		t.Fatal(err)
	}
	if tso.InputIndex("po") < 0 || tso.InputIndex("no-such-name") != -1 {
		t.Errorf("InputIndex: po %d, no-such-name %d", tso.InputIndex("po"), tso.InputIndex("no-such-name"))
	}
}
