package compile

import (
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/pts"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// outcome is what one run of a thread does.
type outcome struct {
	trace    []string         // memory accesses with values, in order
	regs     map[string]int64 // final registers (BoundReg left out)
	cut      bool             // the unrolled run reached CutLabel
	exceeded bool             // the original run needed more than k runs of a loop
	done     bool             // the run reached the end of the thread
}

// interp runs th alone, the n-th load reading vals[n % len(vals)]. When k
// >= 0 it counts, for each loop (backward jump), the runs of its body
// since control entered it (entering is the first run, each taking of the
// backward jump one more; leaving the body ends the count) and stops with
// exceeded as soon as a run would be the (k+1)-th.
func interp(th *prog.Thread, vals []int64, k, maxSteps int) (outcome, error) {
	labels, err := th.Labels()
	if err != nil {
		return outcome{}, err
	}
	type loop struct {
		h, j, runs int // runs is 0 while control is outside the body
	}
	var loops []*loop
	for j, in := range th.Code {
		if jmp, ok := in.(prog.Jump); ok && labels[jmp.Target] < j {
			loops = append(loops, &loop{h: labels[jmp.Target], j: j})
		}
	}
	regs := map[string]int64{}
	var eval func(e prog.Expr) (int64, error)
	eval = func(e prog.Expr) (int64, error) {
		switch e := e.(type) {
		case prog.Const:
			return e.V.Int, nil
		case prog.Reg:
			return regs[e.Name], nil
		case prog.Bin:
			x, err := eval(e.X)
			if err != nil {
				return 0, err
			}
			y, err := eval(e.Y)
			if err != nil {
				return 0, err
			}
			v, err := prog.Apply(e.Op, prog.IntValue(x), prog.IntValue(y))
			return v.Int, err
		case prog.Un:
			x, err := eval(e.X)
			if err != nil {
				return 0, err
			}
			v, err := prog.ApplyUnary(e.Op, prog.IntValue(x))
			return v.Int, err
		}
		return 0, fmt.Errorf("expression %T", e)
	}
	var o outcome
	loads := 0
	for pc, steps := 0, 0; ; steps++ {
		if steps > maxSteps {
			return o, fmt.Errorf("more than %d steps", maxSteps)
		}
		for _, l := range loops {
			switch {
			case pc < l.h || pc > l.j:
				l.runs = 0
			case l.runs == 0:
				l.runs = 1
				if k == 0 {
					o.exceeded = true
					o.regs = regs
					return o, nil
				}
			}
		}
		if pc >= len(th.Code) {
			o.done = true
			break
		}
		next := pc + 1
		switch in := th.Code[pc].(type) {
		case prog.Load:
			v := vals[loads%len(vals)]
			loads++
			regs[in.Dst] = v
			o.trace = append(o.trace, fmt.Sprintf("R %s %d", prog.ExprString(in.Addr), v))
		case prog.Store:
			v, err := eval(in.Val)
			if err != nil {
				return o, err
			}
			o.trace = append(o.trace, fmt.Sprintf("W %s %d", prog.ExprString(in.Addr), v))
		case prog.Fence:
			o.trace = append(o.trace, "F "+strings.Join(in.Tags, "."))
		case prog.Assign:
			v, err := eval(in.Val)
			if err != nil {
				return o, err
			}
			regs[in.Dst] = v
		case prog.Label:
			if in.Name == CutLabel {
				o.cut = true
			}
		case prog.Jump:
			take := in.Cond == nil
			if !take {
				v, err := eval(in.Cond)
				if err != nil {
					return o, err
				}
				take = v != 0
			}
			if take {
				next = labels[in.Target]
				for _, l := range loops {
					if l.j == pc {
						l.runs++
						if k >= 0 && l.runs > k {
							o.exceeded = true
							o.regs = regs
							return o, nil
						}
					}
				}
			}
		}
		pc = next
	}
	if o.cut != (regs[BoundReg] == 1) {
		return o, fmt.Errorf("cut %v but %s = %d", o.cut, BoundReg, regs[BoundReg])
	}
	delete(regs, BoundReg)
	o.regs = regs
	return o, nil
}

// checkLoopFree checks that th has no backward jump and well-defined
// labels, and a cut tail exactly when some jump goes to CutLabel.
func checkLoopFree(t *testing.T, th *prog.Thread) {
	t.Helper()
	labels, err := th.Labels()
	if err != nil {
		t.Fatal(err)
	}
	cuts := 0
	for i, in := range th.Code {
		if j, ok := in.(prog.Jump); ok {
			if labels[j.Target] <= i {
				t.Fatalf("%s: backward jump at %d: %s", th.Name, i, prog.InstrString(in))
			}
			if j.Target == CutLabel {
				cuts++
			}
		}
	}
	_, hasCut := labels[CutLabel]
	if hasCut != (cuts > 0) {
		t.Fatalf("%s: %d jumps to %s, label defined %v", th.Name, cuts, CutLabel, hasCut)
	}
	if hasCut {
		n := len(th.Code)
		tail := []string{"goto " + EndLabel, CutLabel + ":", BoundReg + " = 1", EndLabel + ":"}
		var got []string
		for _, in := range th.Code[n-4:] {
			got = append(got, prog.InstrString(in))
		}
		if !slices.Equal(got, tail) {
			t.Fatalf("%s: tail %v", th.Name, got)
		}
	}
	if th.Pos != nil && len(th.Pos) != len(th.Code) {
		t.Fatalf("%s: %d positions for %d instructions", th.Name, len(th.Pos), len(th.Code))
	}
}

// compare runs th and its unrolling u on the same load values: when the
// original needs at most k runs of every loop, u must do the same and not
// be cut; otherwise u must be cut at the same point (same trace).
func compare(t *testing.T, th, u *prog.Thread, k int, vals []int64, structured bool) {
	t.Helper()
	want, err := interp(th, vals, k, 100000)
	if err != nil {
		t.Fatalf("original: %v", err)
	}
	got, err := interp(u, vals, -1, 100000)
	if err != nil {
		t.Fatalf("unrolled: %v", err)
	}
	if !got.done {
		t.Fatalf("unrolled run did not finish")
	}
	if !structured {
		// Only the runs the unrolling keeps are checked.
		if !got.cut && (!slices.Equal(got.trace, want.trace) || !mapsEqual(got.regs, want.regs)) {
			t.Fatalf("vals %v k %d: unrolled %+v, original %+v", vals, k, got, want)
		}
		return
	}
	if got.cut != want.exceeded || !slices.Equal(got.trace, want.trace) || !got.cut && !mapsEqual(got.regs, want.regs) {
		t.Fatalf("vals %v k %d:\nunrolled %+v\noriginal %+v", vals, k, got, want)
	}
}

func mapsEqual(a, b map[string]int64) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

func TestUnrollShape(t *testing.T) {
	src := "{x}\nthread a {\n  r = x.load(_rx);\n  while (r == 0) { r = x.load(_rx) }\n  x.store(_rx, r)\n}\nexists x = 1"
	p, err := pts.Parse("u.pts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		k    int
		want []string
	}{
		{0, []string{
			"r = load.rx [x]", "if (r != 0) goto while1.end",
			"while1.body:", "goto %cut",
			"while1.end:", "store.rx [x] r",
			"goto %end", "%cut:", "%bound = 1", "%end:",
		}},
		{1, []string{
			"r = load.rx [x]", "if (r != 0) goto while1.end",
			"while1.body:", "r = load.rx [x]", "if (r == 0) goto %cut",
			"while1.end:", "store.rx [x] r",
			"goto %end", "%cut:", "%bound = 1", "%end:",
		}},
		{3, []string{
			"r = load.rx [x]", "if (r != 0) goto while1.end",
			"while1.body:", "r = load.rx [x]", "if (r == 0) goto while1.body%2", "goto while1.body%exit",
			"while1.body%2:", "r = load.rx [x]", "if (r == 0) goto while1.body%3", "goto while1.body%exit",
			"while1.body%3:", "r = load.rx [x]", "if (r == 0) goto %cut",
			"while1.body%exit:",
			"while1.end:", "store.rx [x] r",
			"goto %end", "%cut:", "%bound = 1", "%end:",
		}},
	}
	for _, tc := range tests {
		u, err := Unroll(p, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range u.Threads[0].Code {
			got = append(got, prog.InstrString(in))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("k=%d:\n%s\nwant\n%s", tc.k, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
		checkLoopFree(t, u.Threads[0])
		if u.Threads[0].Pos[len(got)-5].Line != 5 {
			t.Errorf("k=%d: position of the last source instruction %v", tc.k, u.Threads[0].Pos[len(got)-5])
		}
	}
	if p.Threads[0].Code[2] != (prog.Label{Name: "while1.body"}) || len(p.Threads[0].Code) != 7 {
		t.Errorf("Unroll changed its input")
	}
	if _, err := Unroll(p, -1); err == nil {
		t.Errorf("negative bound accepted")
	}
}

// TestUnrollCorpus unrolls every corpus thread and compares it with the
// original on random load values.
func TestUnrollCorpus(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, p := range parseCorpus(t) {
		for k := 0; k <= 3; k++ {
			u, err := Unroll(p, k)
			if err != nil {
				t.Fatal(err)
			}
			if u.Name != p.Name || u.Cond != p.Cond || len(u.Threads) != len(p.Threads) {
				t.Fatalf("%s: header lost", p.Name)
			}
			for i, th := range u.Threads {
				checkLoopFree(t, th)
				for n := 0; n < 200; n++ {
					vals := make([]int64, 1+rng.Intn(12))
					for v := range vals {
						vals[v] = int64(rng.Intn(5))
					}
					compare(t, p.Threads[i], th, k, vals, true)
				}
			}
		}
	}
}

// genProgram writes a random structured thread over locations x, y.
func genProgram(rng *rand.Rand, depth int) string {
	var b strings.Builder
	regs := []string{"a", "b", "c"}
	reg := func() string { return regs[rng.Intn(len(regs))] }
	cond := func() string {
		ops := []string{"==", "!=", "<", "<=", ">", ">="}
		c := fmt.Sprintf("%s %s %d", reg(), ops[rng.Intn(len(ops))], rng.Intn(4))
		if rng.Intn(4) == 0 {
			c = fmt.Sprintf("(%s) and (%s != %d)", c, reg(), rng.Intn(3))
		}
		if rng.Intn(8) == 0 {
			c = "true"
		}
		return c
	}
	var stmts func(d int)
	stmts = func(d int) {
		n := 1 + rng.Intn(4)
		for i := 0; i < n; i++ {
			switch r := rng.Intn(10); {
			case r < 3:
				fmt.Fprintf(&b, "%s = %s.load(_rx);\n", reg(), []string{"x", "y"}[rng.Intn(2)])
			case r < 5:
				fmt.Fprintf(&b, "%s.store(_rx, %s + %d);\n", []string{"x", "y"}[rng.Intn(2)], reg(), rng.Intn(3))
			case r < 6:
				fmt.Fprintf(&b, "%s <- %s + 1;\n", reg(), reg())
			case r < 8 && d > 0:
				fmt.Fprintf(&b, "while %s {\n", cond())
				stmts(d - 1)
				b.WriteString("}\n")
			case d > 0:
				fmt.Fprintf(&b, "if %s {\n", cond())
				stmts(d - 1)
				if rng.Intn(2) == 0 {
					b.WriteString("} else {\n")
					stmts(d - 1)
				}
				b.WriteString("}\n")
			default:
				fmt.Fprintf(&b, "%s <- %d;\n", reg(), rng.Intn(4))
			}
		}
	}
	stmts(depth)
	return "{x, y}\nthread p {\n" + b.String() + "}\nexists x = 0\n"
}

func TestUnrollRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for n := 0; n < 300; n++ {
		src := genProgram(rng, 3)
		p, err := pts.Parse("r.pts", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		for k := 0; k <= 3; k++ {
			u, err := UnrollThread(p.Threads[0], k)
			if err != nil {
				t.Fatal(err)
			}
			checkLoopFree(t, u)
			for m := 0; m < 30; m++ {
				vals := make([]int64, 1+rng.Intn(10))
				for v := range vals {
					vals[v] = int64(rng.Intn(4))
				}
				func() {
					defer func() {
						if t.Failed() {
							t.Logf("program:\n%s", src)
						}
					}()
					compare(t, p.Threads[0], u, k, vals, true)
				}()
				if t.Failed() {
					return
				}
			}
		}
	}
}

// TestUnrollJumps covers control flow pts does not make: herd-style loops,
// jumps into a loop, loops sharing a header, overlapping loops, jumps out.
func TestUnrollJumps(t *testing.T) {
	x := prog.Addr("x")
	ld := func(r string) prog.Instr { return prog.Load{Dst: r, Addr: x} }
	st := func(r string) prog.Instr { return prog.Store{Addr: x, Val: prog.Reg{Name: r}} }
	inc := func(r string) prog.Instr {
		return prog.Assign{Dst: r, Val: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: r}, Y: prog.Int(1)}}
	}
	lab := func(l string) prog.Instr { return prog.Label{Name: l} }
	jmp := func(c prog.Expr, l string) prog.Instr { return prog.Jump{Cond: c, Target: l} }
	nz := func(r string) prog.Expr { return prog.Reg{Name: r} }
	lt := func(r string, v int64) prog.Expr {
		return prog.Bin{Op: prog.OpLt, X: prog.Reg{Name: r}, Y: prog.Int(v)}
	}
	tests := []struct {
		name       string
		code       []prog.Instr
		structured bool
	}{
		{"herd loop", []prog.Instr{lab("L"), ld("r"), inc("n"), jmp(nz("r"), "L"), st("n")}, true},
		{"unconditional with exit", []prog.Instr{lab("L"), ld("r"), jmp(nz("r"), "E"), inc("n"), jmp(nil, "L"), lab("E"), st("n")}, true},
		{"nested herd loops", []prog.Instr{lab("O"), lab("I"), ld("r"), inc("n"), jmp(nz("r"), "I"), ld("s"), jmp(nz("s"), "O"), st("n")}, true},
		{"jump into the loop", []prog.Instr{ld("r"), jmp(nz("r"), "M"), lab("L"), inc("n"), lab("M"), ld("s"), jmp(nz("s"), "L"), st("n")}, false},
		{"shared header", []prog.Instr{lab("L"), ld("r"), inc("n"), jmp(lt("r", 2), "L"), ld("s"), jmp(nz("s"), "L"), st("n")}, false},
		{"overlapping", []prog.Instr{lab("A"), ld("r"), lab("B"), inc("n"), jmp(lt("r", 2), "A"), ld("s"), jmp(nz("s"), "B"), st("n")}, false},
		{"loop to the start", []prog.Instr{lab("L"), inc("n"), jmp(lt("n", 3), "L"), st("n")}, true},
	}
	rng := rand.New(rand.NewSource(11))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			th := &prog.Thread{Name: "p", Code: tc.code}
			for k := 0; k <= 4; k++ {
				u, err := UnrollThread(th, k)
				if err != nil {
					t.Fatal(err)
				}
				checkLoopFree(t, u)
				if u.Pos != nil {
					t.Errorf("positions made up")
				}
				for m := 0; m < 200; m++ {
					vals := make([]int64, 1+rng.Intn(8))
					for v := range vals {
						vals[v] = int64(rng.Intn(3))
					}
					compare(t, th, u, k, vals, tc.structured)
				}
			}
		})
	}
}

