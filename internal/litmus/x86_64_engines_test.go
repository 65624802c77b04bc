package litmus_test

import (
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/result"
)

// TestX8664Litmus runs the litmus tests of testdata/x86_64 (herd's
// X86_64 dialect) under the built-in tso model with both engines; each
// file says why its verdict is the right one. 2+2W+sizes also checks
// that an int8_t location is printed signed.
func TestX8664Litmus(t *testing.T) {
	enums, tests := runEngineCases(t, "tso", "X86_64", "x86_64", 60*time.Second, []engineCase{
		{file: "SB+mfences", ok: false, states: 3},
		{file: "SB", ok: true, states: 4},
		{file: "XADD+lock", ok: false, states: 2},
		{file: "XADD", ok: true, states: 3},
		{file: "2+2W+sizes", ok: false, states: 3},
		{file: "ARRAY+index", ok: true, states: 1},
		{file: "NARROW", ok: true, states: 1},
		{file: "SHL", ok: true, states: 1},
	})
	if a, lt := enums["2+2W+sizes"], tests["2+2W+sizes"]; a != nil && len(a.States) == 3 {
		result.Unchunk(a, lt)
		if got := a.States[0]; got[len(got)-1].Int != 3 || a.States[1][1].Int != -3 {
			t.Errorf("2+2W+sizes: states %v, want y printed signed (-3)", a.States)
		}
	}
}
