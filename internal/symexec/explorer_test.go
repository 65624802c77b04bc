package symexec

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// describe prints a path: its events (kind, location, tags), then its
// constraints' count and its rmw pairs.
func describe(p *Path[Event]) string {
	var b strings.Builder
	for _, e := range p.Events {
		fmt.Fprintf(&b, "%v:%s%v ", e.Kind, e.Loc, e.Tags)
	}
	fmt.Fprintf(&b, "cons=%d rmw=%v", len(p.Cons), p.Rmw)
	return b.String()
}

func explore(t *testing.T, code []prog.Instr, bound, maxPaths int) (*Explorer[Event], error) {
	t.Helper()
	th := &prog.Thread{Name: "P0", Code: code}
	labels, err := th.Labels()
	if err != nil {
		t.Fatal(err)
	}
	x := &Explorer[Event]{Th: th, Labels: labels, Bound: bound, Locs: []string{"x", "y"}, MaxPaths: maxPaths,
		Emit: func(_ *State[Event], ev Event) Event { return ev }}
	return x, x.Run(nil)
}

func TestExplorerPaths(t *testing.T) {
	x, y := prog.Addr("x"), prog.Addr("y")
	r0 := prog.Reg{Name: "r0"}
	tests := []struct {
		name  string
		code  []prog.Instr
		paths []string
		cut   bool
	}{
		{"straight line", []prog.Instr{prog.Store{Addr: x, Val: prog.Const{V: prog.IntValue(1)}}, prog.Fence{Tags: []string{"F"}}, prog.Load{Dst: "r0", Addr: y}},
			[]string{"W:x[] F:[F] R:y[] cons=0 rmw=[]"}, false},
		{"branch on a read forks", []prog.Instr{prog.Load{Dst: "r0", Addr: x}, prog.Jump{Cond: r0, Target: "L"}, prog.Store{Addr: y, Val: prog.Const{V: prog.IntValue(1)}}, prog.Label{Name: "L"}},
			[]string{"R:x[] cons=1 rmw=[]", "R:x[] W:y[] cons=1 rmw=[]"}, false},
		{"symbolic address forks over the locations", []prog.Instr{prog.Load{Dst: "r0", Addr: x}, prog.Store{Addr: r0, Val: prog.Const{V: prog.IntValue(1)}}},
			[]string{"R:x[] W:x[] cons=1 rmw=[]", "R:x[] W:y[] cons=1 rmw=[]"}, false},
		{"store-conditional without a reservation fails", []prog.Instr{prog.StoreCond{Addr: x, Val: prog.Const{V: prog.IntValue(1)}, Status: "r1", FailVal: prog.IntValue(1)}},
			[]string{"cons=0 rmw=[]"}, false},
		{"store-conditional after a load-reserve", []prog.Instr{prog.Load{Dst: "r0", Addr: x, Tags: []string{"EX"}}, prog.StoreCond{Addr: x, Val: prog.Const{V: prog.IntValue(1)}, Status: "r1", FailVal: prog.IntValue(1)}},
			[]string{"R:x[EX] cons=0 rmw=[]", "R:x[EX] W:x[] cons=0 rmw=[[0 1]]"}, false},
		{"compare-and-swap fails with its failure tags", []prog.Instr{prog.RMW{Dst: "r0", Addr: x, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Const{V: prog.IntValue(0)}}, New: prog.Const{V: prog.IntValue(1)}, RTags: []string{"A"}, WTags: []string{"A"}, FailRTags: []string{"RLX"}}},
			[]string{"R:x[RLX] cons=1 rmw=[]", "R:x[A] W:x[A] cons=1 rmw=[[0 1]]"}, false},
		{"backward jump cut by the bound", []prog.Instr{prog.Label{Name: "L"}, prog.Load{Dst: "r0", Addr: x}, prog.Jump{Cond: r0, Target: "L"}},
			[]string{"R:x[] R:x[] cons=2 rmw=[]", "R:x[] cons=1 rmw=[]"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, err := explore(t, tc.code, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range x.Paths {
				got = append(got, describe(p))
			}
			if strings.Join(got, "\n") != strings.Join(tc.paths, "\n") {
				t.Errorf("paths:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.paths, "\n"))
			}
			if x.Cut != tc.cut {
				t.Errorf("cut %v, want %v", x.Cut, tc.cut)
			}
		})
	}
}

func TestExplorerLimitsAndErrors(t *testing.T) {
	x := prog.Addr("x")
	r0 := prog.Reg{Name: "r0"}
	fork := []prog.Instr{prog.Load{Dst: "r0", Addr: x}, prog.Jump{Cond: r0, Target: "L"}, prog.Label{Name: "L"}, prog.Load{Dst: "r0", Addr: x}, prog.Jump{Cond: r0, Target: "M"}, prog.Label{Name: "M"}}
	if _, err := explore(t, fork, 1, 3); !errors.Is(err, ErrTooManyPaths) {
		t.Errorf("4 paths, at most 3: %v, want ErrTooManyPaths", err)
	}
	_, err := explore(t, []prog.Instr{prog.Located{Addr: x, Op: prog.LocLock}}, 1, 0)
	if err == nil || !strings.Contains(err.Error(), "P0: unsupported instruction prog.Located") {
		t.Errorf("a located event without Other: %v", err)
	}
	_, err = explore(t, []prog.Instr{prog.Store{Addr: prog.Const{V: prog.IntValue(3)}, Val: prog.Const{V: prog.IntValue(1)}}}, 1, 0)
	if err == nil || !strings.Contains(err.Error(), "access to non-address 3") {
		t.Errorf("a store to an integer: %v", err)
	}
}

func TestSymDeps(t *testing.T) {
	// x^x depends on x though it is always 0; a constant depends on nothing.
	r := ReadOf(2)
	s, err := Bin(prog.OpXor, r, r)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := s.Eval(func(int) (prog.Value, bool) { return prog.IntValue(5), true })
	if !ok || v != prog.IntValue(0) || fmt.Sprint(s.Deps) != "[2]" {
		t.Errorf("x^x = %v (%v), deps %v", v, ok, s.Deps)
	}
	k, err := Bin(prog.OpAdd, Const(prog.IntValue(1)), Const(prog.IntValue(2)))
	if err != nil || !k.Known || k.V != prog.IntValue(3) || len(k.Deps) != 0 {
		t.Errorf("1+2 = %+v, %v", k, err)
	}
	if got := MergeDeps([]int{3, 1}, []int{1, 2}); fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("MergeDeps = %v", got)
	}
	if LocName(prog.Value{Loc: "x", Int: 1}) != "x+1" || prog.LocValue("x+1") != (prog.Value{Loc: "x", Int: 1}) {
		t.Error("LocName and prog.LocValue are not inverse")
	}
}