func TestUnrollErrors(t *testing.T) {
	// limit: the error is a result.ErrLimit (exit status 3: the program
	// is too long to check at this bound, not wrong); the others are
	// errors of the program (exit status 2).
	tests := []struct {
		name  string
		code  []prog.Instr
		want  string
		limit bool
	}{
		{"undefined label", []prog.Instr{prog.Jump{Target: "L"}}, "jump to undefined label L", false},
		{"duplicate label", []prog.Instr{prog.Label{Name: "L"}, prog.Label{Name: "L"}}, "label L defined twice", false},
		{"reserved label", []prog.Instr{prog.Label{Name: EndLabel}, prog.Label{Name: "L"}, prog.Jump{Target: "L"}}, "reserved", false},
		{"too large", func() []prog.Instr {
			// Ten nested loops unrolled 5 times: 5^10 copies.
			var c []prog.Instr
			for i := 0; i < 10; i++ {
				c = append(c, prog.Label{Name: fmt.Sprint("L", i)})
			}
			c = append(c, prog.Assign{Dst: "r", Val: prog.Int(1)})
			for i := 9; i >= 0; i-- {
				c = append(c, prog.Jump{Cond: prog.Reg{Name: "r"}, Target: fmt.Sprint("L", i)})
			}
			return c
		}(), "longer than", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Unroll(&spec.Test{Threads: []*prog.Thread{{Name: "p", Code: tc.code}}}, 5)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if errors.Is(err, result.ErrLimit) != tc.limit {
				t.Fatalf("error %v: a limit %v, want %v", err, !tc.limit, tc.limit)
			}
		})
	}
}

