package cfront

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLifetimes checks the programs of testdata/lifetime (and cw11's
// local_escape.c and tls_after_exit.c): a local or a thread-local object
// used after its lifetime ended (its function returned, its block ended,
// its thread called pthread_exit or ended, main returned: C11 6.2.4) is a
// failure that names it, and programs close to that but fine (a static
// local, a local whose address escapes but is not used after, locals of
// threads joined in time, in loops and in helpers called twice) pass.
// Each file's comment argues its verdicts. A row's want string has one
// letter per cell of wild4Cells (rc11 imm sc x86 aarch64 power riscv).
// Every cell is checked by the graph engine (the SMT engine where it
// refuses, power) and by the SMT engine, which must agree, with the same
// failure text (its beginning, as the row gives it) and line. By default
// the rc11 and sc cells run; MUSKET_LONG=1 runs every cell and, for the
// rows marked asan, three native runs under AddressSanitizer
// (detect_stack_use_after_return=1), each of which must fail.
func TestLifetimes(t *testing.T) {
	needClang(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	bug := []string{"BUG"}
	for _, c := range []struct {
		dir, file string
		defines   []string
		want      string
		line      int
		text      string
		asan      bool
	}{
		{dir: "cw11", file: "local_escape.c", want: "PPPPPPP"},
		{dir: "cw11", file: "local_escape.c", defines: bug, want: "FFFFFFF", line: 20, text: "use of the local variable v of start after its lifetime ended"},
		{dir: "cw11", file: "tls_after_exit.c", want: "PPPPPPP"},
		{dir: "cw11", file: "tls_after_exit.c", defines: bug, want: "FFFFFFF", line: 41, text: "use of the thread-local variable mine of thread P1 after the thread ended"},
		{file: "lt_return.c", want: "PPPPPPP"},
		{file: "lt_return.c", defines: bug, want: "FFFFFFF", line: 25, text: "use of the local variable v of start after its lifetime ended", asan: true},
		{file: "lt_block.c", want: "PPPPPPP"},
		{file: "lt_block.c", defines: bug, want: "FFFFFFF", line: 25, text: "use of the local variable cfg of main after its lifetime ended", asan: true},
		{file: "lt_thread_exit.c", want: "PPPPPPP"},
		{file: "lt_thread_exit.c", defines: bug, want: "FFFFFFF", line: 45, text: "use of the local variable box of worker after its lifetime ended", asan: true},
		{file: "lt_scope_exit.c", want: "PPPPPPP"},
		{file: "lt_scope_exit.c", defines: bug, want: "FFFFFFF", line: 40, text: "use of the local variable box of worker after its lifetime ended", asan: true},
		{file: "lt_main_exit.c", want: "PPPPPPP"},
		{file: "lt_main_exit.c", defines: bug, want: "FFFFFFF", line: 17, text: "use of the local variable v of main after its lifetime ended"},
		{file: "lt_main_return.c", want: "PPPPPPP"},
		{file: "lt_main_return.c", defines: bug, want: "FFFFFFF", line: 18, text: "use of the local variable seed of main after its lifetime ended"},
		{file: "lt_static.c", want: "PPPPPPP"},
		{file: "lt_static.c", defines: bug, want: "FFFFFFF", line: 26, text: "use of the local variable v of start after its lifetime ended", asan: true},
		{file: "lt_noderef.c", want: "PPPPPPP"},
		{file: "lt_noderef.c", defines: bug, want: "FFFFFFF", line: 28, text: "use of the local variable frame of enter after its lifetime ended", asan: true},
		{file: "lt_joined.c", want: "PPPPPPP"},
		{file: "lt_joined.c", defines: bug, want: "FFFFFFF", line: 23, text: "use of the local variable arg of run after its lifetime ended", asan: true},
		{file: "lt_tls.c", want: "PPPPPPP"},
		// (Either worker's copy: the engines may name P1's or P2's.)
		{file: "lt_tls.c", defines: bug, want: "FFFFFFF", line: 52, text: "use of the thread-local variable slot of thread P"},
		// Lifetimes a loop repeats: a new object at each entry into
		// the block (C11 6.2.4p6), lowered as a heap object each.
		{file: "lt_loop_thread.c", want: "PPPPPPP"},
		{file: "lt_loop_thread.c", defines: bug, want: "FFFFFFF", line: 21, text: "use of the local variable job of main after its lifetime ended"},
		{file: "lt_loop_carry.c", want: "PPPPPPP"},
		{file: "lt_loop_carry.c", defines: bug, want: "FFFFFFF", line: 19, text: "use of the local variable cur of main after its lifetime ended"},
		{file: "lt_loop_helper.c", want: "PPPPPPP"},
		{file: "lt_loop_helper.c", defines: bug, want: "FFFFFFF", line: 33, text: "use of the local variable msg of send after its lifetime ended", asan: true},
		{file: "lt_loop_free.c", want: "PPPPPPP"},
		{file: "lt_loop_free.c", defines: bug, want: "FFFFFFF", line: 22, text: "free of memory that malloc did not allocate"},
		// Main's thread-locals end at its pthread_exit.
		{file: "lt_tls_main_exit.c", want: "PPPPPPP"},
		{file: "lt_tls_main_exit.c", defines: bug, want: "FFFFFFF", line: 24, text: "use of the thread-local variable mine of thread P0 after the thread ended"},
	} {
		dir := c.dir
		if dir == "" {
			dir = "lifetime"
		}
		path := filepath.Join("testdata", dir, c.file)
		if c.asan && long {
			for i := 0; i < 3; i++ {
				if !nativeASanFails(t, path, c.defines, "detect_stack_use_after_return=1") {
					t.Errorf("%s %v: the native run under ASan did not fail (the test's expectation is wrong)", c.file, c.defines)
				}
			}
		}
		for i, cell := range wild4Cells {
			w := c.want[i]
			if !long && cell.model != "rc11" && cell.model != "sc" {
				continue
			}
			name := fmt.Sprintf("%s/%s/%s", strings.TrimSuffix(c.file, ".c"), strings.Join(c.defines, ","), cell.model)
			t.Run(name, func(t *testing.T) {
				races := cell.target == "" && (cell.model == "rc11" || cell.model == "imm")
				check := func(e string) (*Result, error) {
					return Check(context.Background(), path, CheckOptions{Bound: 4, Engine: e, Target: cell.target,
						Model: model(t, cell.model), ModelName: cell.model, Races: races,
						Clang: ClangOptions{Defines: c.defines}})
				}
				var last *Result
				checkWildCell(t, w, "", c.line, func(e string) (*Result, error) {
					r, err := check(e)
					last = r
					return r, err
				})
				if w == 'F' && (last.Failed == nil || !strings.HasPrefix(last.Failed.Text, c.text)) {
					t.Errorf("failure %v, want %q", last.Failed, c.text)
				}
				// The SMT engine decides the same.
				r, err := check("smt")
				if err != nil {
					t.Fatal(err)
				}
				if r.Verdict != last.Verdict {
					t.Fatalf("SMT engine: %v (%v), graph engine %v", r.Verdict, r.Result.Err, last.Verdict)
				}
				if w == 'F' && (r.Failed == nil || !strings.HasPrefix(r.Failed.Text, c.text) || r.Failed.Pos.Line != c.line) {
					t.Errorf("SMT engine: failure %v, want %q at line %d", r.Failed, c.text, c.line)
				}
			})
		}
	}
}

// TestLifetimeHoisted: an address in a local whose lifetime a loop
// repeats, computed by clang before the lifetime starts from a variable
// index, is refused by name (lifetime.go's hoisted), not answered.
func TestLifetimeHoisted(t *testing.T) {
	needClang(t)
	_, err := Check(context.Background(), filepath.Join("testdata", "lifetime", "lt_loop_hoisted.c"), CheckOptions{Bound: 2, Model: model(t, "sc"), ModelName: "sc"})
	if err == nil || !strings.Contains(err.Error(), "lt_loop_hoisted.c:18:") || !strings.Contains(err.Error(), "before its lifetime starts") {
		t.Fatalf("error %v, want the refusal at line 18", err)
	}
}
