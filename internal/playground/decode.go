package playground

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeRequest reads a Request from its JSON text, by hand, in one pass:
// the static site's worker hands the engine each request as one JSON
// string (worker.js), which crosses from JavaScript into WebAssembly in
// one piece, where reading a JavaScript object field by field took a
// call into JavaScript per field (13 for a request, each with its name's
// text decoded and a finalizer set on what it returned), about 3% of a
// warm run over the X86 suite. encoding/json would read the test's text
// byte by byte twice, through reflection.
//
// The keys are the Request's JSON names, matched exactly (as a
// JavaScript object's fields are); other keys are skipped, whatever
// their value; null leaves a field unset; the last of repeated keys
// counts. bound must be an integer, as encoding/json wants for an int.
func DecodeRequest(text string) (Request, error) {
	d := decoder{s: text}
	var req Request
	err := d.request(&req)
	if err == nil {
		d.space()
		if d.i < len(d.s) {
			err = d.errorf("text after the request")
		}
	}
	return req, err
}

// decoder reads JSON from s at i.
type decoder struct {
	s string
	i int
}

func (d *decoder) errorf(format string, args ...any) error {
	return fmt.Errorf("bad JSON request at byte %d: %s", d.i, fmt.Sprintf(format, args...))
}

func (d *decoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek skips blanks and returns the next byte (0 at the end).
func (d *decoder) peek() byte {
	d.space()
	if d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

func (d *decoder) expect(c byte) error {
	if d.peek() != c {
		return d.errorf("want %q", c)
	}
	d.i++
	return nil
}

// object reads an object, calling field for each key with the decoder
// at its value.
func (d *decoder) object(field func(key string) error) error {
	if err := d.expect('{'); err != nil {
		return err
	}
	if d.peek() == '}' {
		d.i++
		return nil
	}
	for {
		if d.peek() != '"' {
			return d.errorf("want a key")
		}
		key, err := d.str()
		if err != nil {
			return err
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return nil
		default:
			return d.errorf("want , or }")
		}
	}
}

func (d *decoder) request(req *Request) error {
	return d.object(func(key string) error {
		var dst *string
		switch key {
		case "command":
			dst = &req.Command
		case "name":
			dst = &req.Name
		case "test":
			dst = &req.Test
		case "model":
			dst = &req.Model
		case "cat":
			dst = &req.Cat
		case "cat_name":
			dst = &req.CatName
		case "engine":
			dst = &req.Engine
		case "variant":
			dst = &req.Variant
		case "target":
			dst = &req.Target
		case "source":
			dst = &req.Source
		case "explain":
			return d.boolField(key, &req.Explain)
		case "brief":
			return d.boolField(key, &req.Brief)
		case "bound":
			return d.intField(key, &req.Bound)
		case "files":
			return d.files(&req.Files)
		default:
			return d.skip()
		}
		return d.strField(key, dst)
	})
}

// null reads a null if one comes next.
func (d *decoder) null() bool {
	if d.peek() == 'n' && len(d.s)-d.i >= 4 && d.s[d.i:d.i+4] == "null" {
		d.i += 4
		return true
	}
	return false
}

func (d *decoder) strField(key string, dst *string) error {
	if d.null() {
		return nil
	}
	if d.peek() != '"' {
		return d.errorf("%s: want a string", key)
	}
	s, err := d.str()
	*dst = s
	return err
}

func (d *decoder) boolField(key string, dst *bool) error {
	if d.null() {
		return nil
	}
	d.space()
	switch {
	case len(d.s)-d.i >= 4 && d.s[d.i:d.i+4] == "true":
		d.i += 4
		*dst = true
	case len(d.s)-d.i >= 5 && d.s[d.i:d.i+5] == "false":
		d.i += 5
		*dst = false
	default:
		return d.errorf("%s: want a boolean", key)
	}
	return nil
}

func (d *decoder) intField(key string, dst *int) error {
	if d.null() {
		return nil
	}
	d.space()
	start := d.i
	if !d.number() || strings.ContainsAny(d.s[start:d.i], ".eE") {
		return d.errorf("%s: want an integer", key)
	}
	n, err := strconv.Atoi(d.s[start:d.i])
	if err != nil {
		return d.errorf("%s: bad integer %q", key, d.s[start:d.i])
	}
	*dst = n
	return nil
}

// files reads an object of strings: the CAT files by name.
func (d *decoder) files(dst *map[string]string) error {
	if d.null() {
		return nil
	}
	if d.peek() != '{' {
		return d.errorf("files: want an object")
	}
	m := map[string]string{}
	err := d.object(func(name string) error {
		if d.peek() != '"' {
			return d.errorf("files[%q]: want a string", name)
		}
		s, err := d.str()
		m[name] = s
		return err
	})
	*dst = m
	return err
}

// number reads a JSON number (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?)
// and says whether there was one. It is checked by hand, not parsed:
// strconv's float parser is 18 KB of WebAssembly for the browser to load.
func (d *decoder) number() bool {
	digits := func() bool {
		start := d.i
		for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
			d.i++
		}
		return d.i > start
	}
	if d.i < len(d.s) && d.s[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.s) && d.s[d.i] == '0':
		d.i++
	case !digits():
		return false
	}
	if d.i < len(d.s) && d.s[d.i] == '.' {
		d.i++
		if !digits() {
			return false
		}
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if !digits() {
			return false
		}
	}
	return true
}

