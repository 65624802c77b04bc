package spec

import (
	"reflect"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

func TestRefString(t *testing.T) {
	for _, c := range []struct {
		r    Ref
		want string
	}{
		{Ref{Thread: 0, Name: "EAX"}, "0:EAX"},
		{Ref{Thread: 12, Name: "r1"}, "12:r1"},
		{Ref{Thread: -1, Name: "x"}, "x"},
		{Ref{Thread: -1, Name: "a+3"}, "a[3]"},
		{Ref{Thread: -1, Name: "x+y"}, "x+y"},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.r, got, c.want)
		}
	}
}

func TestCondFormatRefsEval(t *testing.T) {
	r0 := Ref{Thread: 0, Name: "r0"}
	x := Ref{Thread: -1, Name: "x"}
	y := Ref{Thread: -1, Name: "y"}
	one := prog.Value{Int: 1}
	for _, c := range []struct {
		c    Cond
		text string
		refs []Ref
		vals map[Ref]int64
		want bool
	}{
		{nil, "true", nil, nil, false},
		{Bool{V: false}, "false", nil, nil, false},
		{Atom{Ref: r0, Val: one}, "0:r0=1", []Ref{r0}, map[Ref]int64{r0: 1}, true},
		{Not{C: Atom{Ref: x, Val: one, Neq: true}}, "~x!=1", []Ref{x}, map[Ref]int64{x: 1}, true},
		{And{L: Or{L: Atom{Ref: x, Val: one}, R: Atom{Ref: r0, Val: one}}, R: RefEq{L: x, R: y}},
			"(x=1 \\/ 0:r0=1) /\\ x=[y]", []Ref{x, r0, y}, map[Ref]int64{x: 1, y: 2}, false},
		{Or{L: And{L: Atom{Ref: x, Val: one}, R: Atom{Ref: x, Val: one}}, R: RefEq{L: x, R: r0, Neq: true}},
			"x=1 /\\ x=1 \\/ x!=0:r0", []Ref{x, r0}, map[Ref]int64{x: 0, r0: 1}, true},
	} {
		if got := FormatCond(c.c); got != c.text {
			t.Errorf("FormatCond = %q, want %q", got, c.text)
		}
		if got := Refs(c.c); !reflect.DeepEqual(got, c.refs) {
			t.Errorf("Refs(%s) = %v, want %v", c.text, got, c.refs)
		}
		if c.c == nil {
			continue
		}
		got := Eval(c.c, func(r Ref) prog.Value { return prog.Value{Int: c.vals[r]} })
		if got != c.want {
			t.Errorf("Eval(%s) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestConditionLine(t *testing.T) {
	tt := &Test{Quant: NotExists, Cond: Atom{Ref: Ref{Thread: -1, Name: "x"}, Val: prog.Value{Int: 2}}}
	if got := tt.ConditionLine(); got != "~exists ([x]=2)" {
		t.Errorf("ConditionLine = %q", got)
	}
}
