package porthos

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/result"
)

// corpus is the shared corpus, next to the repository.
var corpus = filepath.Join("..", "..", "..", "shared", "corpus")

func long() bool { return os.Getenv("MUSKET_LONG") != "" }

func side(t *testing.T, spec string) Side {
	t.Helper()
	s, err := ParseSide(spec, nil)
	if err != nil {
		t.Fatalf("side %s: %v", spec, err)
	}
	return s
}

// compare runs one inclusion check and fails the test unless it finished.
func compare(t *testing.T, path, source, target string, opts Options) *Result {
	t.Helper()
	src, tgt := side(t, source), side(t, target)
	p, err := Load(path, &src, &tgt, opts.Bound)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r := Check(ctx, p, &src, &tgt, opts)
	if r.Status != Done {
		t.Fatalf("%s %s ⊆ %s: %s %v", path, target, source, r.Status, r.Err)
	}
	return r
}

// stateSet indexes states by key.
func stateSet(sts []result.State) map[string]result.State {
	m := map[string]result.State{}
	for _, s := range sts {
		m[s.Key()] = s
	}
	return m
}
