package pts

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// corpusDir holds the mutual-exclusion benchmarks of
// "BMC with Memory Models as Modules" (FMCAD 2018).
const corpusDir = "../../../shared/corpus/mutex/pts"

// shape summarises one thread: its name and how many loads, stores and
// loops (backward jumps) it has.
type shape struct {
	name                 string
	loads, stores, loops int
}

func shapeOf(th *prog.Thread) shape {
	s := shape{name: th.Name}
	labels, _ := th.Labels()
	for i, in := range th.Code {
		switch in := in.(type) {
		case prog.Load:
			s.loads++
		case prog.Store:
			s.stores++
		case prog.Jump:
			if labels[in.Target] < i {
				s.loops++
			}
		}
	}
	return s
}

func TestCorpus(t *testing.T) {
	tests := []struct {
		file    string
		locs    []string
		threads []shape
		cond    string
	}{
		{"Bakery.pts", []string{"c0", "c1", "n0", "n1"},
			[]shape{{"t0", 5, 3, 3}, {"t1", 5, 3, 3}}, "exists c0=10"},
		{"Burns.pts", []string{"x", "y"},
			[]shape{{"t0", 2, 1, 2}, {"t1", 3, 1, 2}}, "exists x=10"},
		{"Dekker.pts", []string{"flag0", "flag1", "turn"},
			[]shape{{"t0", 4, 3, 3}, {"t1", 4, 3, 3}}, "exists turn=10"},
		{"Lamport.pts", []string{"x", "y", "b1", "b2", "b3"},
			[]shape{{"t0", 2, 5, 1}, {"t1", 2, 5, 1}, {"t2", 2, 5, 1}}, "exists b1=4"},
		{"Parker.pts", []string{"cond", "parkCounter"},
			[]shape{{"t0", 3, 1, 1}, {"t1", 0, 2, 0}}, "exists cond=10"},
		{"Peterson.pts", []string{"flag0", "flag1", "turn"},
			[]shape{{"t0", 4, 2, 1}, {"t1", 4, 2, 1}}, "exists turn=10"},
		{"Szymanski.pts", []string{"flag1", "flag2"},
			[]shape{{"t0", 9, 4, 5}, {"t1", 9, 4, 5}}, "exists flag1=10"},
	}
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.pts"))
	if err != nil || len(files) != len(tests) {
		t.Fatalf("corpus: %d files (%v), want %d", len(files), err, len(tests))
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(corpusDir, tc.file)
			p, err := ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if p.Arch != Arch || p.Name != strings.TrimSuffix(tc.file, ".pts") || p.File != path {
				t.Errorf("header: arch %q name %q file %q", p.Arch, p.Name, p.File)
			}
			var locs []string
			for _, e := range p.Init {
				if e.Ref.IsReg() || e.Val != prog.IntValue(0) {
					t.Errorf("init entry %v = %v, want a location at 0", e.Ref, e.Val)
				}
				locs = append(locs, e.Ref.Name)
			}
			if !slices.Equal(locs, tc.locs) {
				t.Errorf("locations %v, want %v", locs, tc.locs)
			}
			var got []shape
			for i, th := range p.Threads {
				if th.ID != i {
					t.Errorf("thread %s has ID %d, want %d", th.Name, th.ID, i)
				}
				checkThread(t, th)
				got = append(got, shapeOf(th))
			}
			if !slices.Equal(got, tc.threads) {
				t.Errorf("threads %v, want %v", got, tc.threads)
			}
			if c := p.Quant.String() + " " + spec.FormatCond(p.Cond); c != tc.cond {
				t.Errorf("condition %q, want %q", c, tc.cond)
			}
		})
	}
}

