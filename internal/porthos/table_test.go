package porthos

import (
	"path/filepath"
	"testing"
)

// TestTableIII checks the verdicts of Table III of
// "BMC with Memory Models as Modules" (FMCAD 2018) at bound 2: TSO
// ⊆ SC fails for all seven programs; Power ⊆ TSO and ARM ⊆ TSO fail for
// Parker and hold for Dekker, Peterson, Burns, Bakery and Szymanski. The
// paper timed out on Lamport under Power and ARM; Musket finds that
// inclusion fails there (TestLamportAgainstEnumerator checks the state
// with the explicit engine).
func TestTableIII(t *testing.T) {
	const fails, holds = false, true
	cases := []struct {
		program                 string
		tsoSC, powerTSO, armTSO bool
	}{
		{"Parker", fails, fails, fails},
		{"Dekker", fails, holds, holds},
		{"Peterson", fails, holds, holds},
		{"Burns", fails, holds, holds},
		{"Bakery", fails, holds, holds},
		{"Lamport", fails, fails, fails},
		{"Szymanski", fails, holds, holds},
	}
	for _, tc := range cases {
		path := filepath.Join(corpus, "mutex", "pts", tc.program+".pts")
		for _, col := range []struct {
			source, target string
			want           bool
		}{
			{"sc", "tso", tc.tsoSC},
			{"tso", "power", tc.powerTSO},
			{"tso", "armv7", tc.armTSO},
		} {
			t.Run(tc.program+"/"+col.target+"⊆"+col.source, func(t *testing.T) {
				r := compare(t, path, col.source, col.target, Options{Bound: 2})
				if r.Holds != col.want {
					t.Fatalf("inclusion holds = %v, want %v (missing %v)", r.Holds, col.want, r.Missing)
				}
				if !r.Holds && (len(r.Missing) != 1 || r.Witness == nil) {
					t.Fatalf("a failing inclusion gives one missing state and its witness: %v, %v", r.Missing, r.Witness)
				}
				if r.Iterations < len(r.Missing) {
					t.Fatalf("%d iterations for %d missing states", r.Iterations, len(r.Missing))
				}
			})
		}
	}
}
