package cat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTypeErrors: a set where a relation is needed, or the reverse, is
// refused when the model loads, at the operator or operand that is wrong.
func TestTypeErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"T\nacyclic W\n", "m.cat:2:9: acyclic needs a relation, found W (an event set)"},
		{"T\nirreflexive R & W as x\n", "m.cat:2:15: irreflexive needs a relation, found an event set"},
		{"T\nlet a = po | R\n", "m.cat:2:12: | of po (a relation) and R (an event set)"},
		{"T\nlet a = W & rf\n", "m.cat:2:11: & of W (an event set) and rf (a relation)"},
		{"T\nlet a = po \\ M\n", `m.cat:2:12: \ of po (a relation) and M (an event set)`},
		{"T\nlet a = W ; po\n", "m.cat:2:9: ; needs a relation, found W (an event set)"},
		{"T\nlet a = po * R\n", "m.cat:2:9: the cartesian product * needs an event set, found po (a relation)"},
		{"T\nlet a = W*\n", "m.cat:2:9: * needs a relation, found W (an event set)"},
		{"T\nlet a = R+\n", "m.cat:2:9: + needs a relation, found R (an event set)"},
		{"T\nlet a = F?\n", "m.cat:2:9: ? needs a relation, found F (an event set)"},
		{"T\nlet a = W^-1\n", "m.cat:2:9: ^-1 needs a relation, found W (an event set)"},
		{"T\nlet a = [po]\n", "m.cat:2:10: [...] needs an event set, found po (a relation)"},
		{"T\nlet s = domain(po)\nacyclic s\n", "m.cat:3:9: acyclic needs a relation, found s (an event set)"},
		{"T\nlet a = range(W)\n", "m.cat:2:15: range needs a relation, found W (an event set)"},
		{"T\nlet a = domain(W)\n", "m.cat:2:16: domain needs a relation, found W (an event set)"},
		{"T\nlet f(x) = [x] ; po\nlet a = f(W) | W\n", "m.cat:3:14: | of a relation and W (an event set)"},
		{"T\nlet a = ~W\nacyclic a\n", "m.cat:3:9: acyclic needs a relation, found a (an event set)"},
		{"T\nlet c = po po\n", "m.cat:2:9: po (a relation) is not a function"},
		{"T\nlet f x = x ; R\n", "m.cat:2:15: ; needs a relation, found R (an event set)"},
		{"T\nif \"v\" let a = W else let a = R end\nacyclic a\n", "m.cat:3:9: acyclic needs a relation, found a (an event set)"},
		{"T\nlet rec a = a | W\nacyclic a\n", "m.cat:3:9: acyclic needs a relation, found a (an event set)"},
		{"T\nprocedure p(x) = acyclic W end\n", "m.cat:2:26: acyclic needs a relation, found W (an event set)"},
		{"T\nlet a = let b = W in b ; po\n", "m.cat:2:22: ; needs a relation, found b (an event set)"},
	} {
		_, err := modelFrom(t, tc.src, LoadOptions{})
		if err == nil || !strings.HasSuffix(dropDirs(err.Error()), tc.want) {
			t.Errorf("%q:\n got %v\nwant ...%s", tc.src, err, tc.want)
		}
	}
}

// TestTypeAccepted: what cannot be told without running the model is
// accepted: parameters, 0 and _, tags, names the execution may give
// either way, rebound inputs, try, variants with different kinds.
func TestTypeAccepted(t *testing.T) {
	for _, src := range []string{
		"T\nlet f(x) = x | x\nlet a = f(W)\nlet b = f(po)\nacyclic b\nempty a\n",
		"T\nlet id2(x) = x\nacyclic id2(po)\nempty id2(W)\n",
		"T\nlet a = 0 | W\nlet b = 0 ; po\nlet c = _ * W\nacyclic 0\nacyclic _ & po\n",
		"T\nlet W = po\nacyclic W\n",
		"T\nacyclic MYTAG\nlet x = MYTAG ; po\nlet y = MYTAG & W\n",
		"T\nlet a = try W ; po with po\nacyclic a\n",
		"T\nif \"v\" let a = W else let a = po end\nempty a\n",
		"T\nenum E = 'a || 'b\nlet f m = match m with || 'a -> po || _ -> W end\nempty f('a)\n",
		"T\nempty W\nempty po\nflag ~empty W & R as wr\n",
		"T\nlet rec f x = f x ; po\nacyclic f(po)\n",
		"T\nlet s = {po, rf}\nlet u = W ++ 0\nforall r in s do acyclic r end\n",
		"T\nlet a = [W] ; po ; [R]\nlet b = (W * R) & po\nlet c = domain(po) | range(rf)\nacyclic a | b\n",
		"T\nwith c from {po, rf}\nacyclic c\n",
		"T\nlet fencerel(B) = (po & (_ * B)) ; po\nlet m = fencerel(F)\nacyclic m\n",
	} {
		if _, err := modelFrom(t, src, LoadOptions{}); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestTypeCorpusBells: every .bell of the corpus, read as the bell of the
// model beside it (or alone), passes the static check; so do the
// built-in models (TestEvaluateCorpus and the models tests load the
// .cat files).
func TestTypeCorpusBells(t *testing.T) {
	root := "../../../shared/corpus/cat"
	bells, _ := filepath.Glob(root + "/*/*.bell")
	if len(bells) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("corpus missing under CI")
		}
		t.Skip("corpus not available")
	}
	for _, b := range bells {
		model := strings.TrimSuffix(b, ".bell") + ".cat"
		if _, err := os.Stat(model); err != nil {
			src, _ := os.ReadFile(b)
			if _, err := modelFrom(t, string(src), LoadOptions{}); err != nil {
				t.Errorf("%s: %v", b, err)
			}
			continue
		}
		if _, err := Load(model, LoadOptions{Bell: b, IncludeDirs: []string{herdDir}}); err != nil {
			t.Errorf("%s with %s: %v", model, b, err)
		}
	}
	for _, b := range Builtins() {
		if _, err := LoadBuiltin(b.Name); err != nil {
			t.Errorf("built-in %s: %v", b.Name, err)
		}
	}
}
