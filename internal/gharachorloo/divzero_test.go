package gharachorloo_test

import (
	"context"
	"errors"
	"testing"

	"github.com/musket-verify/musket/internal/gharachorloo"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// TestDivisionByZero: as in the other engines, x/0 is 0 and an accepted
// execution that divides by zero is an error naming the instruction.
func TestDivisionByZero(t *testing.T) {
	tests := []struct{ name, src, wantAt string }{
		{"on one path", `C divpaths
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
exists (y=0)`, "t.litmus:7:5: P0"},
		{"on a path no execution takes", `C divdead
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
exists (y=1)`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lt, err := litmus.Parse("t.litmus", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			r := gharachorloo.Run(context.Background(), lt, gharachorloo.SC, gharachorloo.Options{})
			var dz *prog.DivisionByZeroError
			switch {
			case tc.wantAt != "":
				if r.Status != result.Failed || !errors.As(r.Err, &dz) || dz.At != tc.wantAt {
					t.Errorf("%s %v; want a division by zero at %s", r.Status, r.Err, tc.wantAt)
				}
			case r.Status != result.Done || !r.Ok():
				t.Errorf("%s %v Ok=%v; want a verdict, Ok", r.Status, r.Err, r.Ok())
			}
		})
	}
}
