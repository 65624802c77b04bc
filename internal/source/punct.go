package source

// Punct is a punctuation token of a language: its text and its kind.
type Punct[K any] struct {
	Text string
	Kind K
}

// MatchPunct finds the punctuation token of table that src begins with:
// its kind and length n, 0 when there is none. The table lists a token
// before the tokens that are its prefixes ("<=" before "<").
func MatchPunct[K any](src []byte, table []Punct[K]) (kind K, n int) {
	for _, p := range table {
		if len(p.Text) <= len(src) && string(src[:len(p.Text)]) == p.Text {
			return p.Kind, len(p.Text)
		}
	}
	return kind, 0
}
