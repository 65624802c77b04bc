package batch

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
)

// TestMachSize checks that a mixed-size test with an access smaller than
// the configuration's machsize is refused, as herd7 refuses it, and that
// other tests are accepted.
func TestMachSize(t *testing.T) {
	mixed := `AArch64 M
{ uint32_t x; 0:X1=x; }
 P0           ;
 MOV W0,#257  ;
 STRH W0,[X1] ;
 LDRB W2,[X1] ;
exists (0:X2=1)
`
	plain := `AArch64 P
{ 0:X1=x; }
 P0           ;
 MOV W0,#1    ;
 STR W0,[X1]  ;
exists (x=1)
`
	for _, tc := range []struct {
		name, src string
		unit      int
		err       string
	}{
		{"mixed, no machsize", mixed, 0, ""},
		{"mixed, byte", mixed, 1, ""},
		{"mixed, short", mixed, 2, "an access of 1 byte(s), smaller than the configuration's machsize (2 bytes)"},
		{"mixed, word", mixed, 4, "an access of 1 byte(s)"},
		{"one size, word", plain, 4, ""},
	} {
		lt, err := litmus.Parse("t.litmus", []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = checkMachSize(lt, tc.unit)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.err)
		}
	}
}
