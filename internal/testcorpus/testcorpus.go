// Package testcorpus finds the shared corpus (../shared/corpus beside the
// repository) and the programs the tests run (clang-14), for the tests of
// every package, in one place.
package testcorpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Dir returns the corpus folder (a clean absolute path). When it is
// missing the test is skipped, except under CI (env CI=true), where it
// fails: CI always has the corpus beside the clone.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := find()
	if err == nil {
		return dir
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("the corpus must be at ../shared/corpus beside the repository: %v", err)
	}
	t.Skipf("corpus not found (../shared/corpus beside the repository): %v", err)
	return ""
}

// find looks for the module root (the folder of go.mod) from the working
// folder up, and the corpus beside it.
func find() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(root)
		if up == root {
			return "", &os.PathError{Op: "find", Path: wd, Err: os.ErrNotExist}
		}
		root = up
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// Path returns the corpus folder when it is found, else the path where it
// should be (relative to a package folder), for messages: tests that use
// it call Dir first.
func Path() string {
	if dir, err := find(); err == nil {
		return dir
	}
	return filepath.Join("..", "..", "..", "shared", "corpus")
}

// NeedProgram skips the test when the program name (clang-14) is not in
// PATH, except under CI (env CI=true), where it fails:
// scripts/setup-deps.sh installs it there.
func NeedProgram(t testing.TB, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing (scripts/setup-deps.sh installs it): %v", name, err)
		}
		t.Skipf("%s is missing: %v", name, err)
	}
}

// HerdReferencePath returns the folder of herd7 7.58's own model library
// and logs (../shared/reference/herd7-7.58 beside the repository), found
// or not, for tests that use it only when it is there.
func HerdReferencePath() string {
	return filepath.Join(filepath.Dir(Path()), "reference", "herd7-7.58")
}

// HerdReference returns the folder of herd7 7.58's reference (its model
// library under lib, its logs under logs), or the subfolder sub of it.
// When it is missing the test is skipped, as for the corpus, except
// under CI (env CI=true), where it fails: CI has ../shared beside the
// clone, reference and all.
func HerdReference(t testing.TB, sub ...string) string {
	t.Helper()
	dir := filepath.Join(append([]string{HerdReferencePath()}, sub...)...)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("herd7 7.58's reference must be beside the corpus: %v", err)
		}
		t.Skipf("herd7 7.58's reference is not beside the corpus: %v", err)
	}
	return dir
}
