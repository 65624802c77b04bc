package cfront

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestObjectCellsLimit: a global object of more scalar cells than
// maxObjectCells is refused at once as a limit (a LimitError: exit status
// 3), whatever its shape; cells listed every one of them first (an array
// of 2^28 ints: 20 GB, 11 minutes past -timeout 10). One just under the
// limit is lowered.
func TestObjectCellsLimit(t *testing.T) {
	for _, tc := range []struct {
		typ   string
		limit bool
	}{
		{"[268435456 x i32]", true},
		{"[1099511627776 x i8]", true},
		{"[1024 x [1024 x i32]]", true},
		{"[262145 x i8]", true},
		{"[2 x { i32, [131072 x i64] }]", true},
		{"[4096 x i32]", false},
	} {
		ll := fmt.Sprintf("@a = dso_local global %s zeroinitializer, align 4\n\ndefine dso_local i32 @main() {\n  ret i32 0\n}\n", tc.typ)
		_, err := LowerIR("big.c", []byte(ll), Options{Bound: 2})
		var le *LimitError
		if got := errors.As(err, &le); got != tc.limit || got && !strings.Contains(err.Error(), "an object of more than 262144 memory cells") {
			t.Errorf("%s: error %v, want a limit: %v", tc.typ, err, tc.limit)
		}
	}
}

// TestHeapObjectLimit: malloc of more than maxHeapObject bytes is a
// limit of Musket (a LimitError: exit status 3), not an error of the
// program, which may well allocate that much.
func TestHeapObjectLimit(t *testing.T) {
	ll := "define dso_local i32 @main() {\n  %1 = call i8* @malloc(i64 1073741824)\n  ret i32 0\n}\n\ndeclare i8* @malloc(i64)\n"
	_, err := LowerIR("big.c", []byte(ll), Options{Bound: 2})
	var le *LimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "malloc: size 1073741824 (at most") {
		t.Errorf("error %v, want a limit on malloc's size", err)
	}
}
