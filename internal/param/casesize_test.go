package param

import (
	"fmt"
	"strings"
	"testing"
)

// caseSystem is a system whose transition updates X by a case of n
// branches, each with the condition cond(i).
func caseSystem(n int, cond func(i int) string) string {
	var b strings.Builder
	b.WriteString("var X : int\nvar Y : int\ninit () { X = 0 && Y = 0 }\nunsafe () { X = 3 }\ntransition t ()\nrequires { X < 5 }\n{ X := case")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, " | %s : %d", cond(i), i+1)
	}
	b.WriteString(" | _ : X; }\n")
	return b.String()
}

// TestCaseSize: a case whose branches made exclusive (caseAlts) come to
// more than maxCaseLits literals is refused as a limit when the system
// is loaded. Before, 20000 branches of one equality each took 12 GB and
// a minute within one pre-image, past -memory 1G, -timeout 5 and SIGINT
// (robust7); conditions of two conjunctions multiply when negated.
func TestCaseSize(t *testing.T) {
	eq := func(i int) string { return fmt.Sprintf("X = %d", i) }
	two := func(i int) string { return fmt.Sprintf("X = %d && Y = %d || X = %d && Y = %d", i, i, i+1, i) }
	tests := []struct {
		name    string
		n       int
		cond    func(int) string
		refused bool
	}{
		{"1000 equalities", 1000, eq, false},
		{"20000 equalities", 20000, eq, true},
		{"3000 equalities", 3000, eq, true},
		{"5 conditions of two conjunctions", 5, two, false},
		{"12 conditions of two conjunctions", 12, two, true},
	}
	for _, tc := range tests {
		src := caseSystem(tc.n, tc.cond)
		_, err := Load("x.cub", []byte(src))
		refused := err != nil && strings.Contains(err.Error(), "x.cub:7:8: limit reached: this case's") && strings.Contains(err.Error(), fmt.Sprintf("more than %d literals", maxCaseLits))
		if refused != tc.refused || err != nil && !refused {
			t.Errorf("%s: %v; want refused %v", tc.name, err, tc.refused)
		}
	}
	// The count is an upper bound of what caseAlts builds, with no
	// literal found true or false.
	for _, n := range []int{1, 2, 5, 100} {
		for _, cond := range []func(int) string{eq, two} {
			if n == 100 && cond != nil && cond(0) == two(0) {
				continue // past the bound
			}
			sys, err := Load("x.cub", []byte(caseSystem(n, cond)))
			if err != nil {
				t.Fatal(err)
			}
			for _, tr := range sys.Trans {
				for _, u := range tr.Updates {
					if len(u.Cases) < 2 {
						continue
					}
					built := 0
					for _, a := range caseAlts(u.Cases, &instEnv{}) {
						built += len(a.lits)
					}
					if bound := exclusiveCaseLits(u.Cases); float64(built) > bound {
						t.Errorf("%d branches: caseAlts built %d literals, over the count %v", n, built, bound)
					}
				}
			}
		}
	}
}
