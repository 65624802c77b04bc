package param

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestDeadlineUnusedProcs gives corpus systems an unsafe formula that
// declares many process variables it does not use (issue 26: with 16 a
// 3 s limit ran past 20 s, with 50 past two minutes). The renamings of the
// fixpoint test and the instances of a forall_other guard grow with the
// number of processes in a cube; both loops must see the time limit. The
// verdict must be a Timeout (or a verdict reached before it); a search that
// does not stop is caught by the 60 s guard, far above the 300 ms limit.
func TestDeadlineUnusedProcs(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "cubicle")
	unsafe := regexp.MustCompile(`unsafe\s*\(([^)]*)\)`)
	for _, name := range []string{"mutex_N.cub", "sc_bakery_lamport.cub"} {
		for _, n := range []int{16, 50} {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				src, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				extra := make([]string, n)
				for i := range extra {
					extra[i] = fmt.Sprintf("unused%d", i)
				}
				loc := unsafe.FindSubmatchIndex(src)
				if loc == nil {
					t.Fatal("no unsafe formula")
				}
				text := string(src[:loc[3]]) + " " + strings.Join(extra, " ") + string(src[loc[3]:])
				sys, err := Load(name, []byte(text))
				if err != nil {
					t.Fatal(err)
				}
				type outcome struct {
					res *Result
					err error
				}
				done := make(chan outcome, 1)
				go func() {
					res, err := Verify(context.Background(), sys, Options{Timeout: 300 * time.Millisecond})
					done <- outcome{res, err}
				}()
				select {
				case o := <-done:
					if o.err != nil {
						t.Fatal(o.err)
					}
					t.Logf("verdict %s, %d nodes", o.res.Verdict, o.res.Visited)
				case <-time.After(60 * time.Second):
					t.Fatal("the search ignores its 300 ms time limit (still running after 60 s)")
				}
			})
		}
	}
}
