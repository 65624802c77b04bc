// Package randtext makes random texts over a small alphabet, for the
// tests that compare a hand-written matcher with the regular expression
// it stands for: the alphabet holds the bytes the expression cares
// about, so that short random texts reach its corner cases.
package randtext

import "math/rand"

// Texts returns n texts of at most maxLen bytes (lengths 0 to maxLen-1)
// drawn from alphabet by a generator seeded with seed, the same on every
// run.
func Texts(alphabet string, n, maxLen int, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	out := make([]string, n)
	for k := range out {
		b := make([]byte, r.Intn(maxLen))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		out[k] = string(b)
	}
	return out
}
