package bmc_test

import (
	"context"
	"errors"
	"github.com/musket-verify/musket/internal/driver"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// divTests are programs that may divide (or take a remainder) by zero.
// Both engines give x/0 and x%0 the value 0 and report an execution the
// model allows that divides by zero as an error of the program, naming
// the instruction (wantAt); without one, the verdict stands (wantOk).
var divTests = []struct {
	name, model, src string
	wantAt           string // "" when no allowed execution divides by zero
	wantOk           bool
}{
	{"only paths divide by zero", "sc", `C divonly
{ x=0; y=0; }
P0 (int* x, int* y) {
  int r0 = *x;
  int r1 = 7 / r0;
  *y = r1;
}
exists (y=1)`, "t.litmus:5:7: P0", false},
	{"constant divisor", "sc", `C divconst
{ x=0; }
P0 (int* x) {
  int r0 = *x;
  int r1 = r0 % 0;
}
exists (0:r0=0)`, "t.litmus:5:7: P0", false},
	{"on one path", "sc", `C divpaths
{ x=0; y=0; }
P0 (int* x, int* y) {
  int r0 = *x;
  int r1 = 0;
  if (r0 == 3) {
    r1 = 1 / (r0 - 3);
  }
  *y = r1;
}
P1 (int* x) {
  *x = 3;
}
exists (y=0)`, "t.litmus:7:5: P0", false},
	{"on a path no execution takes", "sc", `C divdead
{ x=0; y=0; }
P0 (int* x, int* y) {
  int r0 = *x;
  int r1 = 0;
  if (r0 == 5) {
    r1 = 1 / (r0 - 5);
  }
  *y = r1 + 1;
}
P1 (int* x) {
  *x = 3;
}
exists (y=1)`, "", true},
	{"message passing, release/acquire", "c11", `C divmp
{ x=0; y=0; }
P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 2, memory_order_relaxed);
  atomic_store_explicit(y, 1, memory_order_release);
}
P1 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = 0;
  if (r0 == 1) {
    int r2 = atomic_load_explicit(x, memory_order_relaxed);
    r1 = 6 % r2;
  }
}
exists (1:r1=0)`, "", true},
	{"message passing, relaxed", "c11", `C divmp-rlx
{ x=0; y=0; }
P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 2, memory_order_relaxed);
  atomic_store_explicit(y, 1, memory_order_relaxed);
}
P1 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
  int r1 = 0;
  if (r0 == 1) {
    int r2 = atomic_load_explicit(x, memory_order_relaxed);
    r1 = 6 % r2;
  }
}
exists (1:r1=0)`, "t.litmus:12:5: P1", false},
	{"filtered out", "sc", `C divfilter
{ x=0; y=0; }
P0 (int* x, int* y) {
  int r0 = *x;
  int r1 = 5;
  if (r0 == 0) {
    r1 = 7 / r0;
  }
  *y = r1;
}
P1 (int* x) {
  *x = 1;
}
filter (0:r0=1)
exists (y=5)`, "", true},
}

// TestDivisionByZero: both engines give the same answer, within a
// generous wall-clock guard (the SMT engine used to search forever when
// every path divides by zero: Z3 leaves x/0 free).
func TestDivisionByZero(t *testing.T) {
	const limit, guard = 30 * time.Second, 60 * time.Second
	for _, tc := range divTests {
		t.Run(tc.name, func(t *testing.T) {
			lt, err := litmus.Parse("t.litmus", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			m, err := cat.LoadBuiltin(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			fe, _ := litmus.Lookup(lt.Arch)
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			runs := map[string]func() *result.Result{
				"enum": func() *result.Result {
					return enum.Run(ctx, lt, m, tc.model, enum.Options{TagNames: fe.Tags()})
				},
				"smt": func() *result.Result {
					return bmc.Run(ctx, lt, m, tc.model, bmc.Options{TagNames: fe.Tags()})
				},
			}
			for _, engine := range []string{"enum", "smt"} {
				done := make(chan *result.Result, 1)
				go func() { done <- runs[engine]() }()
				var r *result.Result
				select {
				case r = <-done:
				case <-time.After(guard):
					t.Fatalf("%s: still running after %s", engine, guard)
				}
				checkDiv(t, engine, r, tc.wantAt, tc.wantOk)
			}
		})
	}
}

func checkDiv(t *testing.T, engine string, r *result.Result, wantAt string, wantOk bool) {
	t.Helper()
	var dz *prog.DivisionByZeroError
	if wantAt != "" {
		if r.Status != result.Failed || !errors.As(r.Err, &dz) || dz.At != wantAt {
			t.Errorf("%s: %s %v; want a division by zero at %s", engine, r.Status, r.Err, wantAt)
		}
		return
	}
	if r.Status != result.Done {
		t.Fatalf("%s: %s %v; want a verdict", engine, r.Status, r.Err)
	}
	if r.Ok() != wantOk {
		t.Errorf("%s: Ok = %v, want %v", engine, r.Ok(), wantOk)
	}
}

// TestDivisionByZeroProgram is the reported case: a .pts program reads
// a = 0 and computes b <- 7 / a; the SMT engine used to find exists y=5
// reachable, the explicit engine unreachable. Both report the division.
func TestDivisionByZeroProgram(t *testing.T) {
	src := `{x, y}

thread t0 {
  a = x.load(_rx);
  b <- 7 / a;
  y.store(_rx, 5);
}

exists y=5
`
	path := filepath.Join(t.TempDir(), "div.pts")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, name, err := driver.Models{}.ForTarget("x86")
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"enum", "smt"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
		pr, err := bmc.CheckProgram(ctx, path, m, name, bmc.ProgramOptions{Target: "x86", Bound: 2, Engine: engine})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		var dz *prog.DivisionByZeroError
		if pr.Result.Status != result.Failed || !errors.As(pr.Result.Err, &dz) || pr.Reachable {
			t.Errorf("%s: %s %v reachable=%v; want a division by zero", engine, pr.Result.Status, pr.Result.Err, pr.Reachable)
		}
	}
}
