package cfront

import (
	"strings"
	"testing"
)

// TestParseFormat checks the reading of printf formats: the pieces and
// the conversions' parts, and the refusals by name.
func TestParseFormat(t *testing.T) {
	for _, c := range []struct {
		format string
		want   string // the pieces, or the error's words
	}{
		{"a%%b", `"a%b"`},
		{"%-08.3ld|", `{- 0 w8 p3 l d} "|"`},
		{"%+ #x", `{+ sp # x}`},
		{"%*.*s", `{w* p* s}`},
		{"%zu%hhd%jd%td%lld", `{z u} {hh d} {j d} {t d} {ll d}`},
		{"x%5c", `"x" {w5 c}`},
		{"%f", "floating-point conversion %f"},
		{"%n", "%n"},
		{"%Lf", "floating-point"},
		{"%ls", "length modifier l of %s"},
		{"%'d", "thousands"},
		{"abc%", "ends with %"},
		{"%5", "ends inside a conversion"},
		{"%999d", "over 256"},
	} {
		pieces, err := parseFormat(c.format)
		if err != nil {
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%q: error %v, want one saying %q", c.format, err, c.want)
			}
			continue
		}
		var got []string
		for _, p := range pieces {
			if p.spec == nil {
				got = append(got, `"`+p.text+`"`)
				continue
			}
			s := p.spec
			var parts []string
			for _, f := range []struct {
				on   bool
				name string
			}{{s.minus, "-"}, {s.plus, "+"}, {s.space, "sp"}, {s.hash, "#"}, {s.zero, "0"}, {s.widthArg, "w*"}, {s.precArg, "p*"}} {
				if f.on {
					parts = append(parts, f.name)
				}
			}
			if s.width >= 0 {
				parts = append(parts, "w"+itoa(s.width))
			}
			if s.prec >= 0 {
				parts = append(parts, "p"+itoa(s.prec))
			}
			if s.length != "" {
				parts = append(parts, s.length)
			}
			parts = append(parts, string(s.conv))
			got = append(got, "{"+strings.Join(parts, " ")+"}")
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q: %s, want %s", c.format, g, c.want)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