// TestUnrollTwice checks that unrolling an unrolled program changes
// nothing.
func TestUnrollTwice(t *testing.T) {
	for _, p := range parseCorpus(t) {
		u, err := Unroll(p, 2)
		if err != nil {
			t.Fatal(err)
		}
		v, err := Unroll(u, 2)
		if err != nil {
			t.Fatal(err)
		}
		for i := range u.Threads {
			if !slices.EqualFunc(u.Threads[i].Code, v.Threads[i].Code, func(a, b prog.Instr) bool {
				return prog.InstrString(a) == prog.InstrString(b)
			}) {
				t.Errorf("%s: second unrolling changed thread %d", p.Name, i)
			}
		}
	}
}

// TestUnrollHugeBound: a bound that would pass the length limit is
// refused before the copies are built (a limit), however large: -bound
// 1e9 on one loop ran for minutes past -timeout to 6 GB, and -bound 1000
// on two nested loops built 10^7 instructions before the check.
func TestUnrollHugeBound(t *testing.T) {
	loop := []prog.Instr{prog.Label{Name: "L"}, prog.Assign{Dst: "r", Val: prog.Int(1)}, prog.Jump{Cond: prog.Reg{Name: "r"}, Target: "L"}}
	nested := []prog.Instr{prog.Label{Name: "O"}, prog.Label{Name: "I"}, prog.Assign{Dst: "r", Val: prog.Int(1)},
		prog.Jump{Cond: prog.Reg{Name: "r"}, Target: "I"}, prog.Jump{Cond: prog.Reg{Name: "r"}, Target: "O"}}
	for _, tc := range []struct {
		code []prog.Instr
		k    int
	}{{loop, 1 << 40}, {loop, 1e9}, {loop, maxUnrolled}, {nested, 1000}, {nested, 1 << 62}} {
		_, err := Unroll(&spec.Test{Threads: []*prog.Thread{{Name: "p", Code: tc.code}}}, tc.k)
		if !errors.Is(err, result.ErrLimit) || !strings.Contains(err.Error(), "unrolled thread longer than") {
			t.Errorf("%d instructions, bound %d: error %v, want the length limit", len(tc.code), tc.k, err)
		}
	}
	// Just under the limit: unrolled.
	if _, err := Unroll(&spec.Test{Threads: []*prog.Thread{{Name: "p", Code: loop}}}, maxUnrolled/8); err != nil {
		t.Errorf("bound %d: %v", maxUnrolled/8, err)
	}
}
