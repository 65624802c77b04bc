package source

import (
	"fmt"
	"unicode/utf8"
)

// QuoteChar shows the first character of s for a message: quoted as Go
// quotes a rune ('é', '\u00a0'), with its code point when it is not
// ASCII ('∧' U+2227), or as a byte when s does not start with valid
// UTF-8 (byte 0xff). Non-ASCII input is thus never shown as mojibake.
func QuoteChar(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case n == 0:
		return "end of text"
	case r == utf8.RuneError && n == 1:
		return fmt.Sprintf("byte 0x%02x (not UTF-8)", s[0])
	case r < utf8.RuneSelf:
		return fmt.Sprintf("%q", r)
	}
	return fmt.Sprintf("%q (U+%04X)", r, r)
}
