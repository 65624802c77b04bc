package porthos

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/prog"
)

// TestDivisionByZero: MP-mod.pts takes 6 % b where b is the data of a
// message-passing pair, 0 only when the reads are reordered. An
// execution of either side that its model allows and that divides by
// zero is an error of the program; otherwise the check answers.
func TestDivisionByZero(t *testing.T) {
	tests := []struct {
		source, target string
		wantErr        bool
	}{
		{"x86:tso", "power:power", true},
		{"power:power", "x86:tso", true}, // the source side allows it
		{"x86:sc", "x86:tso", false},
	}
	for _, tc := range tests {
		t.Run(tc.target+"⊆"+tc.source, func(t *testing.T) {
			src, tgt := side(t, tc.source), side(t, tc.target)
			p, err := Load(filepath.Join("testdata", "MP-mod.pts"), &src, &tgt, 2)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r := Check(ctx, p, &src, &tgt, Options{})
			var dz *prog.DivisionByZeroError
			if tc.wantErr {
				if r.Status != Failed || !errors.As(r.Err, &dz) || dz.At != filepath.Join("testdata", "MP-mod.pts")+":12:5: t1" {
					t.Fatalf("%s %v; want a division by zero at line 12", r.Status, r.Err)
				}
				return
			}
			if r.Status != Done || !r.Holds {
				t.Fatalf("%s %v holds=%v; want the inclusion to hold", r.Status, r.Err, r.Holds)
			}
		})
	}
}