// skip reads any value and forgets it.
func (d *decoder) skip() error {
	switch c := d.peek(); {
	case c == '"':
		_, err := d.str()
		return err
	case c == '{':
		return d.object(func(string) error { return d.skip() })
	case c == '[':
		d.i++
		if d.peek() == ']' {
			d.i++
			return nil
		}
		for {
			if err := d.skip(); err != nil {
				return err
			}
			switch d.peek() {
			case ',':
				d.i++
			case ']':
				d.i++
				return nil
			default:
				return d.errorf("want , or ]")
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		if !d.number() {
			return d.errorf("bad number")
		}
		return nil
	}
	for _, lit := range []string{"true", "false", "null"} {
		if len(d.s)-d.i >= len(lit) && d.s[d.i:d.i+len(lit)] == lit {
			d.i += len(lit)
			return nil
		}
	}
	return d.errorf("want a value")
}

var errControl = errors.New("control character in a string")

// str reads a string, d at its opening quote. A string without escapes
// is a slice of the text, not a copy.
func (d *decoder) str() (string, error) {
	d.i++
	start := d.i
	for d.i < len(d.s) {
		switch c := d.s[d.i]; {
		case c == '"':
			d.i++
			return d.s[start : d.i-1], nil
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			return "", d.errorf("%v", errControl)
		}
		d.i++
	}
	return "", d.errorf("string not terminated")
}

// escaped reads the rest of a string from its first escape on, the
// string having begun at start.
func (d *decoder) escaped(start int) (string, error) {
	// The string is no longer than its text, the rest of the input at
	// most: every escape is at least as long as what it stands for. So b
	// never grows (a test's text, its lines escaped, used to grow it
	// five or six times).
	b := make([]byte, 0, len(d.s)-start)
	b = append(b, d.s[start:d.i]...)
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return string(b), nil
		case c < 0x20:
			return "", d.errorf("%v", errControl)
		case c != '\\':
			// A run of plain bytes at once.
			j := d.i
			for j < len(d.s) && d.s[j] != '"' && d.s[j] != '\\' && d.s[j] >= 0x20 {
				j++
			}
			b = append(b, d.s[d.i:j]...)
			d.i = j
			continue
		}
		if d.i+1 >= len(d.s) {
			break
		}
		e := d.s[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			var ok bool
			if b, ok = d.unicode(b); !ok {
				return "", d.errorf("bad \\u escape")
			}
		default:
			return "", d.errorf("bad escape \\%c", e)
		}
	}
	return "", d.errorf("string not terminated")
}

// unicode appends the character of a \u escape, d after its \u, to b:
// a pair of surrogates makes one character, a lone half is U+FFFD, as
// encoding/json and the browser's encoder make it. Not inlined, so that
// escaped, which runs for every request, stays small.
//
//go:noinline
func (d *decoder) unicode(b []byte) ([]byte, bool) {
	r, ok := d.hex4()
	if !ok {
		return b, false
	}
	if utf16.IsSurrogate(r) {
		r2 := rune(-1)
		if len(d.s)-d.i >= 6 && d.s[d.i] == '\\' && d.s[d.i+1] == 'u' {
			save := d.i
			d.i += 2
			if x, ok := d.hex4(); ok {
				r2 = x
			}
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				return utf8.AppendRune(b, dec), true
			}
			d.i = save
		}
		r = utf8.RuneError
	}
	return utf8.AppendRune(b, r), true
}

// hex4 reads 4 hexadecimal digits.
func (d *decoder) hex4() (rune, bool) {
	if len(d.s)-d.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(d.s[d.i : d.i+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	d.i += 4
	return r, true
}
