package cat

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/rel"
)

// overNames are the relations an engine sets per candidate, which the
// explicit engine gives as Execution.Over.
var overNames = []string{"rf", "rfi", "rfe", "co", "coi", "coe", "fr", "fri", "fre"}

// withOver is x with overNames moved from Rels to Over; Rels keeps a
// wrong value (the empty relation) under each, which Over must hide.
func withOver(x *Execution) *Execution {
	y := *x
	y.Rels = make(map[string]rel.Rel, len(x.Rels))
	for k, v := range x.Rels {
		y.Rels[k] = v
	}
	y.Over = nil
	for _, k := range overNames {
		if v, ok := x.Rels[k]; ok {
			y.Over = append(y.Over, NamedRel{Name: k, Rel: v})
			y.Rels[k] = rel.NewRel(x.N)
		}
	}
	return &y
}

// byIndex is x with its inputs by index too (Execution.Inputs), as the
// explicit engine gives them.
func byIndex(m *Model, x *Execution) *Execution {
	y := *x
	y.Inputs = make([]Input, m.NumInputs())
	for i := range y.Inputs {
		name := m.InputName(i)
		if s, ok := x.Sets[name]; ok {
			y.Inputs[i] = Input{Kind: SetInput, Set: s}
		} else if r, ok := x.Rel(name); ok {
			y.Inputs[i] = Input{Kind: RelInput, Rel: r}
		}
	}
	return &y
}

// TestOverLikeRels checks that relations given as Execution.Over give
// the outcomes they give in Rels (verdicts, flags and relations), by
// name and by index, over every model of the tests and every built-in
// model, on the litmus shapes (with co, and without it for the models
// that bind it). cos-opt's pco and different-values read the
// execution's relations by name, not as inputs.
func TestOverLikeRels(t *testing.T) {
	type mcase struct {
		name     string
		m        *Model
		variants []string
		genCo    bool
	}
	var cases []mcase
	for _, mc := range modelCases {
		m, err := mc.load()
		if err != nil {
			t.Fatalf("%s: load: %v", mc.name, err)
		}
		cases = append(cases, mcase{mc.name, m, mc.variants, mc.genCo})
	}
	for _, b := range Builtins() {
		m, err := LoadBuiltin(b.Name)
		if err != nil {
			continue // a library file, not a model of its own
		}
		cases = append(cases, mcase{"builtin " + b.Name, m, nil, m.Binds("co")})
	}
	for _, mc := range cases {
		opts := CheckOptions{Variants: map[string]bool{}}
		for _, v := range mc.variants {
			opts.Variants[v] = true
		}
		for _, sh := range shapes {
			b := build(t, sh.exec)
			xs := []*Execution{b.x}
			if mc.genCo {
				xs = append(xs, b.withoutCo())
			}
			for _, x := range xs {
				want := checkText(t, mc.m, x, opts)
				over := withOver(x)
				if got := checkText(t, mc.m, over, opts); got != want {
					t.Errorf("%s, %s: with Over\n%s\nwant\n%s", mc.name, sh.name, got, want)
				}
				if got := checkText(t, mc.m, byIndex(mc.m, over), opts); got != want {
					t.Errorf("%s, %s: with Over, by index\n%s\nwant\n%s", mc.name, sh.name, got, want)
				}
			}
		}
	}
}

// checkText is the outcomes of x under m as text (outcomeText), or the
// error.
func checkText(t *testing.T, m *Model, x *Execution, opts CheckOptions) string {
	t.Helper()
	var out []string
	if err := m.Check(x, opts, func(o Outcome) bool { out = append(out, outcomeText(o)); return true }); err != nil {
		return "error: " + err.Error()
	}
	return strings.Join(out, "\n")
}
