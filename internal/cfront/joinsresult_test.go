package cfront

import (
	"testing"

	"github.com/llir/llvm/asm"
)

// TestJoinsResult checks that only a join with a non-null second
// argument makes the threads store their results (a null argument is
// wrapped in the call's argument, as clang writes it).
func TestJoinsResult(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want bool
	}{
		{"i8** null", false},
		{"i8** %r", true},
	} {
		ll := `declare i32 @pthread_join(i64, i8**)
define void @f(i64 %t, i8** %r) {
  %1 = call i32 @pthread_join(i64 %t, ` + c.arg + `)
  ret void
}
`
		m, err := asm.ParseString("join.ll", ll)
		if err != nil {
			t.Fatal(err)
		}
		if got := joinsResult(m); got != c.want {
			t.Errorf("join with %s: joinsResult %v, want %v", c.arg, got, c.want)
		}
	}
}
