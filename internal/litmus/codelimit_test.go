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
		checkLimit(t, c.threads, c.rows, c.want, err)
	}
	// An array past maxArray cells (robust7: "bad array size", exit
	// status 2); a size of 0 stays bad input.
	for _, c := range []struct{ src, want string }{
		{"C arr\n{ int x[1000000000]; }\nP0(int *x) { x[5] = 1; }\nexists (x[5]=1)\n", "big.litmus:2:9: array x has 1000000000 cells, more than 4096: too large to check"},
		{"AArch64 arr\n{ int x[4097]; 0:X1=x; }\n P0 ;\n MOV W0,#1 ;\n STR W0,[X1] ;\nexists (x=1)\n", "array x has 4097 cells, more than 4096"},
		{"AArch64 arr\n{ int x[4096]; 0:X1=x; }\n P0 ;\n MOV W0,#1 ;\n STR W0,[X1] ;\nexists (x=1)\n", ""},
	} {
		_, err := ParseUnhashed("big.litmus", []byte(c.src))
		checkLimit(t, 0, 0, c.want, err)
	}
	if _, err := ParseUnhashed("big.litmus", []byte("C arr\n{ int x[0]; }\nP0(int *x) { x[0] = 1; }\nexists (x[0]=1)\n")); err == nil || errors.Is(err, result.ErrLimit) || !strings.Contains(err.Error(), `bad array size "0"`) {
		t.Errorf("size 0: %v, want bad input", err)
	}
}

// checkLimit checks err, the parse of a test (threads×rows, or 0×0 for
// another), against want: "" for no error, else a limit with want in it.
func checkLimit(t *testing.T, threads, rows int, want string, err error) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%d×%d: %v", threads, rows, err)
	case want == "":
	case err == nil || !errors.Is(err, result.ErrLimit) || !strings.Contains(err.Error(), want):
		t.Errorf("%d×%d: error %v, want a limit with %q", threads, rows, err, want)
	}
}
