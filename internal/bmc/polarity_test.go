package bmc

import (
	"testing"

	"github.com/musket-verify/musket/internal/cat"
)

// TestPolarity: a monotone let rec is encoded one way (implied by its
// definition) only when every check and flag that reaches it wants it
// small; a flag that wants it big, a negated check, a difference that
// takes it away, a comparison, a function or a procedure keep the
// equivalence.
func TestPolarity(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"acyclic r as c", true},
		{"let s = r ; po\nirreflexive s as c", true},
		{"let s = po \\ (rf \\ r)\nacyclic s as c", true},
		{"let s = po \\ r\nacyclic s as c", false},
		{"let s = ~r\nempty s as c", false},
		{"~empty r as c", false},
		{"flag ~empty r as f", false},
		{"flag ~empty (po \\ r) as f", true},
		{"let s = po \\ r\nflag ~empty s as f", true},
		{"empty r as c\nflag ~empty r as f", false},
		{"let s = [domain(r)] ; po\nacyclic s as c", true},
		{"let f x = x ; po\nacyclic f(r) as c", false},
		{"procedure p(x) = acyclic x end\ncall p(r)", false},
		{"let s = r\nlet s = po \\ s\nacyclic s as c", false},
		{"let s = po \\ r\nlet s = rf\nacyclic s as c", true},
		{"if \"v\" let s = po \\ r else let s = r end\nacyclic s as c", false},
		{"let t = r\nundefined_unless empty (po \\ t) as u\nacyclic t as c", true},
		// undefined_unless raises undef when its test fails: a bigger
		// value raises it more easily.
		{"undefined_unless empty r as u", false},
		{"undefined_unless ~empty r as u", true},
		{"", true},
	} {
		src := "\"m\"\nlet rec r = po | r ; r\n" + tc.src + "\n"
		f, err := cat.ParseFile("m.cat", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		var binds []*cat.Binding
		for _, s := range f.Stmts {
			if l, ok := s.(*cat.LetStmt); ok && l.Rec {
				binds = l.Binds
			}
		}
		if got := analysePolarity(f.Stmts).smallOnly(binds); got != tc.want {
			t.Errorf("%q: one way %v, want %v", tc.src, got, tc.want)
		}
	}
	// A let rec that is not monotone is iterated and asked whether it
	// settled: never one way.
	f, err := cat.ParseFile("m.cat", []byte("\"m\"\nlet rec r = po \\ r\nacyclic r as c\n"))
	if err != nil {
		t.Fatal(err)
	}
	if analysePolarity(f.Stmts).smallOnly(f.Stmts[0].(*cat.LetStmt).Binds) {
		t.Error("a let rec that is not monotone is encoded one way")
	}
}
