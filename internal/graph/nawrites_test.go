package graph

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// naWritesByCopies is naWrites as it was written first, by definition:
// every instruction's state a copy of its own. TestNaWrites compares
// naWrites, which hands one state along in place, with it.
func naWritesByCopies(x *engine) (map[string]bool, bool) {
	locs := map[string]bool{}
	for t, th := range x.t.Threads {
		in := make([]cstate, len(th.Code)+1)
		in[0] = cstate{}
		for name, v := range x.initRegs[t] {
			in[0][name] = cval{v: v}
		}
		flow := func(pc int, st cstate) {
			if in[pc] == nil {
				in[pc] = st.copy()
			} else {
				in[pc].meet(st)
			}
		}
		unknown := func(st cstate, reg string) cstate {
			c := st.copy()
			c.forget(reg)
			return c
		}
		for pc, ins := range th.Code {
			st := in[pc]
			if st == nil {
				continue
			}
			switch ins := ins.(type) {
			case prog.Jump:
				target := x.labels[t][ins.Target]
				if target <= pc {
					return locs, true
				}
				flow(target, st)
				if ins.Cond == nil {
					continue
				}
			case prog.Assign:
				st = st.copy()
				if v, ok := st.eval(ins.Val); ok {
					st[ins.Dst] = cval{v: v}
				} else {
					st[ins.Dst] = cval{unknown: true}
				}
			case prog.Load:
				st = unknown(st, ins.Dst)
			case prog.Store:
				if v, ok := st.eval(ins.Addr); ok {
					locs[locOf(v)] = true
				} else {
					return locs, true
				}
			}
			flow(pc+1, st)
		}
	}
	return locs, false
}

// randomLoopFree is a random loop-free thread: assignments of addresses
// and sums, loads, plain stores through registers, forward jumps (and,
// with back, one jump back).
func randomLoopFree(rng *rand.Rand, n int, back bool) *prog.Thread {
	reg := func() string { return fmt.Sprint("r", rng.Intn(4)) }
	var code []prog.Instr
	labels := 0
	for i := 0; i < n; i++ {
		switch rng.Intn(6) {
		case 0:
			code = append(code, prog.Assign{Dst: reg(), Val: prog.Addr(fmt.Sprint("x", rng.Intn(3)))})
		case 1:
			code = append(code, prog.Assign{Dst: reg(), Val: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: reg()}, Y: prog.Int(int64(rng.Intn(2)))}})
		case 2:
			code = append(code, prog.Load{Dst: reg(), Addr: prog.Reg{Name: reg()}})
		case 3:
			code = append(code, prog.Store{Addr: prog.Reg{Name: reg()}, Val: prog.Int(1)})
		case 4:
			var cond prog.Expr
			if rng.Intn(3) > 0 {
				cond = prog.Reg{Name: reg()}
			}
			code = append(code, prog.Jump{Cond: cond, Target: fmt.Sprint("L", labels)})
			code = append(code, prog.Assign{Dst: reg(), Val: prog.Addr("y")})
			code = append(code, prog.Label{Name: fmt.Sprint("L", labels)})
			labels++
		case 5:
			code = append(code, prog.Store{Addr: prog.Addr(fmt.Sprint("x", rng.Intn(3))), Val: prog.Int(2)})
		}
	}
	if back {
		code = append([]prog.Instr{prog.Label{Name: "top"}}, append(code, prog.Jump{Cond: prog.Reg{Name: "r0"}, Target: "top"})...)
	}
	return &prog.Thread{Name: "P0", Code: code}
}

// TestNaWrites compares naWrites with naWritesByCopies on random
// loop-free threads (the locations plain writes may write, and whether
// some write's address is unknown), and checks that a done context
// gives up at once with the answer that assumes nothing (naAny).
func TestNaWrites(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := range 3000 {
		var threads []*prog.Thread
		for range 1 + rng.Intn(2) {
			threads = append(threads, randomLoopFree(rng, rng.Intn(30), rng.Intn(20) == 0))
		}
		x := &engine{ctx: context.Background(), t: &spec.Test{Threads: threads}}
		for _, th := range threads {
			labels, err := th.Labels()
			if err != nil {
				t.Fatal(err)
			}
			x.labels = append(x.labels, labels)
			init := map[string]prog.Value{}
			if rng.Intn(2) == 0 {
				init["r1"] = prog.AddrValue("x1")
			}
			x.initRegs = append(x.initRegs, init)
		}
		wantLocs, wantAny := naWritesByCopies(x)
		x.naWrites()
		if x.naAny != wantAny || !x.naAny && !maps.Equal(x.naLocs, wantLocs) {
			t.Fatalf("program %d: naLocs %v naAny %v, want %v %v\n%v", i, x.naLocs, x.naAny, wantLocs, wantAny, threads)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	th := randomLoopFree(rng, 5000, false)
	labels, _ := th.Labels()
	x := &engine{ctx: ctx, t: &spec.Test{Threads: []*prog.Thread{th}}, labels: []map[string]int{labels}, initRegs: []map[string]prog.Value{{}}}
	x.naWrites()
	if !x.naAny {
		t.Fatal("a done context: naWrites went on (naAny false)")
	}
}
