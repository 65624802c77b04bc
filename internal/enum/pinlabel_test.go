package enum

import (
	"regexp"
	"testing"

	"github.com/musket-verify/musket/internal/randtext"
)

// TestPinLabel checks pinLabel against the regular expression it stands
// for.
func TestPinLabel(t *testing.T) {
	re := regexp.MustCompile(`^[a-z]+: ([RW])[^\[]*\[([^\]]+)\]`)
	texts := []string{"", "c: R.rx[flag0]=0", "a: W[x]=1", "a: W[]=1", "a: R", "A: W[x]", "ab:W[x]", "a: X[x]", "a: W.a[b[c]]", "a: R]x[y]"}
	alphabet := "ab: RW[]x.="
	for k, s := range randtext.Texts(alphabet, 5000, 12, 1) {
		// Two in three start as a label does.
		texts = append(texts, []string{"", "c: R", "ab: W"}[k%3]+s)
	}
	for _, s := range texts {
		var want, got []string
		if m := re.FindStringSubmatch(s); m != nil {
			want = m[1:]
		}
		if k, loc, ok := pinLabel(s); ok {
			got = []string{string(k), loc}
		}
		if len(got) != len(want) || len(got) == 2 && (got[0] != want[0] || got[1] != want[1]) {
			t.Errorf("pinLabel(%q) = %q, the expression gives %q", s, got, want)
		}
	}
}
