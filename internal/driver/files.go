package driver

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/source"
)

// Files expands the arguments: a folder stands for every .litmus file below
// it, in lexical order; a file whose name starts with '@' is an index, as
// in herd7 ("@all", "dir/@all"): it stands for the files it names, one a
// line, relative to its folder (blank lines and lines starting with '#'
// are skipped, and a line may itself be a folder or an index). When no
// file has that name, "@LIST" names the index LIST.
func Files(args []string) ([]string, error) {
	return files(args, map[string]bool{})
}

func files(args []string, lists map[string]bool) ([]string, error) {
	var out []string
	for _, a := range args {
		if list, ok := indexFile(a); ok {
			found, err := listFile(list, lists)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, source.FileError(err) // "x: no such file or directory", not "stat x: ..."
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return source.FileError(err)
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

// indexFile tells whether argument a names an index file, and which: a
// file whose name starts with '@' is one, opened by that name (herd7's
// "@all", "dir/@all"); when it does not exist, or for "@LIST" with a
// LIST in another folder, the index is the name without its '@'.
func indexFile(a string) (string, bool) {
	if strings.HasPrefix(a, "@") && !exists(a) && exists(a[1:]) {
		return a[1:], true // "@LIST" names the index LIST
	}
	dir, base := filepath.Split(a)
	if strings.HasPrefix(base, "@") {
		if _, err := os.Stat(a); err == nil || base == "@" {
			return a, true
		}
		if alt := filepath.Join(dir, base[1:]); exists(alt) {
			return alt, true
		}
		return a, true
	}
	if strings.HasPrefix(a, "@") {
		return a[1:], true
	}
	return "", false
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
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
	data, err := source.ReadFile(path)
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
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		found, err := files([]string{line}, lists)
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
