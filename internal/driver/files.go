package driver

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Files expands the arguments: a folder stands for every .litmus file below
// it, in lexical order.
func Files(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".litmus") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// TestFiles expands the operands of a command into test files; a folder
// without any .litmus file is an error naming it.
func TestFiles(operands []string) ([]string, error) {
	var files []string
	for _, op := range operands {
		fs, err := Files([]string{op})
		if err != nil {
			return nil, err
		}
		if len(fs) == 0 {
			return nil, fmt.Errorf("no tests found in %s (no .litmus file in it or below)", op)
		}
		files = append(files, fs...)
	}
	return files, nil
}
