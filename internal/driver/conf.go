package driver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/musket-verify/musket/internal/source"
)

// Conf is what a herd7 configuration file (-conf FILE.cfg) says about the
// model: the .cat file, the .bell and .def files, and the variants. Paths
// are resolved against the folder of the .cfg file.
type Conf struct {
	Model    string
	Bell     string
	Macros   string
	Variants []string
	Hexa     bool // "hexa true": values printed in hexadecimal
	// MachSize is the size in bytes of herd7's memory unit ("machsize
	// byte|short|word|quad"; 0 when not given): herd7 splits the
	// accesses of a mixed-size test into units of that size and rejects
	// a test with a smaller access. Musket's chunks follow the accesses'
	// bounds, which gives the same verdicts for the tests herd7 accepts;
	// the others are refused (batch.Options.MachSize).
	MachSize int
}

// machSizes are the values of the machsize key, in bytes.
var machSizes = map[string]int{"byte": 1, "short": 2, "word": 4, "quad": 8}

// confIgnored are the keys of a .cfg file that only concern herd7's
// output (graphs, display): they are read and ignored.
var confIgnored = map[string]bool{
	"graph": true, "squished": true, "showevents": true, "movelabel": true, "fontsize": true,
	"xscale": true, "yscale": true, "arrowsize": true, "showinitrf": true, "showfinalrf": true,
	"showinitwrites": true, "splines": true, "pad": true, "edgeattr": true, "unshow": true,
	"doshow": true, "symetric": true, "showraw": true, "edgemerge": true, "scale": true,
	"show": true, "showthread": true, "showlegend": true, "shift": true, "penwidth": true,
	"dotmode": true, "dotcom": true, "view": true, "showkind": true, "showpo": true,
	"condensed": true, "oneinit": true, "labelinit": true, "showobserved": true,
	"withbox": true, "labelbox": true, "mono": true, "fontname": true, "edgefontsizedelta": true,
	"margin": true, "siwidth": true, "boxscale": true, "shortlegend": true, "texmacros": true,
	"tikz": true, "fixedsize": true, "extrachars": true, "relabel": true, "showtoken": true,
	"dsiy": true,
}

// maxConfDepth bounds the nesting of "conf FILE" lines (herd7's
// configuration files include one another, e.g. enslip.cfg reads
// apoil.cfg); a deeper nesting is taken for a cycle.
const maxConfDepth = 8

// ReadConf reads a herd7 .cfg file: lines "key value"; '#' starts a
// comment line. The keys model, bell, macros and variant are used; "conf
// FILE" reads another .cfg file at its place (its settings, then the
// lines after it, which may override them); the display keys are
// ignored; any other key is an error naming it. A file that the .cfg
// names and that cannot be read is an error naming the .cfg.
func ReadConf(path string) (*Conf, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := ParseConf(path, data)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct{ key, path string }{{"model", c.Model}, {"bell", c.Bell}, {"macros", c.Macros}} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return nil, fmt.Errorf("%s: the %s file %s cannot be read: %v", path, f.key, f.path, errors.Unwrap(err))
		}
	}
	return c, nil
}

// ParseConf parses the text of the .cfg file at path (path names it in
// errors, "path:line:col: what is wrong", and its folder resolves the
// file names it gives).
// A "conf FILE" line reads that file (ReadConf).
func ParseConf(path string, data []byte) (*Conf, error) {
	return parseConf(path, data, 0)
}

func parseConf(path string, data []byte, depth int) (*Conf, error) {
	dir := filepath.Dir(path)
	c := &Conf{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	errorf := func(line int, text string, at int, format string, args ...any) error {
		col := utf8.RuneCountInString(text[:at]) + 1
		return fmt.Errorf("%s:%d:%d: %s", path, line, col, fmt.Sprintf(format, args...))
	}
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if !utf8.ValidString(text) {
			at := 0
			for at < len(text) {
				r, size := utf8.DecodeRuneInString(text[at:])
				if r == utf8.RuneError && size == 1 {
					break
				}
				at += size
			}
			return nil, errorf(n, text, at, "invalid UTF-8 byte 0x%02x", text[at])
		}
		indent := len(text) - len(strings.TrimLeft(text, " \t\r"))
		line := strings.TrimSpace(text)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
		val = strings.TrimSpace(val)
		valAt := indent + len(key) + (len(line) - len(key) - len(strings.TrimLeft(line[len(key):], " \t")))
		rel := func() (string, error) {
			if val == "" {
				return "", errorf(n, text, valAt, "%s needs a file name", key)
			}
			if filepath.IsAbs(val) {
				return val, nil
			}
			return filepath.Join(dir, val), nil
		}
		var err error
		switch key {
		case "model":
			c.Model, err = rel()
		case "bell":
			c.Bell, err = rel()
		case "macros":
			c.Macros, err = rel()
		case "conf":
			var sub string
			if sub, err = rel(); err != nil {
				break
			}
			if depth >= maxConfDepth {
				err = errorf(n, text, valAt, "conf %s: configuration files nested more than %d deep (do they include each other?)", val, maxConfDepth)
				break
			}
			data, rerr := source.ReadFile(sub)
			if rerr != nil {
				err = errorf(n, text, valAt, "conf %s: %v", val, rerr)
				break
			}
			var nc *Conf
			if nc, err = parseConf(sub, data, depth+1); err != nil {
				break // the error names the file it is about
			}
			for _, f := range []struct {
				dst *string
				v   string
			}{{&c.Model, nc.Model}, {&c.Bell, nc.Bell}, {&c.Macros, nc.Macros}} {
				if f.v != "" {
					*f.dst = f.v
				}
			}
			c.Variants = append(c.Variants, nc.Variants...)
			c.Hexa = c.Hexa || nc.Hexa
			if nc.MachSize != 0 {
				c.MachSize = nc.MachSize
			}
		case "hexa":
			switch val {
			case "true":
				c.Hexa = true
			case "false":
				c.Hexa = false
			default:
				err = errorf(n, text, valAt, "hexa wants true or false, not %q", val)
			}
		case "machsize":
			if c.MachSize = machSizes[strings.ToLower(val)]; c.MachSize == 0 {
				err = errorf(n, text, valAt, "machsize wants byte, short, word or quad, not %q", val)
			}
		case "variant":
			for _, v := range strings.Split(val, ",") {
				if v = strings.TrimSpace(v); v != "" {
					c.Variants = append(c.Variants, v)
				}
			}
		default:
			if !confIgnored[key] {
				err = errorf(n, text, indent, "unknown configuration key %q", key)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return c, nil
}
