package source

// Punct is a punctuation token of a language: its text and its kind.
type Punct[K any] struct {
	Text string
	Kind K
}

// MatchPunct finds the punctuation token of table that src begins with:
// its kind and length n, 0 when there is none. The table lists a token
// before the tokens that are its prefixes ("<=" before "<").
//
// The first bytes are compared before the strings: most entries differ
// there, and a string comparison is a call (memequal), dear in
// WebAssembly, where the litmus lexer's conditions spent 1% of a
// playground run in it.
func MatchPunct[K any](src []byte, table []Punct[K]) (kind K, n int) {
	for _, p := range table {
		if len(p.Text) <= len(src) && (p.Text == "" || p.Text[0] == src[0]) && string(src[:len(p.Text)]) == p.Text {
			return p.Kind, len(p.Text)
		}
	}
	return kind, 0
}
