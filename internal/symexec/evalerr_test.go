package symexec

import (
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestEvalErr checks that EvalErr tells a read without a value (ok
// false, no error: the candidate has no such execution) from an
// operation prog.Apply refuses (an error: the engine cannot compute an
// execution that exists), and that Eval is false for both.
func TestEvalErr(t *testing.T) {
	mk := func(op prog.Op, x, y *Sym) *Sym {
		s, err := Bin(op, x, y)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	neg, err := Un(prog.OpNeg, ReadOf(0))
	if err != nil {
		t.Fatal(err)
	}
	three := Const(prog.IntValue(3))
	vals := map[int]prog.Value{0: prog.AddrValue("x"), 1: prog.IntValue(2)}
	read := func(i int) (prog.Value, bool) { v, ok := vals[i]; return v, ok }
	for _, c := range []struct {
		name   string
		s      *Sym
		want   prog.Value
		ok     bool
		hasErr bool
	}{
		{"int", mk(prog.OpMul, ReadOf(1), three), prog.IntValue(6), true, false},
		{"addr+int", mk(prog.OpAdd, ReadOf(0), three), prog.Value{Loc: "x", Int: 3}, true, false},
		{"addr*int", mk(prog.OpMul, ReadOf(0), three), prog.Value{}, true, true},
		{"-addr", neg, prog.Value{}, true, true},
		{"nested", mk(prog.OpEq, mk(prog.OpMul, ReadOf(0), three), three), prog.Value{}, true, true},
		{"no value", mk(prog.OpMul, ReadOf(7), three), prog.Value{}, false, false},
		{"no value first", mk(prog.OpAdd, ReadOf(7), mk(prog.OpMul, ReadOf(0), three)), prog.Value{}, false, false},
	} {
		v, ok, err := c.s.EvalErr(read)
		if ok != c.ok || (err != nil) != c.hasErr || err == nil && ok && v != c.want {
			t.Errorf("%s: EvalErr = %v, %v, %v; want %v, %v, error %v", c.name, v, ok, err, c.want, c.ok, c.hasErr)
		}
		if _, ok := c.s.Eval(read); ok != (c.ok && !c.hasErr) {
			t.Errorf("%s: Eval ok = %v", c.name, ok)
		}
	}
}
