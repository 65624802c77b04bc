package param

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWeakCompiledSuccessors: on a weak system, the compiled
// transitions (compiled.go), which wfinite.successors uses on a state
// whose store buffers are empty (emptyBuffers), give the successors of
// the interpreter in the same order. Every state of a breadth-first
// exploration of the instances with 2 and 3 processes is compared,
// under the sequentially consistent phase of a sample (model SC) and
// under TSO and PSO (where the states with buffered writes stay with
// the interpreter, and those without are compared): the weak corpus
// files and random weak systems (genSystemWith and genWide), more
// states and systems under MUSKET_LONG.
func TestWeakCompiledSuccessors(t *testing.T) {
	long := os.Getenv("MUSKET_LONG") != ""
	limit, random := 300, 100
	if long {
		limit, random = 3000, 1500
	}
	var systems []*System
	var names []string
	for _, file := range corpusFiles() {
		if sys, err := ParseFile(file); err == nil && sys.Weak {
			systems, names = append(systems, sys), append(names, filepath.Base(file))
		}
	}
	rng := rand.New(rand.NewPCG(23, 29))
	for i := range random {
		src := genSystemWith(rng, 0.6, i%2 == 0)
		if i%3 == 2 {
			src = genWide(rng, 0.6)
		}
		if sys, err := Load("gen.cub", []byte(src)); err == nil && sys.Weak {
			systems, names = append(systems, sys), append(names, fmt.Sprintf("random system %d:\n%s", i, src))
		}
	}
	compiledStates, systemsCompiled := 0, 0
	for k, sys := range systems {
		if !weakExplorable(sys) {
			continue
		}
		used := false
		for n := int32(2); n <= 3; n++ {
			for _, model := range []memModel{modelSC, modelTSO, modelPSO} {
				interp := newExplorer(sys, n, model, wBufCap)
				interp.noCompile = true
				comp := newExplorer(sys, n, model, wBufCap)
				if comp.size > maxCells || comp.compiled() == nil {
					continue
				}
				states, _ := interp.bfs(nil, nil, nil, limit, 0)
				var a, b []successor
				var st []int64
				for i := range states.len() {
					st = states.row(i, st)
					if comp.emptyBuffers(st) {
						compiledStates++
						used = true
					}
					a = interp.successors(st, a[:0])
					b = comp.successors(st, b[:0])
					if err := sameWeakSteps(n, i, st, a, b); err != nil {
						t.Fatalf("%s (%s): %v", names[k], model, err)
					}
				}
			}
		}
		if used {
			systemsCompiled++
		}
	}
	t.Logf("%d weak systems, %d compiled; %d states with empty buffers compared", len(systems), systemsCompiled, compiledStates)
	if compiledStates == 0 {
		t.Errorf("no state went through the compiled transitions")
	}
}

// sameWeakSteps is sameSteps with the flushes (steps without a
// transition) compared by process and cell.
func sameWeakSteps(n int32, i int, st []int64, a, b []successor) error {
	if len(a) != len(b) {
		return fmt.Errorf("n=%d state %d %v: %d successors, the interpreter %d", n, i, st, len(b), len(a))
	}
	for k := range a {
		x, y := a[k].step, b[k].step
		if x.t == nil || y.t == nil {
			if x.t != y.t || x.flush != y.flush || x.cell != y.cell || !slices.Equal(a[k].st, b[k].st) {
				return fmt.Errorf("n=%d state %d %v: successor %d differs (a flush)", n, i, st, k)
			}
			continue
		}
		if err := sameSteps(n, i, st, a[k:k+1], b[k:k+1]); err != nil {
			return err
		}
	}
	return nil
}
