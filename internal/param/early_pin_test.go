package param

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEarlyPinnedActor: an early Cubicle-W file whose threads are named
// by process constants (testdata/early) and its current-syntax twin,
// each transition performed by [i] pinned to its thread, are the same
// system: no shared sequentially consistent memory (a thread's PC[#k]
// and registers are its own cells), the same verdict and the same
// visited cubes, which the instances confirm. Before pinActor, PC[#k]
// := v updated every cell and the early form had shared memory (more
// cubes: 28 for sb_fenced_safe against 15).
func TestEarlyPinnedActor(t *testing.T) {
	for _, name := range []string{"sb_fenced_safe", "sb_unsafe"} {
		t.Run(name, func(t *testing.T) {
			want := Safe
			if strings.HasSuffix(name, "_unsafe") {
				want = Unsafe
			}
			var nodes []int
			for _, file := range []string{name + ".cub", name + "_twin.cub"} {
				sys, err := ParseFile(filepath.Join("testdata", "early", file))
				if err != nil {
					t.Fatal(err)
				}
				if sys.SharedSC {
					t.Errorf("%s: shared sequentially consistent memory", file)
				}
				for _, tr := range sys.Trans {
					if tr.Actor < 0 {
						t.Errorf("%s: transition %s is performed by no process", file, tr.Name)
					}
				}
				opts := Options{Timeout: 20 * time.Second}
				res, err := Verify(context.Background(), sys, opts)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != want {
					t.Errorf("%s: %s, want %s", file, res.Verdict, want)
				}
				if cc := SelfCheck(context.Background(), sys, res, opts, 20000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
					t.Errorf("%s: %s", file, cc)
				}
				nodes = append(nodes, res.Visited)
			}
			if nodes[0] != nodes[1] {
				t.Errorf("%d cubes in the early form, %d in the twin", nodes[0], nodes[1])
			}
		})
	}
}

// TestOneConstIndex: the transitions of an early file that name no
// process and touch the cells of one constant only are performed by it.
func TestOneConstIndex(t *testing.T) {
	const head = "number_procs 2\ntype loc = A | B\narray PC[proc] : loc\narray R[proc] : loc\nweak var X : loc\n" +
		"init (p) { PC[p] = A }\nunsafe (p) { PC[p] = B }\n" +
		"transition w ()\nrequires { PC[#1] = A }\n{ write(#1, X, B) }\n"
	tests := []struct {
		name, trans string
		pinned      bool
	}{
		{"own cells", "transition t ()\nrequires { PC[#1] = A && R[#1] = B }\n{ PC[#1] := B }\n", true},
		{"own cell written from a variable", "transition t ()\nrequires { PC[#2] = A }\n{ R[#2] := B }\n", true},
		{"two constants", "transition t ()\nrequires { PC[#1] = A && R[#2] = B }\n{ PC[#1] := B }\n", false},
		{"universal update", "transition t ()\nrequires { PC[#1] = A }\n{ R[j] := case | j = #1 : B | _ : R[j] }\n", false},
		{"a quantifier", "transition t ()\nrequires { PC[#1] = A && forall_other j. PC[j] = A }\n{ PC[#1] := B }\n", false},
		{"beside a transition without arrays", "transition t ()\nrequires { PC[#1] = A }\n{ PC[#1] := B }\ntransition u ()\n{ }\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := Load("t.cub", []byte(head+tc.trans))
			if err != nil {
				t.Fatal(err)
			}
			var tr *Trans
			for _, x := range sys.Trans {
				if x.Name == "t" {
					tr = x
				}
			}
			if tr == nil {
				t.Fatal("no transition t")
			}
			if got := tr.Actor >= 0; got != tc.pinned {
				t.Errorf("performed by a process: %v, want %v", got, tc.pinned)
			}
		})
	}
}
