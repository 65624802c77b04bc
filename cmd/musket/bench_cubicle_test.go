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
