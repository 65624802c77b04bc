package graph

import (
	"reflect"
	"testing"

	"github.com/musket-verify/musket/internal/symexec"
)

// TestMergeTaint checks the replay's union of taints against
// symexec.MergeDeps.
func TestMergeTaint(t *testing.T) {
	for _, c := range [][2]taint{
		{nil, nil}, {{1}, nil}, {nil, {2}}, {{1, 3}, {1, 3}}, {{1, 3}, {2}},
		{{1, 2, 3}, {3, 4}}, {{5}, {1, 2}}, {{1, 4, 9}, {2, 4, 7, 9, 11}},
	} {
		got := mergeTaint(c[0], c[1])
		want := symexec.MergeDeps(c[0], c[1])
		if len(got) != 0 || len(want) != 0 {
			if !reflect.DeepEqual(got, want) {
				t.Errorf("mergeTaint(%v, %v) = %v, want %v", c[0], c[1], got, want)
			}
		}
	}
}
