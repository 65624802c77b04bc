package cat

import (
	"slices"
	"testing"
)

func TestFlagNames(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"m\nacyclic po\n", nil},
		{"m\nflag ~empty po as a\nflag ~empty rf as b\nflag ~empty po as a\n", []string{"a", "b"}},
		{"m\nflag ~empty po\n", nil},
		{"m\nif \"v\" then flag ~empty po as inner else flag ~empty rf as other end\n", []string{"inner", "other"}},
		{"m\nprocedure p(r) = flag ~empty r as inproc end\ncall p(po)\n", []string{"inproc"}},
	}
	for _, tc := range tests {
		m, err := modelFrom(t, tc.src, LoadOptions{})
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if got := FlagNames(m); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.src, got, tc.want)
		}
	}
	for _, name := range []string{"c11", "rc11", "imm"} {
		m, err := LoadBuiltin(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := FlagNames(m); !slices.Contains(got, "data-race") {
			t.Errorf("%s: flags %v, want data-race among them", name, got)
		}
	}
}
