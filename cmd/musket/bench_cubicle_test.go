package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCubicleExamplesReference checks that the rows of examples/ carry
// Cubicle's time, nodes and options from the folder's README.
func TestCubicleExamplesReference(t *testing.T) {
	dir := t.TempDir()
	ex := filepath.Join(dir, "examples")
	if err := os.MkdirAll(ex, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"expected.csv": "a.cub,safe\nb.cub,unsafe\n",
		"README.md": "| file | Cubicle verdict | Cubicle options | Cubicle s | nodes |\n|---|---|---|---|---|\n" +
			"| a.cub | safe | -brab 2 | 0.15 | 42 |\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(ex, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rows := cubicleExamples(dir)
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2", len(rows))
	}
	a, b := rows[0], rows[1]
	if a.file != "examples/a.cub" || a.paper != 0.15 || a.refNodes != "42" || a.refOpts != "-brab 2" || !a.example {
		t.Errorf("row a = %+v", a)
	}
	if b.paper != 0 || b.refNodes != "" {
		t.Errorf("row b (not in the README) = %+v", b)
	}
}

// TestCubicleGoal: the goal column of bench cubicle (twice the
// reference, 0.1 s at least; no reference: no goal).
func TestCubicleGoal(t *testing.T) {
	tests := []struct {
		ref, cpu float64
		answered bool
		want     string
	}{
		{0.03, 0.09, true, "yes"},
		{0.03, 0.13, true, "no (4.3x)"},
		{0.30, 0.60, true, "yes"},
		{0.30, 0.64, true, "no (2.1x)"},
		{1.99, 0.5, false, "no"},
		{0, 5, true, "-"},
	}
	for _, tc := range tests {
		if got := cubicleGoal(tc.ref, tc.cpu, tc.answered); got != tc.want {
			t.Errorf("cubicleGoal(%g, %g, %v) = %q, want %q", tc.ref, tc.cpu, tc.answered, got, tc.want)
		}
	}
}
