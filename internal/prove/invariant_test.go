package prove

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestInvariantLanguage parses invariants and evaluates them on register
// values, and checks the errors the parser gives.
func TestInvariantLanguage(t *testing.T) {
	regs := map[string]bool{"o1": true, "o2": true, "R1": true}
	cases := []struct {
		src  string
		env  known
		want int64
		err  string
	}{
		{"0:o1=0", known{"o1": prog.IntValue(0)}, 1, ""},
		{"0:o1==0", known{"o1": prog.IntValue(2)}, 0, ""},
		{"0:o1 != 0", known{"o1": prog.IntValue(2)}, 1, ""},
		{"0:o1<>2", known{"o1": prog.IntValue(2)}, 0, ""},
		{"0:o1>=0 /\\ 0:o1<3", known{"o1": prog.IntValue(2)}, 1, ""},
		{"0:o1>=0 /\\ 0:o1<3", known{"o1": prog.IntValue(3)}, 0, ""},
		{"0:o1>=0 /\\ 0:o1<3", known{"o1": prog.IntValue(-1)}, 0, ""},
		{"0:o1 <= 0:o2", known{"o1": prog.IntValue(1), "o2": prog.IntValue(1)}, 1, ""},
		{"0:o1 > 0:o2 + 1", known{"o1": prog.IntValue(2), "o2": prog.IntValue(1)}, 0, ""},
		{"0:o1 - 0:o2 = -1", known{"o1": prog.IntValue(1), "o2": prog.IntValue(2)}, 1, ""},
		{"(0:o1 + 1) = 2", known{"o1": prog.IntValue(1)}, 1, ""},
		{"~(0:o1=1 \\/ 0:o1=2)", known{"o1": prog.IntValue(2)}, 0, ""},
		{"not 0:o1=1 && 0:o2=0", known{"o1": prog.IntValue(0), "o2": prog.IntValue(0)}, 1, ""},
		{"(0:o1=1) \\/ (0:o2=1)", known{"o1": prog.IntValue(0), "o2": prog.IntValue(1)}, 1, ""},
		{"true", known{}, 1, ""},
		{"false \\/ true /\\ false", known{}, 0, ""},
		{"0:R1=x", known{"R1": prog.AddrValue("x")}, 1, ""},
		{"0:R1=y", known{"R1": prog.AddrValue("x")}, 0, ""},
		{"0:o1=", nil, 0, "1:6: expected a value"},
		{"0:o1", nil, 0, "1:5: expected a comparison"},
		{"0:o1=1 0:o2=1", nil, 0, "1:8: unexpected \"0:o2\""},
		{"1:o1=0", nil, 0, "may only mention registers of P0, found 1:o1"},
		{"0:o9=0", nil, 0, "P0 has no register o9"},
		{"x=1", nil, 0, "shared memory has no value"},
		{"[x]=1", known{memReg("x"): prog.IntValue(1)}, 1, ""},
		{"[x] = 0:o1 + 1 /\\ [y] < 2", known{memReg("x"): prog.IntValue(3), "o1": prog.IntValue(2), memReg("y"): prog.IntValue(1)}, 1, ""},
		{"[x=1", nil, 0, "expected ']'"},
		{"[1]=1", nil, 0, "expected a location in [ ]"},
		{"0:o1 # 1", nil, 0, "1:6: unexpected \"#\""},
		{"(0:o1=1", nil, 0, "expected ')'"},
	}
	for _, c := range cases {
		e, _, err := parseInv(c.src, 0, 0, regs, func(col int) prog.Pos { return prog.Pos{Line: 1, Col: col + 1} })
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one containing %q", c.src, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		v, ok := eval(e, c.env)
		if !ok || v != prog.IntValue(c.want) {
			t.Errorf("%q with %v: %v (known %v), want %d", c.src, c.env, v, ok, c.want)
		}
	}
}
