package lazyre

import (
	"regexp"
	"sync"
	"testing"
)

// TestSameAsRegexp checks that a lazy expression answers as the
// compiled one, from several goroutines at its first use.
func TestSameAsRegexp(t *testing.T) {
	const expr = `^(\w+)\[(\d+)\]$`
	l, r := New(expr), regexp.MustCompile(expr)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := l.FindStringSubmatch("x[12]"); len(got) != 3 || got[1] != "x" || got[2] != "12" {
				t.Errorf("FindStringSubmatch = %q", got)
			}
		}()
	}
	wg.Wait()
	for _, s := range []string{"a[1]", "a[]", "[1]", "ab[34]x"} {
		if l.MatchString(s) != r.MatchString(s) {
			t.Errorf("MatchString(%q) differs", s)
		}
	}
	if l.String() != expr || l.Re() != l.Re() {
		t.Errorf("String or Re")
	}
}
