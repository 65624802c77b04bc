package param

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLocalWeakFiles: each system of testdata/localweak declares its
// flags local_weak and writes a flag only from its own process, in the
// early Cubicle-W syntax (threads named by constants, or by a parameter)
// and in the current one. Each gets the verdict its name gives, the same
// one and the same visited cubes as its twin with the flags declared weak,
// and the cross-check on its finite instances agrees.
func TestLocalWeakFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "localweak", "*.cub"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".cub")
		t.Run(name, func(t *testing.T) {
			want := Safe
			if strings.HasSuffix(name, "_unsafe") {
				want = Unsafe
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), "local_weak array") {
				t.Fatalf("%s declares nothing local_weak", file)
			}
			twin := strings.ReplaceAll(string(src), "local_weak array", "weak array")
			var nodes []int
			for i, text := range []string{string(src), twin} {
				sys, err := Load(name+".cub", []byte(text))
				if err != nil {
					t.Fatal(err)
				}
				opts := Options{Timeout: 20 * time.Second}
				res, err := Verify(context.Background(), sys, opts)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != want {
					t.Errorf("form %d: %s, want %s", i, res.Verdict, want)
				}
				if i == 0 {
					if cc := SelfCheck(context.Background(), sys, res, opts, 20000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
						t.Errorf("%s: %s", res.Verdict, cc)
					}
				}
				nodes = append(nodes, res.Visited)
			}
			if nodes[0] != nodes[1] {
				t.Errorf("%d cubes with local_weak, %d with weak", nodes[0], nodes[1])
			}
		})
	}
}
