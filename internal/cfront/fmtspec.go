package cfront

import (
	"fmt"
	"strings"
)

// This file reads a printf format (C11 7.21.6.1): its text and its
// conversion specifications, each with its flags (- + space # 0), its
// minimum field width and precision (digits, or * for an int argument)
// and its length modifier (hh h l ll j z t). sprintf.go writes or counts
// what a format produces.

// fmtSpec is one conversion specification.
type fmtSpec struct {
	minus, plus, space, hash, zero bool
	width                          int  // -1: none
	widthArg                       bool // *: the width is an argument
	prec                           int  // -1: none
	precArg                        bool // .*: the precision is an argument
	length                         string
	conv                           byte
}

// fmtPiece is text (spec nil) or a conversion.
type fmtPiece struct {
	text string
	spec *fmtSpec
}

// maxFieldWidth bounds a width or precision written in a format (a
// field is written character by character).
const maxFieldWidth = 256

// parseFormat splits a format into its pieces; an error names what is
// wrong or not supported.
func parseFormat(f string) ([]fmtPiece, error) {
	var out []fmtPiece
	var text strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			text.WriteByte(f[i])
			continue
		}
		i++
		if i >= len(f) {
			return nil, fmt.Errorf("the format %q ends with %%", f)
		}
		if f[i] == '%' {
			text.WriteByte('%')
			continue
		}
		if text.Len() > 0 {
			out = append(out, fmtPiece{text: text.String()})
			text.Reset()
		}
		sp := &fmtSpec{width: -1, prec: -1}
	flags:
		for ; i < len(f); i++ {
			switch f[i] {
			case '-':
				sp.minus = true
			case '+':
				sp.plus = true
			case ' ':
				sp.space = true
			case '#':
				sp.hash = true
			case '0':
				sp.zero = true
			case '\'':
				return nil, fmt.Errorf("the flag ' (thousands' grouping) of the format %q is not supported", f)
			default:
				break flags
			}
		}
		number := func() int {
			n := 0
			for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
				if n <= maxFieldWidth {
					n = n*10 + int(f[i]-'0')
				}
			}
			return n
		}
		if i < len(f) && f[i] == '*' {
			sp.widthArg = true
			i++
		} else if i < len(f) && f[i] >= '1' && f[i] <= '9' {
			sp.width = number()
		}
		if i < len(f) && f[i] == '.' {
			i++
			if i < len(f) && f[i] == '*' {
				sp.precArg = true
				i++
			} else {
				sp.prec = number()
			}
		}
		if sp.width > maxFieldWidth || sp.prec > maxFieldWidth {
			return nil, fmt.Errorf("a width or precision over %d in the format %q is not supported", maxFieldWidth, f)
		}
		for _, m := range []string{"hh", "ll", "h", "l", "j", "z", "t", "L", "q"} {
			if strings.HasPrefix(f[i:], m) {
				sp.length = m
				i += len(m)
				break
			}
		}
		if i >= len(f) {
			return nil, fmt.Errorf("the format %q ends inside a conversion", f)
		}
		sp.conv = f[i]
		switch sp.conv {
		case 'd', 'i', 'u', 'x', 'X', 'o', 'c', 's', 'p':
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			return nil, fmt.Errorf("the floating-point conversion %%%c of the format %q is not supported", sp.conv, f)
		case 'n':
			return nil, fmt.Errorf("the conversion %%n (which writes the count into memory) of the format %q is not supported", f)
		default:
			return nil, fmt.Errorf("the conversion %%%c of the format %q is not supported", sp.conv, f)
		}
		if sp.length == "L" || (sp.length != "" && sp.length != "l" && (sp.conv == 'c' || sp.conv == 's' || sp.conv == 'p')) || (sp.length == "l" && (sp.conv == 'c' || sp.conv == 's')) {
			return nil, fmt.Errorf("the length modifier %s of %%%c in the format %q is not supported (wide characters, long double)", sp.length, sp.conv, f)
		}
		out = append(out, fmtPiece{spec: sp})
	}
	if text.Len() > 0 {
		out = append(out, fmtPiece{text: text.String()})
	}
	return out, nil
}

// intBits is the width in bits of an integer conversion's argument
// after its length modifier (x86-64 and the other 64-bit targets: long,
// long long, intmax_t, size_t and ptrdiff_t have 64).
func (sp *fmtSpec) intBits() uint {
	switch sp.length {
	case "hh":
		return 8
	case "h":
		return 16
	case "":
		return 32
	}
	return 64
}

// base is the base of an integer conversion.
func (sp *fmtSpec) base() int64 {
	switch sp.conv {
	case 'x', 'X':
		return 16
	case 'o':
		return 8
	}
	return 10
}
