package bmc

import (
	"testing"

	"github.com/musket-verify/musket/internal/cat"
)

// TestMonotoneGroup: a let rec is left to the least-fixpoint encoding
// only when every recursive name occurs at a position that keeps
// inclusion; otherwise it is iterated as herd7 does (kleene.go).
func TestMonotoneGroup(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"let rec r = po | r ; r", true},
		{"let rec a = po | b and b = a ; rf", true},
		{"let rec r = po \\ rf | r^-1 | [domain(r)] | r+ | r* | r? | (r & loc)", true},
		{"let rec r = po \\ r", false},
		{"let rec r = ~r & po", false},
		{"let rec r = ~~r & po", true},
		{"let rec u = R \\ domain(m) and m = m | ([u] ; po)", false},
		{"let f x = x\nlet rec r = po | f(r)", false},
		{"let rec r = po | (if \"v\" then r else 0)", true},
	} {
		f, err := cat.ParseFile("m.cat", []byte("\"m\"\n"+tc.src+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		var binds []*cat.Binding
		for _, s := range f.Stmts {
			if l, ok := s.(*cat.LetStmt); ok && l.Rec {
				binds = l.Binds
			}
		}
		if binds == nil {
			t.Fatalf("%s: no let rec", tc.src)
		}
		if got := monotoneGroup(binds); got != tc.want {
			t.Errorf("%s: monotone %v, want %v", tc.src, got, tc.want)
		}
	}
}
