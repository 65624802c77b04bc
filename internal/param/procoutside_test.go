package param

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProcOutsideFiles: the cells of a proc variable that holds no
// process (procoutside.go), on systems whose name gives the verdict
// Cubicle's reading gives (free at init, written by the updates of
// every cell, out of forall_other's range); the cross-check agrees.
func TestProcOutsideFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "procoutside", "*_*safe.cub"))
	if err != nil || len(files) == 0 {
		t.Fatal("no files", err)
	}
	for _, file := range files {
		want := Safe
		if strings.HasSuffix(file, "_unsafe.cub") {
			want = Unsafe
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			sys, err := ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Timeout: 20 * time.Second}
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

// TestProcOutsidePair: pair_home.cub, with the cells A[Home], answers
// as pair_explicit.cub, where those cells are variables written by hand
// (the updates of every cell copied at Home); so do the two with a bug
// put in both alike. (The node counts may differ: the variables are
// declared in another order.)
func TestProcOutsidePair(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "procoutside", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	home, explicit := read("pair_home.cub"), read("pair_explicit.cub")
	tests := []struct {
		name string
		// changes made to the two files: old, new, ... (A_home is
		// A[Home] in pair_home.cub)
		home, explicit []string
		want           Verdict
	}{
		{"as written", nil, nil, Safe},
		{"getx leaves the sharers", []string{"| Sh[j] = True : I ", ""}, []string{"| Sh[j] = True : I ", "", "| Sh_home = True : I ", ""}, Unsafe},
		{"get_home on an exclusive line", []string{"requires { A[Home] = I && Busy = False }", "requires { A[Home] <> S }"}, []string{"requires { A_home = I && Busy = False }", "requires { A_home <> S }"}, Unsafe},
		{"release keeps E", []string{"A[j] := case | A[j] = E : S", "A[j] := case | A[j] = E : E"}, []string{"A[j] := case | A[j] = E : S", "A[j] := case | A[j] = E : E", "A_home := case | A_home = E : S", "A_home := case | A_home = E : E"}, Unsafe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got [2]*Result
			for k, src := range []string{home, explicit} {
				changes := tc.home
				if k == 1 {
					changes = tc.explicit
				}
				for i := 0; i < len(changes); i += 2 {
					if !strings.Contains(src, changes[i]) {
						t.Fatalf("file %d has no %q", k, changes[i])
					}
					src = strings.ReplaceAll(src, changes[i], changes[i+1])
				}
				sys, err := Load("x.cub", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				opts := Options{Timeout: 20 * time.Second}
				res, err := Verify(context.Background(), sys, opts)
				if err != nil {
					t.Fatal(err)
				}
				if cc := SelfCheck(context.Background(), sys, res, opts, 20000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
					t.Errorf("file %d: %s: %s", k, res.Verdict, cc)
				}
				got[k] = res
			}
			if got[0].Verdict != tc.want || got[1].Verdict != tc.want {
				t.Fatalf("verdicts %s (A[Home]) and %s (variables), want %s", got[0].Verdict, got[1].Verdict, tc.want)
			}
		})
	}
}