// checkThread checks the invariants of a translated thread: labels
// defined once, positions for every instruction, accesses tagged with one
// order that their kind accepts.
func checkThread(t *testing.T, th *prog.Thread) {
	t.Helper()
	if _, err := th.Labels(); err != nil {
		t.Error(err)
	}
	if len(th.Pos) != len(th.Code) {
		t.Errorf("%s: %d positions for %d instructions", th.Name, len(th.Pos), len(th.Code))
	}
	for i, in := range th.Code {
		if i < len(th.Pos) && th.Pos[i].Line == 0 {
			t.Errorf("%s: instruction %d (%s) has no position", th.Name, i, prog.InstrString(in))
		}
		switch in := in.(type) {
		case prog.Load:
			if len(in.Tags) != 1 || !loadOrders[in.Tags[0]] {
				t.Errorf("%s: load tags %v", th.Name, in.Tags)
			}
		case prog.Store:
			if len(in.Tags) != 1 || !storeOrders[in.Tags[0]] {
				t.Errorf("%s: store tags %v", th.Name, in.Tags)
			}
		}
	}
}

// exec runs one thread alone: loads read the values of mem (and stores
// write them), registers start at 0. It returns the final registers and
// memory, or an error after max steps.
func exec(th *prog.Thread, mem map[string]int64, max int) (map[string]int64, error) {
	labels, err := th.Labels()
	if err != nil {
		return nil, err
	}
	regs := map[string]int64{}
	var eval func(e prog.Expr) int64
	eval = func(e prog.Expr) int64 {
		switch e := e.(type) {
		case prog.Const:
			return e.V.Int
		case prog.Reg:
			return regs[e.Name]
		case prog.Bin:
			v, err := prog.Apply(e.Op, prog.IntValue(eval(e.X)), prog.IntValue(eval(e.Y)))
			if err != nil {
				panic(err)
			}
			return v.Int
		case prog.Un:
			v, err := prog.ApplyUnary(e.Op, prog.IntValue(eval(e.X)))
			if err != nil {
				panic(err)
			}
			return v.Int
		}
		panic(fmt.Sprintf("expression %T", e))
	}
	addr := func(e prog.Expr) string { return e.(prog.Const).V.Loc }
	for pc, steps := 0, 0; pc < len(th.Code); pc++ {
		if steps++; steps > max {
			return nil, errors.New("too many steps")
		}
		switch in := th.Code[pc].(type) {
		case prog.Load:
			regs[in.Dst] = mem[addr(in.Addr)]
		case prog.Store:
			mem[addr(in.Addr)] = eval(in.Val)
		case prog.Assign:
			regs[in.Dst] = eval(in.Val)
		case prog.Jump:
			if in.Cond == nil || eval(in.Cond) != 0 {
				pc = labels[in.Target]
			}
		}
	}
	return regs, nil
}

