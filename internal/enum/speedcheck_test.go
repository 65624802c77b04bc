package enum

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

func TestParseSpeedCheck(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want SpeedCheck
		err  bool
	}{{"false", SpeedOff, false}, {"true", SpeedOn, false}, {"fast", SpeedFast, false}, {"yes", SpeedOff, true}, {"", SpeedOff, true}} {
		got, err := ParseSpeedCheck(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseSpeedCheck(%q) = %v, %v", tc.in, got, err)
		}
		if err == nil && got.String() != tc.in {
			t.Errorf("%v prints %q, want %q", got, got.String(), tc.in)
		}
	}
}

func TestEval3(t *testing.T) {
	r0 := spec.Ref{Thread: 0, Name: "r0"}
	r1 := spec.Ref{Thread: 1, Name: "r1"}
	x := spec.Ref{Thread: -1, Name: "x"}
	one := prog.IntValue(1)
	a := func(ref spec.Ref) spec.Cond { return spec.Atom{Ref: ref, Val: one} }
	// r0 is 1, x is 0, r1 is not known yet.
	val := func(ref spec.Ref) (prog.Value, bool) {
		switch ref {
		case r0:
			return one, true
		case x:
			return prog.IntValue(0), true
		}
		return prog.Value{}, false
	}
	for _, tc := range []struct {
		name string
		c    spec.Cond
		want tri
	}{
		{"known atom", a(r0), yes},
		{"known memory atom", a(x), no},
		{"unknown atom", a(r1), unknown},
		{"!= on a known value", spec.Atom{Ref: r0, Val: one, Neq: true}, no},
		{"and with a false side", spec.And{L: a(r1), R: a(x)}, no},
		{"and with an unknown side", spec.And{L: a(r0), R: a(r1)}, unknown},
		{"or with a true side", spec.Or{L: a(r1), R: a(r0)}, yes},
		{"or with an unknown side", spec.Or{L: a(x), R: a(r1)}, unknown},
		{"not", spec.Not{C: a(x)}, yes},
		{"not unknown", spec.Not{C: a(r1)}, unknown},
		{"tautology on an unknown value is not decided", spec.Or{L: a(r1), R: spec.Not{C: a(r1)}}, unknown},
		{"refs equal, one unknown", spec.RefEq{L: r0, R: r1}, unknown},
		{"refs differ", spec.RefEq{L: r0, R: x}, no},
		{"refs differ, !=", spec.RefEq{L: r0, R: x, Neq: true}, yes},
		{"true", spec.Bool{V: true}, yes},
	} {
		if got := eval3(tc.c, val); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// speedTests are small tests whose conditions exercise the pruning:
// exists, ~exists and forall; registers and memory; disjunctions,
// negations and comparisons of two refs; a filter; conditions that
// cannot prune at all. prunes says whether the pruned search evaluates
// fewer candidates than the full one.
var speedTests = []struct {
	name, model, src string
	prunes           bool
}{
	{"exists on registers, allowed", "tso", `X86 SB
{ }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)`, true},
	{"exists on registers, forbidden", "sc", `X86 SB
{ }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)`, true},
	{"~exists, forbidden outcome", "sc", `X86 MP
{ }
 P0         | P1          ;
 MOV [x],$1 | MOV EAX,[y] ;
 MOV [y],$1 | MOV EBX,[x] ;
~exists (1:EAX=1 /\ 1:EBX=0)`, true},
	{"~exists, reachable outcome", "sc", `X86 MP
{ }
 P0         | P1          ;
 MOV [x],$1 | MOV EAX,[y] ;
 MOV [y],$1 | MOV EBX,[x] ;
~exists (1:EAX=1 /\ 1:EBX=1)`, true},
	{"forall holds", "sc", `X86 SB
{ }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
forall (0:EAX=1 \/ 1:EAX=1)`, true},
	{"forall fails", "tso", `X86 SB
{ }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
forall (0:EAX=1 \/ 1:EAX=1)`, true},
	{"memory, forbidden", "tso", `X86 2+2W
{ }
 P0         | P1         ;
 MOV [x],$1 | MOV [y],$1 ;
 MOV [y],$2 | MOV [x],$2 ;
exists (x=1 /\ y=1)`, true},
	{"memory, allowed", "tso", `X86 2+2W
{ }
 P0         | P1         ;
 MOV [x],$1 | MOV [y],$1 ;
 MOV [y],$2 | MOV [x],$2 ;
exists (x=2 /\ y=1)`, true},
	{"memory and a register", "tso", `X86 R
{ }
 P0         | P1          ;
 MOV [x],$1 | MOV [y],$2  ;
 MOV [y],$1 | MFENCE      ;
            | MOV EAX,[x] ;
exists (y=2 /\ 1:EAX=0)`, true},
	{"forall on memory", "tso", `X86 ADD
{ x=0; }
 P0              | P1              ;
 LOCK ADD [x],$1 | LOCK ADD [x],$1 ;
forall (x=2)`, true},
	{"a tautology cannot prune", "tso", `X86 SB
{ }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 \/ ~0:EAX=0)`, false},
	{"negation", "tso", `X86 SB
{ }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (~(0:EAX=1 \/ 1:EAX=1))`, true},
	{"two refs compared", "sc", `X86 SB
{ }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=1:EAX /\ 0:EAX=0)`, true},
	{"filter", "tso", `X86 SB
{ }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
filter (0:EAX=1)
exists (1:EAX=0)`, true},
	{"branch on a read", "sc", `X86 BR
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV EAX,[x] ;
             | CMP EAX,$1  ;
             | JNE L0      ;
             | MOV [y],$1  ;
             | L0:         ;
exists (1:EAX=1 /\ y=0)`, true},
	{"condition on a register no path sets", "sc", `X86 C
{ 0:EBX=3; }
 P0          | P1         ;
 MOV EAX,[x] | MOV [x],$1 ;
exists (0:EBX=3 /\ 0:EAX=1)`, true},
}

func parseSpeed(t *testing.T, src, model string) (*spec.Test, *cat.Model, []string) {
	t.Helper()
	lt, err := litmus.Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.LoadBuiltin(model)
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup(lt.Arch)
	return lt, m, fe.Tags()
}

// TestSpeedCheck: the pruned runs give the full run's verdict; with true
// they keep exactly the full run's interesting executions (their states
// and counts), with fast at most one.
func TestSpeedCheck(t *testing.T) {
	for _, tc := range speedTests {
		t.Run(tc.name, func(t *testing.T) {
			lt, m, tags := parseSpeed(t, tc.src, tc.model)
			full, nFull := runCounting(context.Background(), lt, m, tc.model, Options{TagNames: tags})
			on, nOn := runCounting(context.Background(), lt, m, tc.model, Options{TagNames: tags, SpeedCheck: SpeedOn})
			fast, nFast := runCounting(context.Background(), lt, m, tc.model, Options{TagNames: tags, SpeedCheck: SpeedFast})
			for _, r := range []*result.Result{full, on, fast} {
				if r.Status != result.Done {
					t.Fatalf("status %s: %v", r.Status, r.Err)
				}
			}
			if full.Pruned || !on.Pruned || !fast.Pruned {
				t.Errorf("Pruned: full %v, true %v, fast %v", full.Pruned, on.Pruned, fast.Pruned)
			}
			if on.Ok() != full.Ok() || fast.Ok() != full.Ok() {
				t.Errorf("verdicts: full %v, true %v, fast %v", full.Ok(), on.Ok(), fast.Ok())
			}
			// The interesting executions of the full run.
			want := lt.Quant != spec.Forall
			var wantStates []string
			for _, s := range full.States {
				val := func(ref spec.Ref) prog.Value {
					for i, o := range full.Observed {
						if o == ref {
							return s[i]
						}
					}
					t.Fatalf("%s not observed", ref)
					return prog.Value{}
				}
				if spec.Eval(lt.Cond, val) == want {
					wantStates = append(wantStates, s.Key())
				}
			}
			var gotStates []string
			for _, s := range on.States {
				gotStates = append(gotStates, s.Key())
			}
			if strings.Join(gotStates, " ") != strings.Join(wantStates, " ") {
				t.Errorf("-speedcheck true states %v, want %v", gotStates, wantStates)
			}
			wantPos, wantNeg := full.Positive, 0
			if !want {
				wantPos, wantNeg = 0, full.Negative
			}
			if on.Positive != wantPos || on.Negative != wantNeg {
				t.Errorf("-speedcheck true counts %d/%d, want %d/%d", on.Positive, on.Negative, wantPos, wantNeg)
			}
			if fast.Positive+fast.Negative > 1 {
				t.Errorf("-speedcheck fast kept %d executions", fast.Positive+fast.Negative)
			}
			if (want && full.Positive > 0) != (fast.Witness != nil) {
				t.Errorf("-speedcheck fast witness %v, full positive %d", fast.Witness != nil, full.Positive)
			}
			if nOn > nFull || nFast > nOn {
				t.Errorf("evaluations: full %d, true %d, fast %d", nFull, nOn, nFast)
			}
			if tc.prunes != (nOn < nFull) {
				t.Errorf("evaluations: full %d, true %d (prunes: %v)", nFull, nOn, tc.prunes)
			}
		})
	}
}

// TestSpeedCheckDivision: a path that divides keeps the full search, so
// that a division by zero in an execution the condition does not need
// is still reported.
func TestSpeedCheckDivision(t *testing.T) {
	lt, m, tags := parseSpeed(t, `C divpaths
{ x=0; y=0; }
P0 (int* x, int* y) {
  int r0 = *x;
  int r1 = 5;
  if (r0 == 3) {
    r1 = 1 / (r0 - 3);
  }
  *y = r1;
}
P1 (int* x) {
  *x = 3;
}
exists (y=5)`, "sc")
	for _, sc := range []SpeedCheck{SpeedOff, SpeedOn, SpeedFast} {
		r := Run(context.Background(), lt, m, "sc", Options{TagNames: tags, SpeedCheck: sc})
		var dz *prog.DivisionByZeroError
		if r.Status != result.Failed || !errors.As(r.Err, &dz) {
			t.Errorf("-speedcheck %s: %s %v, want a division by zero", sc, r.Status, r.Err)
		}
	}
}

// TestSpeedCheckManyThreads: a cycle of 12 threads, each reading the
// previous one's write, has 2^12 rf choices; the condition fixes every
// read, so the pruned search evaluates one candidate.
func TestSpeedCheckManyThreads(t *testing.T) {
	const n = 12
	var b strings.Builder
	b.WriteString("C ring\n{ }\n")
	var cond []string
	for i := 0; i < n; i++ {
		next := (i + 1) % n
		b.WriteString("P" + itoa(i) + "(int *x" + itoa(i) + ", int *x" + itoa(next) + ") {\n")
		b.WriteString("  int r1 = READ_ONCE(*x" + itoa(i) + ");\n  WRITE_ONCE(*x" + itoa(next) + ", 1);\n}\n")
		cond = append(cond, itoa(i)+":r1=1")
	}
	b.WriteString("exists (" + strings.Join(cond, " /\\ ") + ")\n")
	lt, m, tags := parseSpeed(t, b.String(), "sc")
	for _, sc := range []SpeedCheck{SpeedOn, SpeedFast} {
		r, evaluated := runCounting(context.Background(), lt, m, "sc", Options{TagNames: tags, SpeedCheck: sc})
		if r.Status != result.Done || r.Ok() || evaluated != 1 {
			t.Errorf("-speedcheck %s: %s, Ok %v, %d candidates evaluated; want No after 1", sc, r.Status, r.Ok(), evaluated)
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