// TestExplorerPins: the path's constraints fix a read's value (pins.go),
// so that an address computed from it again, or a condition on it again,
// forks no path that contradicts the path's own constraints.
func TestExplorerPins(t *testing.T) {
	x, y := prog.Addr("x"), prog.Addr("y")
	r0, r1 := prog.Reg{Name: "r0"}, prog.Reg{Name: "r1"}
	one := prog.Const{V: prog.IntValue(1)}
	isOne := prog.Bin{Op: prog.OpEq, X: r0, Y: one}
	tests := []struct {
		name  string
		locs  []string
		code  []prog.Instr
		paths []string
	}{
		{"a pointer, then the pointer plus one, stay at one location",
			[]string{"x", "x+1", "y"},
			[]prog.Instr{prog.Load{Dst: "r0", Addr: y}, prog.Load{Dst: "r1", Addr: r0}, prog.Load{Dst: "r2", Addr: prog.Bin{Op: prog.OpAdd, X: r0, Y: one}}},
			[]string{"R:y[] R:x[] R:x+1[] ctrl=[] cons=1 rmw=[]"}},
		{"a condition the path decided is not forked again, and its reads still control",
			[]string{"x", "y"},
			[]prog.Instr{prog.Load{Dst: "r0", Addr: x}, prog.Jump{Cond: isOne, Target: "L", Join: "L"}, prog.Label{Name: "L"},
				prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: one, Y: r0}, Target: "M", Join: "M"}, prog.Store{Addr: y, Val: one}, prog.Label{Name: "M"}},
			[]string{"R:x[] W:y[] ctrl=[0] cons=1 rmw=[]", "R:x[] ctrl=[] cons=1 rmw=[]"}},
		{"a failed compare-and-swap decides the test of its old value",
			[]string{"x", "y"},
			[]prog.Instr{prog.Load{Dst: "r0", Addr: y},
				prog.RMW{Dst: "r1", Addr: x, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: r0}, New: one},
				prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: r1, Y: r0}, Target: "L"}, prog.Store{Addr: y, Val: one}, prog.Label{Name: "L"}},
			[]string{"R:y[] R:x[] W:y[] ctrl=[0 1] cons=1 rmw=[]", "R:y[] R:x[] W:x[] ctrl=[] cons=1 rmw=[[1 2]]"}},
		{"a location plus an index read: the locations of that base only, and the next byte follows the first",
			[]string{"x", "x+1", "x+2", "y"},
			[]prog.Instr{prog.Load{Dst: "r0", Addr: y}, prog.Assign{Dst: "r1", Val: prog.Bin{Op: prog.OpAnd, X: r0, Y: one}},
				prog.Load{Dst: "r2", Addr: prog.Bin{Op: prog.OpAdd, X: x, Y: r1}},
				prog.Load{Dst: "r3", Addr: prog.Bin{Op: prog.OpAdd, X: prog.Bin{Op: prog.OpAdd, X: x, Y: r1}, Y: one}}},
			// (at x+2 the next byte, x+3, is no location: no path)
			[]string{"R:y[] R:x[] R:x+1[] ctrl=[] cons=1 rmw=[]", "R:y[] R:x+1[] R:x+2[] ctrl=[] cons=1 rmw=[]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			th := &prog.Thread{Name: "P0", Code: tc.code}
			labels, err := th.Labels()
			if err != nil {
				t.Fatal(err)
			}
			x := &Explorer[Event]{Th: th, Labels: labels, Bound: 1, Locs: tc.locs,
				Emit: func(st *State[Event], ev Event) Event {
					ev.AddrDeps = st.CtrlDeps() // the control dependencies, for describe below
					return ev
				}}
			if err := x.Run(nil); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range x.Paths {
				var b strings.Builder
				var last []int
				for _, e := range p.Events {
					fmt.Fprintf(&b, "%v:%s%v ", e.Kind, e.Loc, e.Tags)
					last = e.AddrDeps
				}
				fmt.Fprintf(&b, "ctrl=%v cons=%d rmw=%v", last, len(p.Cons), p.Rmw)
				got = append(got, b.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.paths, "\n") {
				t.Errorf("paths:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.paths, "\n"))
			}
		})
	}
}

// TestExplorerTooLong: a thread longer than MaxCode is refused as a
// limit (a 50 MB test overflowed the Go stack, a fatal crash); at MaxCode
// it is explored.
func TestExplorerTooLong(t *testing.T) {
	load := prog.Load{Dst: "r0", Addr: prog.Addr("x")}
	for _, c := range []struct {
		n    int
		want error
	}{
		{MaxCode, nil},
		{MaxCode + 1, ErrTooLong},
	} {
		code := make([]prog.Instr, c.n)
		for i := range code {
			code[i] = load
		}
		if _, err := explore(t, code, 1, 0); !errors.Is(err, c.want) {
			t.Errorf("%d loads: %v, want %v", c.n, err, c.want)
		}
	}
}
