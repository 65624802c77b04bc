package batch

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Conf is what a herd7 configuration file (-conf FILE.cfg) says about the
// model: the .cat file, the .bell and .def files, and the variants. Paths
// are resolved against the folder of the .cfg file; a file that cannot
// be read is an error naming the .cfg file and its line.
type Conf struct {
	Model    string
	Bell     string
	Macros   string
	Variants []string
}

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
}

// ReadConf reads a herd7 .cfg file: lines "key value"; '#' starts a
// comment line. The keys model, bell, macros and variant are used; the
// display keys are ignored; any other key is an error naming it.
func ReadConf(path string) (*Conf, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	c := &Conf{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		val = strings.TrimSpace(val)
		var fileErr error
		rel := func() string {
			p := val
			if val != "" && !filepath.IsAbs(val) {
				p = filepath.Join(dir, val)
			}
			if _, err := os.Stat(p); err != nil {
				fileErr = fmt.Errorf("%s:%d: the %s file %s cannot be read: %v", path, n, key, p, errors.Unwrap(err))
			}
			return p
		}
		switch key {
		case "model":
			c.Model = rel()
		case "bell":
			c.Bell = rel()
		case "macros":
			c.Macros = rel()
		case "variant":
			for _, v := range strings.Split(val, ",") {
				if v = strings.TrimSpace(v); v != "" {
					c.Variants = append(c.Variants, v)
				}
			}
		default:
			if !confIgnored[key] {
				return nil, fmt.Errorf("%s:%d: unknown configuration key %q", path, n, key)
			}
		}
		if fileErr != nil {
			return nil, fileErr
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return c, nil
}
