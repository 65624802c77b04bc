package litmus

import (
	"errors"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/symexec"
)

// bigTest is an X86 test of threads columns and rows rows of stores.
func bigTest(threads, rows int) []byte {
	var b strings.Builder
	b.WriteString("X86 big\n{ x=0; }\n")
	for i := range threads {
		if i > 0 {
			b.WriteString(" |")
		}
		b.WriteString(" P" + itoa(i))
	}
	b.WriteString(" ;\n")
	row := strings.Repeat(" MOV [x],$1 |", threads-1) + " MOV [x],$1 ;\n"
	for range rows {
		b.WriteString(row)
	}
	b.WriteString("exists (x=1)\n")
	return []byte(b.String())
}

// TestCodeLimits checks that a thread table past MaxThreadCode
// instructions in a thread or MaxTestCode in all is refused, as it is
// read, with a limit (result.ErrLimit) that names the place, and that a
// table at the bounds parses.
func TestCodeLimits(t *testing.T) {
	if MaxThreadCode != symexec.MaxCode {
		t.Errorf("MaxThreadCode %d, symexec.MaxCode %d: the parser should refuse what the explicit engine refuses", MaxThreadCode, symexec.MaxCode)
	}
	for _, c := range []struct {
		threads, rows int
		want          string // "" for no error
	}{
		{2, MaxThreadCode, ""},
		{2, MaxThreadCode + 1, "big.litmus:65540:2: thread P0 has more than 65536 instructions"},
		{4, MaxTestCode / 4, ""},
		{5, MaxTestCode/5 + 1, "instructions in all"},
		{0, MaxInit, ""},
		{0, MaxInit + 1, "the initial state has more than 65536 entries"},
	} {
		var src []byte
		if c.threads > 0 {
			src = bigTest(c.threads, c.rows)
		} else { // an initial state of c.rows entries
			var b strings.Builder
			b.WriteString("X86 init\n{")
			for i := range c.rows {
				b.WriteString(" x" + itoa(i) + "=0;")
			}
			b.WriteString(" }\n P0 ;\n MOV [x0],$1 ;\nexists (x0=1)\n")
			src = []byte(b.String())
		}
		_, err := ParseUnhashed("big.litmus", src)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%d×%d: %v", c.threads, c.rows, err)
		case c.want == "":
		case err == nil || !errors.Is(err, result.ErrLimit) || !strings.Contains(err.Error(), c.want):
			t.Errorf("%d×%d: error %v, want a limit with %q", c.threads, c.rows, err, c.want)
		}
	}
}