func TestTranslation(t *testing.T) {
	tests := []struct {
		name string
		body string // the body of thread p over locations x, y
		regs map[string]int64
		mem  map[string]int64 // final memory; x starts at 5
	}{
		{"arith", "a <- 1 + 2 * 3; b = (1 + 2) * 3; c <- 7 / 2 - 7 % 2; d <- -a + 10",
			map[string]int64{"a": 7, "b": 9, "c": 2, "d": 3}, nil},
		{"registers", "a <- 4; b <- a * a - 1; c <- b / a",
			map[string]int64{"a": 4, "b": 15, "c": 3}, nil},
		{"compare", "a <- 1 < 2; b <- 2 <= 1; c <- 3 == 3; d <- 3 != 3; e <- 2 > 1 && 1 >= 1",
			map[string]int64{"a": 1, "b": 0, "c": 1, "d": 0, "e": 1}, nil},
		{"logic", "a <- true and False; b <- false or True; c <- not false; d <- !(1 == 1) || 0",
			map[string]int64{"a": 0, "b": 1, "c": 1, "d": 0}, nil},
		{"precedence", "a <- 1 + 1 == 2 && 2 * 2 > 3 || 0",
			map[string]int64{"a": 1}, nil},
		{"load store", "r = x.load(_acq); y.store(_rel, r + 1); s = y.load(rx)",
			map[string]int64{"r": 5, "s": 6}, map[string]int64{"x": 5, "y": 6}},
		{"fig3 syntax", "r = load(x, sc); y = store(r * 2, memory_order_seq_cst); s = load(y, _con)",
			map[string]int64{"r": 5, "s": 10}, map[string]int64{"x": 5, "y": 10}},
		{"if then else", "r = x.load(_rx); if r == 5 then { a <- 1 } else { a <- 2 }; if (r != 5) { b <- 1 } else { b <- 2 }",
			map[string]int64{"r": 5, "a": 1, "b": 2}, nil},
		{"if without else", "if 1 < 0 { a <- 1 } if (0 < 1) { b <- 1 }",
			map[string]int64{"b": 1}, nil},
		{"else if", "r <- 3; if r == 1 { a <- 1 } else if r == 2 { a <- 2 } else if r == 3 { a <- 3 } else { a <- 4 }",
			map[string]int64{"r": 3, "a": 3}, nil},
		{"single statements", "if true then a <- 1 else a <- 2; while a < 4 a <- a + 1",
			map[string]int64{"a": 4}, nil},
		{"while", "i <- 0; s <- 0; while (i < 4) { s <- s + i; i <- i + 1 }",
			map[string]int64{"i": 4, "s": 6}, nil},
		{"while never", "while false { a <- 1 } while (a != 0) { b <- 1 }",
			map[string]int64{}, nil},
		{"nested", "i <- 0; n <- 0; while i < 3 { j <- 0; while j < i { n <- n + 1; j <- j + 1 }; i <- i + 1 }",
			map[string]int64{"i": 3, "j": 2, "n": 3}, nil},
		{"spin", "while True { r = x.load(_rx); x.store(_rx, r - 1); if r <= 1 { y.store(_rx, 9); } else { } ; while (r <= 1) { r <- 7; } }",
			nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "{x = 5, y}\nthread p {\n" + tc.body + "\n}\nexists x = 0\n"
			p, err := Parse("t.pts", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			checkThread(t, p.Threads[0])
			mem := map[string]int64{"x": 5, "y": 0}
			regs, err := exec(p.Threads[0], mem, 1000)
			if tc.regs == nil {
				// An endless loop: it must not terminate.
				if err == nil {
					t.Fatalf("terminated with %v", regs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for r, v := range regs {
				if tc.regs[r] != v {
					t.Errorf("register %s = %d, want %d", r, v, tc.regs[r])
				}
			}
			for r, v := range tc.regs {
				if regs[r] != v {
					t.Errorf("register %s = %d, want %d", r, regs[r], v)
				}
			}
			for l, v := range tc.mem {
				if mem[l] != v {
					t.Errorf("location %s = %d, want %d", l, mem[l], v)
				}
			}
		})
	}
}

func TestSyntax(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		quant   spec.Quant
		cond    string
		init    string
		threads []string
	}{
		{"init values", "{x = 1, y, z = -2; w = true}\nthread a { x.store(_rx, 1) }\nexists x = 1",
			spec.Exists, "x=1", "x=1 y=0 z=-2 w=1", []string{"a"}},
		{"program header", "program MP {x}\nthread a { x.store(rx, 1) } thread b { r = x.load(acq) }\n~exists b:r = 1",
			spec.NotExists, "1:r=1", "x=0", []string{"a", "b"}},
		{"threads without braces", "{x}\nthread a x.store(_rx, 1); r = x.load(_rx)\nthread b r = x.load(_rx)\nforall (0:r = 1 \\/ 1:r = 0) /\\ ~(x != 1)",
			spec.Forall, "(0:r=1 \\/ 1:r=0) /\\ ~x!=1", "x=0", []string{"a", "b"}},
		{"comments", "// the header\n{x /* one */}\n/* a\nthread */ thread a { // here\n x.store(_rx, 1) }\nexists x = 1 // end",
			spec.Exists, "x=1", "x=0", []string{"a"}},
		{"not exists", "{x}\nthread a { }\nnot exists [x] = 1 or true and false",
			spec.NotExists, "x=1 \\/ true /\\ false", "x=0", []string{"a"}},
		{"ref equality", "{x, y}\nthread a { r = x.load(_rx) } thread b { s = y.load(_rx) }\nexists a:r = b:s && x == y && a:r != 0:r",
			spec.Exists, "0:r=1:s /\\ x=[y] /\\ 0:r!=0:r", "x=0 y=0", []string{"a", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse("s.pts", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if p.Quant != tc.quant {
				t.Errorf("quantifier %v, want %v", p.Quant, tc.quant)
			}
			if c := spec.FormatCond(p.Cond); c != tc.cond {
				t.Errorf("condition %q, want %q", c, tc.cond)
			}
			var init []string
			for _, e := range p.Init {
				init = append(init, e.Ref.String()+"="+e.Val.String())
			}
			if s := strings.Join(init, " "); s != tc.init {
				t.Errorf("init %q, want %q", s, tc.init)
			}
			var names []string
			for _, th := range p.Threads {
				names = append(names, th.Name)
				checkThread(t, th)
			}
			if !slices.Equal(names, tc.threads) {
				t.Errorf("threads %v, want %v", names, tc.threads)
			}
		})
	}
}

func TestLoopShape(t *testing.T) {
	// A while loop is a guarded do-while loop: one forward guard, one
	// backward test at the bottom; while true has neither guard nor test.
	p, err := Parse("l.pts", []byte("{x}\nthread a { while (r == 0) { r = x.load(_rx) } while true { x.store(_rx, 1) } }\nexists x = 1"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range p.Threads[0].Code {
		got = append(got, prog.InstrString(in))
	}
	want := []string{
		"if (r != 0) goto while1.end",
		"while1.body:",
		"r = load.rx [x]",
		"if (r == 0) goto while1.body",
		"while1.end:",
		"while2.body:",
		"store.rx [x] 1",
		"goto while2.body",
		"while2.end:",
	}
	if !slices.Equal(got, want) {
		t.Errorf("code\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // the first error
	}{
		{"empty", "", "e.pts:1:1: expected thread, found end of file"},
		{"no condition", "{x}\nthread a { x.store(_rx, 1) }\n", "e.pts:3:1: missing final condition"},
		{"bad header", "{x y}\nthread a {}\nexists x = 0", "e.pts:1:4: expected ',' or '}' in the locations, found identifier y"},
		{"duplicate location", "{x, x}\nthread a {}\nexists x = 0", "e.pts:1:5: location x declared twice"},
		{"duplicate thread", "{x}\nthread a {}\nthread a {}\nexists x = 0", "e.pts:3:8: thread a defined twice"},
		{"keyword as name", "{while}\nthread a {}\nexists x = 0", "e.pts:1:2: expected a location name, found keyword while"},
		{"undeclared store", "{x}\nthread a {\n  y.store(_rx, 1)\n}\nexists x = 0", "e.pts:3:3: undeclared location y"},
		{"undeclared load", "{x}\nthread a {\n  r = y.load(_rx);\n}\nexists x = 0", "e.pts:3:7: undeclared location y"},
		{"bad order", "{x}\nthread a { x.store(_foo, 1) }\nexists x = 0", "e.pts:2:20: unknown memory order _foo"},
		{"store acquire", "{x}\nthread a { x.store(_acq, 1) }\nexists x = 0", "e.pts:2:20: a store cannot have order acq"},
		{"load release", "{x}\nthread a { r = x.load(rel) }\nexists x = 0", "e.pts:2:23: a load cannot have order rel"},
		{"load in expression", "{x}\nthread a { r <- x.load(_rx) + 1 }\nexists x = 0", "e.pts:2:18: a load must be a statement of its own"},
		{"location read", "{x}\nthread a { r <- x + 1 }\nexists x = 0", "e.pts:2:17: x is a shared location: read it with r = x.load(...)"},
		{"location written", "{x}\nthread a { x <- 1 }\nexists x = 0", "e.pts:2:12: x is a shared location: write it with x.store(...)"},
		{"unassigned load", "{x}\nthread a { x.load(_rx) }\nexists x = 0", "e.pts:2:14: the value of x.load(...) must be assigned to a register"},
		{"missing paren", "{x}\nthread a { x.store(_rx, 1 }\nexists x = 0", "e.pts:2:27: expected ')' to close store(...), found '}'"},
		{"unclosed block", "{x}\nthread a { while true { x.store(_rx, 1) }\n", "e.pts:3:1: expected '}' to close the block, found end of file"},
		{"no statement", "{x}\nthread a { r <- ; }\nexists x = 0", "e.pts:2:17: expected an expression, found ';'"},
		{"missing body", "{x}\nthread a { while r }\nexists x = 0", "e.pts:2:20: expected a statement or a block, found '}'"},
		{"illegal character", "{x}\nthread a { r <- 1 # 2 }\nexists x = 0", "e.pts:2:19: expected a statement, found illegal character '#'"},
		{"unicode", "{x}\nthread a { r <- 1 ≤ 2 }\nexists x = 0", "e.pts:2:19: expected a statement, found illegal character '≤'"},
		{"integer range", "{x}\nthread a { r <- 99999999999999999999 }\nexists x = 0", "e.pts:2:17: integer 99999999999999999999 out of range"},
		{"malformed integer", "{x}\nthread a { r <- 12ab }\nexists x = 0", "e.pts:2:17: malformed integer 12ab"},
		{"division by zero", "{x}\nthread a { r <- 1 / 0 }\nexists x = 0", "e.pts:2:19: division by zero"},
		{"unterminated comment", "{x}\nthread a { } /* oops\nexists x = 0", "e.pts:2:14: comment not terminated"},
		{"condition location", "{x}\nthread a { }\nexists y = 1", "e.pts:3:8: undeclared location y"},
		{"condition thread", "{x}\nthread a { r <- 1 }\nexists b:r = 1", "e.pts:3:8: no thread b"},
		{"condition thread number", "{x}\nthread a { r <- 1 }\nexists 1:r = 1", "e.pts:3:8: no thread 1"},
		{"condition register", "{x}\nthread a { r <- 1 }\nexists a:s = 1", "e.pts:3:10: thread a has no register s"},
		{"condition operator", "{x}\nthread a { }\nexists x < 1", "e.pts:3:10: expected '=' or '!=' after x, found '<'"},
		{"condition value", "{x}\nthread a { }\nexists x = -true", "e.pts:3:13: expected a value, found keyword true"},
		{"trailing", "{x}\nthread a { }\nexists x = 1 x", "e.pts:3:14: expected end of file after the condition, found identifier x"},
		{"tilde alone", "{x}\nthread a { }\n~ forall x = 1", "e.pts:3:3: expected exists after ~, found keyword forall"},
		{"deep nesting", "{x}\nthread a { r <- " + strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300) + " }\nexists x = 0", "nesting too deep"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("e.pts", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			var list source.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v is not an ErrorList", err)
			}
			if got := list[0].Error(); !strings.HasPrefix(got, tc.want) && !strings.Contains(got, tc.want) {
				t.Errorf("error\n  %s\nwant\n  %s", got, tc.want)
			}
		})
	}
}

func TestErrorLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("{x}\nthread a {\n")
	for i := 0; i < 50; i++ {
		b.WriteString("y.store(_rx, 1);\n")
	}
	b.WriteString("}\nexists x = 0\n")
	_, err := Parse("many.pts", []byte(b.String()))
	var list source.ErrorList
	if !errors.As(err, &list) || len(list) != maxErrors {
		t.Fatalf("got %d errors (%v), want %d", len(list), err, maxErrors)
	}
}
