package cat

import (
	"fmt"
	"strings"
	"testing"
)

// outcomeText is an outcome as text: its verdict, flags and the value of a
// few names (the model's or the execution's).
func outcomeText(o Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %q %q %q", o.Accepted, o.Failed, o.Flags, o.Undefined)
	for _, name := range []string{"co", "fr", "rf", "po", "ppo", "com", "ghb", "implied", "R", "cosWW"} {
		if x, ok := o.Rel(name); ok {
			fmt.Fprintf(&b, " %s=%s", name, x)
		}
	}
	return b.String()
}

// TestTransientOutcomes compares the outcomes of Transient Checks, read
// during yield and made by one reused run, with lasting ones read after
// Check returns, on every model and shape, in an order that makes each
// Check follow one of another execution (and size).
func TestTransientOutcomes(t *testing.T) {
	for _, mc := range modelCases {
		m, err := mc.load()
		if err != nil {
			t.Fatalf("%s: load: %v", mc.name, err)
		}
		opts := CheckOptions{Variants: map[string]bool{}}
		for _, v := range mc.variants {
			opts.Variants[v] = true
		}
		var xs []*Execution
		for _, sh := range shapes {
			b := build(t, sh.exec)
			xs = append(xs, b.x)
			if mc.genCo {
				xs = append(xs, b.withoutCo())
			}
		}
		for round := range 3 {
			for i := range xs {
				x := xs[(i*5+round)%len(xs)]
				var lasting []Outcome
				if err := m.Check(x, opts, func(o Outcome) bool { lasting = append(lasting, o); return true }); err != nil {
					t.Fatalf("%s: %v", mc.name, err)
				}
				var want, got []string
				for _, o := range lasting {
					want = append(want, outcomeText(o))
				}
				topts := opts
				topts.Transient = true
				if err := m.Check(x, topts, func(o Outcome) bool { got = append(got, outcomeText(o)); return true }); err != nil {
					t.Fatalf("%s: %v", mc.name, err)
				}
				if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
					t.Errorf("%s, execution %d: transient outcomes\n%s\nwant\n%s", mc.name, i, g, w)
				}
			}
		}
	}
}
