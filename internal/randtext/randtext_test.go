package randtext

import (
	"slices"
	"strings"
	"testing"
)

func TestTexts(t *testing.T) {
	a := Texts("ab", 200, 5, 1)
	if !slices.Equal(a, Texts("ab", 200, 5, 1)) {
		t.Error("the same seed gave other texts")
	}
	for _, s := range a {
		if len(s) >= 5 || strings.Trim(s, "ab") != "" {
			t.Errorf("text %q: longer than 4 bytes or outside the alphabet", s)
		}
	}
}
