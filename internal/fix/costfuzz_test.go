package fix

import "testing"

// FuzzParseCosts reads a cost table: an error is fine, a panic is not.
func FuzzParseCosts(f *testing.F) {
	f.Add("power sync 2\naarch64 dmb ish 2 # c\nc11 fence seq_cst 3\n")
	f.Add("x86 mfence -1\n")
	f.Add("x86\n")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseCosts("costs.txt", []byte(text))
		if err != nil {
			return
		}
		for _, tg := range c.targets() {
			for _, n := range c.names(tg) {
				if v, ok := c.cost(tg, n); !ok || v < 0 {
					t.Fatalf("%s %s: cost %d, %v", tg, n, v, ok)
				}
			}
		}
	})
}
