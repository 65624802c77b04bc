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
// it, in lexical order; "@LIST" stands for the files LIST names, one a
// line, relative to LIST's folder (herd7's index files, e.g. "@all"; blank
// lines and lines starting with '#' are skipped, and a line may itself be
// a folder or an @list); so does a file whose name begins with '@'
// (DIR/@all, the index diy7 and musket gen write).
func Files(args []string) ([]string, error) {
	return files(args, map[string]bool{})
}

func files(args []string, lists map[string]bool) ([]string, error) {
	var out []string
	for _, a := range args {
		if strings.HasPrefix(a, "@") {
			found, err := listFile(a[1:], lists)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() && strings.HasPrefix(filepath.Base(a), "@") {
			// An index file named as herd's and diy's are (DIR/@all).
			found, err := listFile(a, lists)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
			continue
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

// listFile reads the index file path: the files it names, in order.
func listFile(path string, lists map[string]bool) ([]string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if lists[abs] {
		return nil, fmt.Errorf("%s: the list includes itself", path)
	}
	lists[abs] = true
	defer delete(lists, abs)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	var out []string
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		at := ""
		if strings.HasPrefix(line, "@") {
			at, line = "@", line[1:]
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		found, err := files([]string{at + line}, lists)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
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
