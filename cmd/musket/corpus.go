package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// modulePath is Musket's module; its go.mod marks the repository root.
const modulePath = "github.com/musket-verify/musket"

// repoRoot finds the repository root above dir: the folder whose go.mod
// declares Musket's module ("" when there is none).
func repoRoot(dir string) string {
	for d := dir; ; {
		if f, err := os.Open(filepath.Join(d, "go.mod")); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if fs := strings.Fields(sc.Text()); len(fs) == 2 && fs[0] == "module" && fs[1] == modulePath {
					f.Close()
					return d
				}
			}
			f.Close()
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// repoRoots are the repository roots to look in, best first: above the
// working folder, then above the binary (go build puts it in the
// repository).
func repoRoots() []string {
	var roots []string
	if wd, err := os.Getwd(); err == nil {
		if r := repoRoot(wd); r != "" {
			roots = append(roots, r)
		}
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			if r := repoRoot(filepath.Dir(exe)); r != "" && (len(roots) == 0 || roots[0] != r) {
				roots = append(roots, r)
			}
		}
	}
	return roots
}

// findCorpus is the shared corpus folder: the one given (-corpus), else
// ../shared/corpus beside the repository (found from the working folder
// or from the binary), else ../shared/corpus from the working folder.
func findCorpus(given string) (string, error) {
	if given != "" {
		if st, err := os.Stat(given); err != nil || !st.IsDir() {
			return "", fmt.Errorf("-corpus %s: not a folder", given)
		}
		return given, nil
	}
	var tried []string
	for _, r := range repoRoots() {
		tried = append(tried, filepath.Join(filepath.Dir(r), "shared", "corpus"))
	}
	tried = append(tried, filepath.Join("..", "shared", "corpus"))
	for _, c := range tried {
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c, nil
		}
	}
	return "", fmt.Errorf("cannot find the corpus (looked in %s): give -corpus DIR", strings.Join(tried, ", "))
}

// findExamples is the repository's examples folder, found as the corpus
// is (from the working folder or the binary).
func findExamples() (string, error) {
	var tried []string
	for _, r := range repoRoots() {
		tried = append(tried, filepath.Join(r, "examples"))
	}
	tried = append(tried, "examples")
	for _, c := range tried {
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c, nil
		}
	}
	return "", fmt.Errorf("cannot find Musket's examples folder (looked in %s): give -dir DIR", strings.Join(tried, ", "))
}
