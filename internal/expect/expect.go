// Package expect reads files of expected verdicts (lines "PATH,1" or
// "PATH,0", 1 meaning herd's Ok) and finds the entry of a test: the one
// whose PATH is a suffix of the test's path.
package expect

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/musket-verify/musket/internal/source"
)

// Table maps expected-file paths to verdicts.
type Table struct {
	byBase map[string][]entry
}

type entry struct {
	path string
	ok   bool
}

// Read loads an expected-verdicts file.
func Read(file string) (*Table, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, source.FileError(err)
	}
	defer f.Close()
	t := &Table{byBase: map[string][]entry{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = source.TrimBOM(b)
		}
		s := strings.TrimSpace(string(b))
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		i := strings.LastIndexByte(s, ',')
		if i < 0 {
			return nil, fmt.Errorf("%s:%d:1: expected PATH,0 or PATH,1", file, line)
		}
		p, v := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
		if v != "0" && v != "1" {
			return nil, fmt.Errorf("%s:%d:%d: verdict must be 0 or 1, not %q", file, line, i+2, v)
		}
		p = filepath.ToSlash(p)
		base := p[strings.LastIndexByte(p, '/')+1:]
		t.byBase[base] = append(t.byBase[base], entry{path: p, ok: v == "1"})
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		// The line after the last one read (robust7: it said
		// "bufio.Scanner: token too long", e.g. for /dev/zero).
		return nil, fmt.Errorf("%s:%d:1: a line longer than 1 MiB: not a CSV of expected verdicts", file, line+1)
	} else if err != nil {
		// A read error is the file's, not a line's ("dir:1:1: read dir:
		// is a directory").
		return nil, source.FileError(err)
	}
	return t, nil
}

// Lookup returns the expected verdict of the test at path, if any: the
// entry whose path is a suffix of path (on a '/' boundary), the longest if
// several match.
func (t *Table) Lookup(path string) (ok bool, found bool) {
	path = filepath.ToSlash(filepath.Clean(path))
	base := path[strings.LastIndexByte(path, '/')+1:]
	best := -1
	for _, e := range t.byBase[base] {
		if path == e.path || strings.HasSuffix(path, "/"+e.path) {
			if len(e.path) > best {
				best, ok = len(e.path), e.ok
			}
		}
	}
	return ok, best >= 0
}
