package param

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProcIndexFiles: the systems of testdata/procindex index arrays by
// a proc variable in init (procinit.go), or by a weak one in
// transitions (procindex.go); each file's name says its verdict, and
// the cross-check of finite instances must agree, under TSO and PSO for
// the weak ones.
func TestProcIndexFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "procindex", "*.cub"))
	if err != nil || len(files) == 0 {
		t.Fatal("no files", err)
	}
	for _, file := range files {
		want := Safe
		if strings.HasSuffix(file, "_unsafe.cub") {
			want = Unsafe
		}
		models := []string{""}
		if strings.Contains(filepath.Base(file), "weak") {
			models = append(models, "pso")
		}
		for _, model := range models {
			t.Run(filepath.Base(file)+"/"+model, func(t *testing.T) {
				sys, err := ParseFile(file)
				if err != nil {
					t.Fatal(err)
				}
				opts := Options{Timeout: 20 * time.Second, Model: model}
				res, err := Verify(context.Background(), sys, opts)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != want {
					t.Fatalf("got %s, want %s", res.Verdict, want)
				}
				if cc := SelfCheck(context.Background(), sys, res, opts, 20000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
					t.Errorf("%s: %s", res.Verdict, cc)
				}
			})
		}
	}
}

// TestInitProcIndexDNF: init (i) { body } with Home as an index has one
// universal parameter more, and the clauses of procinit.go: the body
// with Home's literals dropped, then one clause for Home a new
// parameter and one for Home = i.
func TestInitProcIndexDNF(t *testing.T) {
	tests := []struct {
		name, src    string
		arity, conjs int
	}{
		{"one parameter", "var H : proc\narray A[proc] : bool\narray B[proc] : bool\ninit (i) { A[i] = False && B[H] = True }\nunsafe (i) { A[i] = True }", 2, 4},
		{"no parameter", "var H : proc\narray B[proc] : bool\ninit () { B[H] = True }\nunsafe (i) { B[i] = False }", 1, 2},
		{"no proc variable", "array A[proc] : bool\ninit (i) { A[i] = False }\nunsafe (i) { A[i] = True }", 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := Load("x.cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if sys.InitArity != tc.arity || len(sys.Init) != tc.conjs {
				t.Errorf("arity %d, %d conjunctions; want %d, %d", sys.InitArity, len(sys.Init), tc.arity, tc.conjs)
			}
		})
	}
}
