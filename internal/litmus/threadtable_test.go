package litmus

import (
	"regexp"
	"testing"

	"github.com/musket-verify/musket/internal/randtext"
)

// TestHasThreadTable checks hasThreadTable against the regular expression
// it stands for.
func TestHasThreadTable(t *testing.T) {
	re := regexp.MustCompile(`(?m)^[ \t]*P0[ \t]*[|;(]`)
	texts := []string{"", "P0|", " \tP0 ;", "x\nP0(", "xP0|", "P0", "P0\n|", "P1 | P0 ;", "\n\n  P0\t\t(int* x)", "P 0|", "P00|"}
	alphabet := "P0 \t|;(\nx1"
	texts = append(texts, randtext.Texts(alphabet, 5000, 12, 1)...)
	for _, s := range texts {
		if got, want := hasThreadTable([]byte(s)), re.MatchString(s); got != want {
			t.Errorf("hasThreadTable(%q) = %v, the expression gives %v", s, got, want)
		}
	}
}
