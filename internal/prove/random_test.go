package prove

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/bmc"
)

// randomLoops writes a random SPARC test of two threads over x and y, each
// thread maybe with a loop that reads, writes, swaps and counts and
// leaves when it reads a value from x or y; every loop carries the
// invariant "true" (inductive, and the weakest: the abstraction is then
// at its coarsest) or, with randomInv, one of a few invariants over
// registers and [x], true or not.
func randomLoops(r *rand.Rand, name string, randomInv bool) string {
	inv := func(th int) string {
		if !randomInv {
			return "true"
		}
		forms := []string{"true", "N:o1<2", "N:o2=0 \\/ N:o2=1", "N:o4!=1", "N:o3>=0 /\\ N:o3<=2", "[x]<2", "[y]=0 \\/ [y]=1", "N:o1=[x]"}
		return strings.ReplaceAll(forms[r.Intn(len(forms))], "N", fmt.Sprint(th))
	}
	regs := []string{"%o1", "%o2", "%o3"}
	locs := []string{"x", "y"}
	instr := func() string {
		reg, loc := regs[r.Intn(len(regs))], locs[r.Intn(len(locs))]
		switch r.Intn(6) {
		case 0, 1:
			return fmt.Sprintf("ld [%s],%s", loc, reg)
		case 2:
			return fmt.Sprintf("st %s,[%s]", reg, loc)
		case 3:
			return fmt.Sprintf("mov %d,%s", 1+r.Intn(2), reg)
		case 4:
			return fmt.Sprintf("add %s,1,%s", reg, reg)
		default:
			return fmt.Sprintf("swap [%s],%s", loc, reg)
		}
	}
	var cols [][]string
	var invs []string
	for th := 0; th < 2; th++ {
		var code []string
		for i := r.Intn(3); i > 0; i-- {
			code = append(code, instr())
		}
		br := "bne"
		if r.Intn(2) == 0 {
			br = "be"
		}
		exit := []string{fmt.Sprintf("ld [%s],%%o4", locs[r.Intn(2)]), fmt.Sprintf("cmp %%o4,%d", r.Intn(3))}
		switch r.Intn(3) {
		case 1: // test at the bottom: every iteration runs the body
			body := []string{"L: " + instr()}
			for i := r.Intn(3); i > 0; i-- {
				body = append(body, instr())
			}
			code = append(append(code, body...), append(exit, br+" L", "nop")...)
			invs = append(invs, fmt.Sprintf("(* invariant P%d:L %s *)", th, inv(th)))
		case 2: // test at the top: the last iteration skips the body
			exit[0] = "L: " + exit[0]
			code = append(append(code, exit...), br+" OUT", "nop")
			for i := 1 + r.Intn(3); i > 0; i-- {
				code = append(code, instr())
			}
			code = append(code, "ba L", "nop", "OUT: nop")
			invs = append(invs, fmt.Sprintf("(* invariant P%d:L %s *)", th, inv(th)))
		}
		for i := r.Intn(3); i > 0; i-- {
			code = append(code, instr())
		}
		if len(code) == 0 {
			code = append(code, "nop")
		}
		cols = append(cols, code)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "SPARC %s\n{ x=0; y=0; }\n P0 | P1 ;\n", name)
	for i := 0; i < len(cols[0]) || i < len(cols[1]); i++ {
		cell := func(c []string) string {
			if i < len(c) {
				return c[i]
			}
			return ""
		}
		fmt.Fprintf(&b, " %s | %s ;\n", cell(cols[0]), cell(cols[1]))
	}
	for _, inv := range invs {
		b.WriteString(inv + "\n")
	}
	refs := []string{"0:o1", "0:o2", "0:o3", "1:o1", "1:o2", "1:o3", "x", "y"}
	var atoms []string
	for i := 1 + r.Intn(2); i > 0; i-- {
		atoms = append(atoms, fmt.Sprintf("%s=%d", refs[r.Intn(len(refs))], r.Intn(3)))
	}
	fmt.Fprintf(&b, "exists (%s)\n", strings.Join(atoms, ` /\ `))
	return b.String()
}

// TestRandomLoopsSound compares the invariant method with the bounded
// method on random programs: whatever the bounded method finds reachable
// (a real execution) the method must not prove unreachable, whether the
// invariants are "true" or random ones (which it must then have checked
// soundly). MUSKET_LONG checks more programs.
func TestRandomLoopsSound(t *testing.T) {
	n := 30
	if os.Getenv("MUSKET_LONG") != "" {
		n = 300
	}
	for _, randomInv := range []bool{false, true} {
		r := rand.New(rand.NewSource(4))
		dir := t.TempDir()
		proved, real, refused := 0, 0, 0
		for i := 0; i < n; i++ {
			src := randomLoops(r, fmt.Sprintf("R%d", i), randomInv)
			path := filepath.Join(dir, fmt.Sprintf("r%d.litmus", i))
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			model := SoundModels[i%len(SoundModels)]
			rep, err := Prove(context.Background(), path, Options{Model: model})
			if err != nil {
				if randomInv && strings.Contains(err.Error(), "has no register") {
					refused++ // an invariant about a register the thread lacks
					continue
				}
				t.Fatalf("%v\n%s", err, src)
			}
			pr, err := bmc.CheckLitmus(context.Background(), path, bmc.LitmusOptions{Model: model, Bound: 2})
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if rep.Proved {
				proved++
			}
			if pr.Reachable {
				real++
			}
			if rep.Proved && pr.Reachable {
				t.Errorf("under %s: proved, but the bounded method reaches the condition:\n%s", model, src)
			}
		}
		t.Logf("random invariants %v: %d programs: %d proved, %d with a real violation, %d refused", randomInv, n, proved, real, refused)
	}
}
