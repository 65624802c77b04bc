package param

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/testcorpus"
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

// TestProcOutsideFlash: Cubicle's FLASH model with Home's cells in
// variables of their own (the corpus' flash.ctc_home_nodata.cub), and
// the same model with six of them written as cells of the arrays,
// A[Home] (those that no update of every cell writes): the two answer
// alike, and so do both with the home node exclusive at init (UNSAFE).
func TestProcOutsideFlash(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "cubicle", "examples", "challenges_flash.ctc_home_nodata.cub"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^var (ProcCmd|InvMarked|CacheState|UniMsg_Cmd|UniMsg_Proc|RpMsg_Cmd)_home : .*\n`)
	use := regexp.MustCompile(`\b(ProcCmd|InvMarked|CacheState|UniMsg_Cmd|UniMsg_Proc|RpMsg_Cmd)_home\b`)
	cells := use.ReplaceAllString(decl.ReplaceAllString(string(src), ""), "$1[Home]")
	if n := strings.Count(cells, "[Home]"); n < 100 {
		t.Fatalf("only %d cells of Home", n)
	}
	tests := []struct {
		name     string
		old, new string
		want     Verdict
	}{
		{"home exclusive at init", "CacheState_home = CACHE_I &&", "CacheState_home = CACHE_E &&", Unsafe},
		{"as written", "", "", Safe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got [2]*Result
			for k, text := range []string{string(src), cells} {
				if tc.old != "" {
					old, new := tc.old, tc.new
					if k == 1 {
						old, new = use.ReplaceAllString(old, "$1[Home]"), use.ReplaceAllString(new, "$1[Home]")
					}
					if !strings.Contains(text, old) {
						t.Fatalf("form %d has no %q", k, old)
					}
					text = strings.Replace(text, old, new, 1)
				}
				sys, err := Load("flash.cub", []byte(text))
				if err != nil {
					t.Fatal(err)
				}
				res, err := Verify(context.Background(), sys, Options{Timeout: 60 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				got[k] = res
			}
			if got[0].Verdict != tc.want || got[1].Verdict != tc.want {
				t.Fatalf("%s with variables, %s with cells of Home; want %s", got[0].Verdict, got[1].Verdict, tc.want)
			}
		})
	}
}
