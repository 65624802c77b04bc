package enum

import (
	"math/rand"
	"regexp"
	"testing"
)

// TestPinLabel checks pinLabel against the regular expression it stands
// for.
func TestPinLabel(t *testing.T) {
	re := regexp.MustCompile(`^[a-z]+: ([RW])[^\[]*\[([^\]]+)\]`)
	texts := []string{"", "c: R.rx[flag0]=0", "a: W[x]=1", "a: W[]=1", "a: R", "A: W[x]", "ab:W[x]", "a: X[x]", "a: W.a[b[c]]", "a: R]x[y]"}
	alphabet := "ab: RW[]x.="
	r := rand.New(rand.NewSource(1))
	for range 5000 {
		b := make([]byte, r.Intn(12))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		if i := r.Intn(3); i > 0 {
			texts = append(texts, []string{"", "c: R", "ab: W"}[i]+string(b))
		} else {
			texts = append(texts, string(b))
		}
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
