package param

import (
	"math"
	"slices"
	"testing"
)

// TestStateStore: the compact store gives back every state as it was
// added, across the widenings a large value forces.
func TestStateStore(t *testing.T) {
	tests := []struct {
		name   string
		states [][]int64
		width  int
	}{
		{"bytes", [][]int64{{0, 1, -1}, {127, -128, 3}}, 1},
		{"to int16", [][]int64{{0, 1, 2}, {1000, -7, 0}, {5, 5, 5}}, 2},
		{"to int32", [][]int64{{1, 2, 3}, {1 << 20, 0, -1}}, 4},
		{"to int64", [][]int64{{1, 300, 3}, {math.MinInt64, 0, 1}, {2, 2, 2}}, 8},
		{"empty", nil, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStateStore(3)
			for _, st := range tc.states {
				s.add(st)
			}
			if s.len() != len(tc.states) || s.width != tc.width {
				t.Fatalf("%d states of width %d, want %d of width %d", s.len(), s.width, len(tc.states), tc.width)
			}
			var buf []int64
			for i, want := range tc.states {
				if buf = s.row(i, buf); !slices.Equal(buf, want) {
					t.Errorf("row %d = %v, want %v", i, buf, want)
				}
				for c, v := range want {
					if got := s.at(i, c); got != v {
						t.Errorf("at(%d, %d) = %d, want %d", i, c, got, v)
					}
				}
			}
		})
	}
	var none *stateStore
	if none.len() != 0 || len(none.rows()) != 0 {
		t.Errorf("a nil store is not empty")
	}
}
