package litmus

import (
	"math/rand"
	"regexp"
	"testing"
)

// TestHasThreadTable checks hasThreadTable against the regular expression
// it stands for.
func TestHasThreadTable(t *testing.T) {
	re := regexp.MustCompile(`(?m)^[ \t]*P0[ \t]*[|;(]`)
	texts := []string{"", "P0|", " \tP0 ;", "x\nP0(", "xP0|", "P0", "P0\n|", "P1 | P0 ;", "\n\n  P0\t\t(int* x)", "P 0|", "P00|"}
	alphabet := "P0 \t|;(\nx1"
	r := rand.New(rand.NewSource(1))
	for range 5000 {
		b := make([]byte, r.Intn(12))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		if got, want := hasThreadTable([]byte(s)), re.MatchString(s); got != want {
			t.Errorf("hasThreadTable(%q) = %v, the expression gives %v", s, got, want)
		}
	}
}
