package fix

import "testing"

// TestLockScratch: the register a locked store borrows is the first of
// x86Scratch the test does not use, found once per test (it was searched
// again for every store: fix never ended on a test of 10 000 stores).
func TestLockScratch(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{" MOV [x],$1 | MOV [y],$1 ;"}, "EDI"},
		{[]string{" MOV EDI,[x] | MOV esi,[y] ;"}, "EBP"},
		{[]string{"EDI ESI EBP EDX ECX EBX EAX"}, ""},
	} {
		s := &litmusSubject{text: &Text{Lines: c.lines}}
		if got := s.lockScratch(); got != c.want {
			t.Errorf("%q: %q, want %q", c.lines, got, c.want)
		}
		s.text.Lines = []string{"EDI ESI EBP EDX ECX EBX EAX"}
		if got := s.lockScratch(); got != c.want {
			t.Errorf("%q: the second call gave %q, want the first's %q", c.lines, got, c.want)
		}
	}
}
