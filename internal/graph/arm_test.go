package graph

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// armTests are AArch64 litmus tests of load buffering through each kind
// of dependency the exploration tracks, and of read-modify-writes
// (refused where the argument of arm.go does not hold: refuse says so).
var armTests = []struct {
	name, src string
	refuse    bool
}{
	{"LB", `AArch64 LB
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; 0:X2=1; 1:X2=1; }
 P0          | P1          ;
 LDR W0,[X1] | LDR W0,[X1] ;
 STR W2,[X3] | STR W2,[X3] ;
exists (0:X0=1 /\ 1:X0=1)`, false},
	{"LB+datas", `AArch64 LB+datas
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0           | P1           ;
 LDR W0,[X1]  | LDR W0,[X1]  ;
 EOR W2,W0,W0 | EOR W2,W0,W0 ;
 ADD W2,W2,#1 | ADD W2,W2,#1 ;
 STR W2,[X3]  | STR W2,[X3]  ;
exists (0:X0=1 /\ 1:X0=1)`, false},
	{"LB+data+po", `AArch64 LB+data+po
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; 1:X2=1; }
 P0           | P1           ;
 LDR W0,[X1]  | LDR W0,[X1]  ;
 EOR W2,W0,W0 | STR W2,[X3]  ;
 ADD W2,W2,#1 |              ;
 STR W2,[X3]  |              ;
exists (0:X0=1 /\ 1:X0=1)`, false},
	{"LB+ctrl+addr-rfi", `AArch64 LB+ctrl+addr-rfi
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=z; 1:X5=x; 0:X2=1; 1:X2=1; }
 P0           | P1             ;
 LDR W0,[X1]  | LDR W0,[X1]    ;
 CBNZ W0,L0   | EOR W4,W0,W0   ;
 L0:          | STR W2,[X3,W4,SXTW] ;
 STR W2,[X3]  | LDR W6,[X3]    ;
              | STR W6,[X5]    ;
exists (0:X0=1 /\ 1:X0=1)`, false},
	// aob orders the swap's read, not its write, before the acquire
	// load that reads the swap's write (rmw; lrs; [A | Q]): the control
	// dependency to the swap's write does not reach the read of x.
	{"MP+rel+ctrl-swp-lrs-acq", `AArch64 MP+rel+ctrl-swp-lrs-acq
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X11=x; 1:X5=z; }
 P0           | P1             ;
 MOV W0,#1    | LDR W0,[X1]    ;
 STR W0,[X1]  | CBZ W0,L0      ;
 MOV W2,#1    | L0:            ;
 STLR W2,[X3] | MOV W7,#1      ;
              | SWP W7,W8,[X5] ;
              | LDAR W6,[X5]   ;
              | LDR W10,[X11]  ;
exists (1:X0=1 /\ 1:X10=0)`, false},
	{"MP+dmb+addr", `AArch64 MP+dmb+addr
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; 0:X0=1; 0:X2=1; }
 P0          | P1                  ;
 STR W0,[X1] | LDR W0,[X1]         ;
 DMB SY      | EOR W2,W0,W0        ;
 STR W2,[X3] | LDR W4,[X3,W2,SXTW] ;
exists (1:X0=1 /\ 1:X4=0)`, false},
	// P1 writes x only when it reads 2 from y: the outcome needs P0's
	// read of x after the LDADD to take the LDADD's write (2) before the
	// LDADD reads P1's write (1). aarch64.cat allows it when neither read
	// is an acquire and no DMB is between.
	// A revisit keeps P1's write of y (P2 reads it) and removes P1's
	// read of y before it: that read must count as maximal when it reads
	// the latest write coherence lets it read (hwMaximal).
	{"3.LB+addr+pos+data", `AArch64 3.LB+addr+pos+data
{ 0:X6=x; 0:X9=y; 1:X6=y; 2:X6=y; 2:X8=x; 0:X8=1; 1:X7=2; }
 P0                   | P1          | P2           ;
 LDR W5,[X6]          | LDR W5,[X6] | LDR W5,[X6]  ;
 EOR W7,W5,W5         | STR W7,[X6] | EOR W7,W5,W5 ;
 STR W8,[X9,W7,SXTW]  |             | ADD W7,W7,#1 ;
                      |             | STR W7,[X8]  ;
exists (y=1 /\ 0:X5=1 /\ 1:X5=0 /\ 2:X5=2)`, false},
	// A release store read back by its own thread, its value passed
	// on: the read before the release is not in the prefix of P1's
	// write (keeping what bob puts before a release would put it there
	// and lose the outcome).
	{"LB+rel-rfi", `AArch64 LB+rel-rfi
{ 0:X1=x; 0:X3=z; 0:X5=y; 0:X2=1; 1:X1=y; 1:X3=x; }
 P0           | P1          ;
 LDR W0,[X1]  | LDR W0,[X1] ;
 STLR W2,[X3] | STR W0,[X3] ;
 LDR W4,[X3]  |             ;
 STR W4,[X5]  |             ;
exists (0:X0=1 /\ 0:X4=1 /\ 1:X0=1)`, false},
	// P1's compare-and-swap succeeds, reading the initial value, and
	// its write of y is control-dependent on it; P0 reads y = 1 and its
	// compare-and-swap then reads P1's. P0's CAS read is revisited by
	// P1's CAS write first, then P0's read of y by P1's write of y,
	// whose prefix keeps P1's CAS read: it must keep its write too (the
	// write P0's CAS read takes), or the graph before that revisit has
	// both CAS reads reading the initial value (atomicity) and the
	// outcome is never built.
	{"CAS+ctrl", `AArch64 CAS+ctrl
{ 0:X1=y; 0:X4=lk; 1:X1=y; 1:X4=lk; }
 P0               | P1               ;
 LDR W0,[X1]      | MOV W2,#0        ;
 MOV W2,#0        | MOV W3,#1        ;
 MOV W3,#1        | CAS W2,W3,[X4]   ;
 CAS W2,W3,[X4]   | CBNZ W2,L0       ;
                  | MOV W5,#1        ;
                  | STR W5,[X1]      ;
                  | L0:              ;
exists (0:X0=1 /\ 0:X2=1)`, true}, // P1's branch on CAS's Rs: a pick dependency (refused)
	// Barriers kept in the prefix: a revisit that removed P1's DMB but
	// kept the events around it hid the order from the next revisit's
	// prefix, and one execution was built twice.
	{"3.LB+dmb.sys", `AArch64 3.LB+dmb.sys
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=z; 2:X1=z; 2:X3=x; 0:X2=1; 1:X2=1; 2:X2=1; }
 P0          | P1          | P2          ;
 LDR W0,[X1] | LDR W0,[X1] | LDR W0,[X1] ;
 DMB SY      | DMB SY      | DMB SY      ;
 STR W2,[X3] | STR W2,[X3] | STR W2,[X3] ;
exists (0:X0=1 /\ 1:X0=1 /\ 2:X0=1)`, false},
	{"LB+amo-rfi", lbAmo("LDADD", ""), true},
	{"LB+amoA-rfi", lbAmo("LDADDA", ""), false},
	{"LB+amo-rfi+dmb", lbAmo("LDADD", "DMB SY"), false},
	{"2+2W+amos", `AArch64 2+2W+amos
{ 0:X1=x; 0:X3=y; 0:X5=1; 0:X6=2; 1:X1=y; 1:X3=x; 1:X5=1; 1:X6=2; }
 P0               | P1               ;
 SWP W5,W0,[X1]   | SWP W5,W0,[X1]   ;
 STR W6,[X3]      | STR W6,[X3]      ;
exists (x=1 /\ y=1)`, false},
}

// lbAmo is the test of the load buffering armRMWRefuse guards against, with
// the read-modify-write op and, when not "", fence between it and the
// read of its write.
func lbAmo(op, fence string) string {
	p0 := []string{op + " W5,W0,[X1]", "LDR W2,[X1]", "STR W2,[X3]", "", ""}
	if fence != "" {
		p0 = []string{op + " W5,W0,[X1]", fence, "LDR W2,[X1]", "STR W2,[X3]", ""}
	}
	p1 := []string{"LDR W0,[X1]", "CMP W0,#2", "B.NE L0", "STR W2,[X3]", "L0:"}
	var b strings.Builder
	b.WriteString("AArch64 LB+amo\n{ 0:X1=x; 0:X3=y; 0:X5=1; 1:X1=y; 1:X3=x; 1:X2=1; }\n P0 | P1 ;\n")
	for i := range p1 {
		b.WriteString(" " + p0[i] + " | " + p1[i] + " ;\n")
	}
	b.WriteString("exists (0:X0=1 /\\ 0:X2=2 /\\ 1:X0=2)\n")
	return b.String()
}

// TestARMAgainstEnum runs the graph engine under ARMv8 (aarch64.cat) on
// armTests against the explicit engine, which evaluates the same model
// on every candidate execution: the counts of executions and the final
// states must be the same, test by test; a test refused must be one
// meant to be.
func TestARMAgainstEnum(t *testing.T) {
	fe, err := litmus.Lookup("AArch64")
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusTest
	refuse := map[string]bool{}
	for _, c := range armTests {
		lt, err := litmus.Parse(c.name+".litmus", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		cases = append(cases, corpusTest{path: c.name, t: lt, tags: fe.Tags()})
		refuse[c.name] = c.refuse
	}
	want := len(armTests)
	for _, c := range armTests {
		if c.refuse {
			want--
		}
	}
	if n := hwCompare(t, "aarch64", cases, refuse); n != want {
		t.Errorf("%d tests compared, want %d", n, want)
	}
}

// TestARMCorpusAgainstEnum is TestARMAgainstEnum on the AArch64 tests of
// the corpus (40 spread over it; MUSKET_LONG=1: all). Mixed-size tests
// and store-conditionals are refused.
func TestARMCorpusAgainstEnum(t *testing.T) {
	dir := testcorpus.Dir(t)
	n := hwCompare(t, "aarch64", corpusSample(t, dir, "litmus/AARCH64/*/*.litmus", 40, true), nil)
	if n == 0 {
		t.Errorf("no test compared")
	}
	t.Logf("%d tests compared", n)
}

// TestARMCorpusCrossCheck runs the graph engine with Options.CrossCheck
// on the AArch64 tests of the corpus (40 spread over it; MUSKET_LONG=1:
// all) and on armTests: the native check of armnative.go and aarch64.cat
// must agree on every graph built.
func TestARMCorpusCrossCheck(t *testing.T) {
	var extra []corpusTest
	fe, _ := litmus.Lookup("AArch64")
	for _, c := range armTests {
		lt, err := litmus.Parse(c.name+".litmus", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		extra = append(extra, corpusTest{path: c.name, t: lt, tags: fe.Tags()})
	}
	crossCheckCorpus(t, "aarch64", "litmus/AARCH64/*/*.litmus", extra)
}

// hwCompare runs each test under the built-in model with both engines
// and reports the differences; refuse says which tests must be refused, and
// which decided (the others may be refused, with a reason). It returns
// how many were compared.
func hwCompare(t *testing.T, model string, cases []corpusTest, refuse map[string]bool) int {
	t.Helper()
	m, err := cat.LoadBuiltin(model)
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, ct := range cases {
		name := filepath.Base(ct.path)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
		got, st := Run(ctx, ct.t, m, model, Options{TagNames: ct.tags})
		cancel()
		must, listed := refuse[ct.path]
		if got.Status == result.Unsupported {
			var ue *UnsupportedError
			if !errors.As(got.Err, &ue) {
				t.Errorf("%s: unsupported without a reason: %v", name, got.Err)
			}
			if listed && !must {
				t.Errorf("%s: refused: %v", name, got.Err)
			}
			continue
		}
		if must {
			t.Errorf("%s: decided (%d+%d executions), want a refusal", name, got.Positive, got.Negative)
		}
		ctx, cancel = context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
		want := enum.Run(ctx, ct.t, m, model, enum.Options{TagNames: ct.tags})
		cancel()
		if want.Status != result.Done || got.Status != result.Done {
			t.Errorf("%s: explicit engine %s, graph engine %s: %v", name, want.Status, got.Status, got.Err)
			continue
		}
		compared++
		if got.Positive != want.Positive || got.Negative != want.Negative || len(got.States) != len(want.States) || got.Bounded != want.Bounded {
			t.Errorf("%s: graph engine %d+%d executions, %d states (%d revisits), explicit engine %d+%d, %d states",
				name, got.Positive, got.Negative, len(got.States), st.Revisits, want.Positive, want.Negative, len(want.States))
		}
	}
	return compared
}

// TestARMRefusesForwardedAtomic: the load buffering that armRMWRefuse
// guards against is a real one: aarch64.cat allows LB+amo-rfi's outcome
// (the explicit engine finds it), which no revisit of the exploration
// builds (the read of the atomic's write puts the atomic's read in the
// prefix of the write that read reads): without the refusal the graph
// engine answers Never. With an acquire LDADDA or a DMB the outcome is
// forbidden, and the engine decides the test.
func TestARMRefusesForwardedAtomic(t *testing.T) {
	m, err := cat.LoadBuiltin("aarch64")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("AArch64")
	for _, c := range armTests {
		if !strings.HasPrefix(c.name, "LB+amo") {
			continue
		}
		lt, err := litmus.Parse(c.name+".litmus", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		want := enum.Run(context.Background(), lt, m, "aarch64", enum.Options{TagNames: fe.Tags()})
		if got := want.Positive > 0; got != c.refuse {
			t.Errorf("%s: the explicit engine finds the outcome: %v, want %v", c.name, got, c.refuse)
		}
	}
}

// TestARMRefuse: which programs armRMWRefuse refuses. P0 is the thread
// of the read-modify-write; the others carry the values it writes after
// back (or not) to the read-modify-write's location.
func TestARMRefuse(t *testing.T) {
	x, y, z := prog.Const{V: prog.LocValue("x")}, prog.Const{V: prog.LocValue("y")}, prog.Const{V: prog.LocValue("z")}
	rmw := func(tags ...string) prog.Instr {
		return prog.RMW{Dst: "a", Addr: x, New: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)}, RTags: tags}
	}
	relRMW := prog.RMW{Dst: "a", Addr: x, New: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)}, WTags: []string{"L"}}
	cas := prog.RMW{Dst: "a", Addr: x, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Reg{Name: "e"}}, New: prog.Int(1)}
	isOK := prog.Assign{Dst: "ok", Val: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: "a"}, Y: prog.Reg{Name: "e"}}}
	load := func(addr prog.Expr, tags ...string) prog.Instr { return prog.Load{Dst: "b", Addr: addr, Tags: tags} }
	use := prog.Store{Addr: y, Val: prog.Reg{Name: "b"}}
	useX := prog.Store{Addr: x, Val: prog.Reg{Name: "b"}}
	// back: a thread that reads y and writes x after.
	back := []prog.Instr{prog.Load{Dst: "r", Addr: y}, prog.Store{Addr: x, Val: prog.Reg{Name: "r"}}}
	// yz, zx: the same through z, in two threads.
	yz := []prog.Instr{prog.Load{Dst: "r", Addr: y}, prog.Store{Addr: z, Val: prog.Reg{Name: "r"}}}
	zx := []prog.Instr{prog.Load{Dst: "r", Addr: z}, prog.Store{Addr: x, Val: prog.Reg{Name: "r"}}}
	for _, c := range []struct {
		name   string
		code   []prog.Instr
		others [][]prog.Instr
		want   string // a word of the refusal, "" for none
	}{
		{"relaxed rmw, plain read used", []prog.Instr{rmw(), load(x), use}, [][]prog.Instr{back}, "read-modify-write"},
		{"nothing flows back", []prog.Instr{rmw(), load(x), use}, nil, ""},
		{"flows back through two threads", []prog.Instr{rmw(), load(x), use}, [][]prog.Instr{yz, zx}, "read-modify-write"},
		{"flow cut", []prog.Instr{rmw(), load(x), use}, [][]prog.Instr{yz}, ""},
		{"back to a read before the rmw", []prog.Instr{load(z), rmw(), load(x), use}, [][]prog.Instr{yz}, "read-modify-write"},
		{"acquire rmw", []prog.Instr{rmw("A"), load(x), use}, [][]prog.Instr{back}, ""},
		{"acquire read", []prog.Instr{rmw(), load(x, "A"), use}, [][]prog.Instr{back}, ""},
		{"Q read", []prog.Instr{rmw(), load(x, "Q"), use}, [][]prog.Instr{back}, ""},
		{"other location", []prog.Instr{rmw(), load(y), use}, [][]prog.Instr{back}, ""},
		{"computed address", []prog.Instr{rmw(), load(prog.Reg{Name: "p"}), use}, [][]prog.Instr{back}, "read-modify-write"},
		{"address in a constant register", []prog.Instr{prog.Assign{Dst: "p", Val: y}, rmw(), load(prog.Reg{Name: "p"}), use}, [][]prog.Instr{back}, ""},
		{"value unused", []prog.Instr{rmw(), load(x), prog.Store{Addr: y, Val: prog.Int(1)}}, [][]prog.Instr{back}, ""},
		{"value only in a dead assignment", []prog.Instr{rmw(), load(x), prog.Assign{Dst: "c", Val: prog.Reg{Name: "b"}}, prog.Store{Addr: y, Val: prog.Int(1)}}, [][]prog.Instr{back}, ""},
		{"write to the rmw's location only", []prog.Instr{rmw(), load(x), useX}, [][]prog.Instr{back}, ""},
		{"DMB between", []prog.Instr{rmw(), prog.Fence{Tags: []string{"DMB.ISH"}}, load(x), use}, [][]prog.Instr{back}, ""},
		{"DMB LD between", []prog.Instr{rmw(), prog.Fence{Tags: []string{"DMB.ISHLD"}}, load(x), use}, [][]prog.Instr{back}, ""},
		{"DMB ST between", []prog.Instr{rmw(), prog.Fence{Tags: []string{"DMB.ISHST"}}, load(x), use}, [][]prog.Instr{back}, "read-modify-write"},
		{"DMB jumped over", []prog.Instr{rmw(), prog.Jump{Cond: prog.Reg{Name: "a"}, Target: "L"}, prog.Fence{Tags: []string{"DMB.ISH"}},
			prog.Label{Name: "L"}, load(x), use}, [][]prog.Instr{back}, "read-modify-write"},
		{"release rmw, acquire read between", []prog.Instr{relRMW, load(z, "A"), load(x), use}, [][]prog.Instr{back}, ""},
		{"release rmw, Q read between", []prog.Instr{relRMW, load(z, "Q"), load(x), use}, [][]prog.Instr{back}, "read-modify-write"},
		// A CAS retried (unrolled twice): the second is reached only when
		// the first fails, and writes nothing the first wrote.
		{"CAS retried until it succeeds", []prog.Instr{cas, isOK, prog.Jump{Cond: prog.Reg{Name: "ok"}, Target: "out"},
			cas, isOK, prog.Jump{Cond: prog.Reg{Name: "ok"}, Target: "out"}, prog.Label{Name: "out"}, prog.Store{Addr: y, Val: prog.Reg{Name: "a"}}},
			[][]prog.Instr{back}, ""},
		{"CAS retried after it succeeds", []prog.Instr{cas, isOK, prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: prog.Reg{Name: "ok"}}, Target: "out"},
			cas, isOK, prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: prog.Reg{Name: "ok"}}, Target: "out"}, prog.Label{Name: "out"}, prog.Store{Addr: y, Val: prog.Reg{Name: "a"}}},
			[][]prog.Instr{back}, "read-modify-write"},
		{"CAS success forgotten", []prog.Instr{cas, isOK, prog.Assign{Dst: "e", Val: prog.Int(2)}, prog.Assign{Dst: "ok", Val: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: "a"}, Y: prog.Reg{Name: "e"}}},
			prog.Jump{Cond: prog.Reg{Name: "ok"}, Target: "out"}, cas, prog.Label{Name: "out"}, prog.Store{Addr: y, Val: prog.Reg{Name: "a"}}},
			[][]prog.Instr{back}, "read-modify-write"},
		{"scoped control dependency", []prog.Instr{load(x), prog.Jump{Cond: prog.Reg{Name: "b"}, Target: "L", Join: "L"}, prog.Label{Name: "L"}}, nil, "control dependency"},
		{"jump without dependency", []prog.Instr{load(x), prog.Jump{Cond: prog.Reg{Name: "b"}, Target: "L", NoCtrl: true}, prog.Label{Name: "L"}}, nil, "control dependency"},
	} {
		ths := []*prog.Thread{{Name: "P0", Code: c.code}}
		for k, o := range c.others {
			ths = append(ths, &prog.Thread{Name: "P" + string(rune('1'+k)), Code: o})
		}
		got := armRMWRefuse(ths, nil, nil)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: armRMWRefuse = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestARMRefuseSpawned: an atomic before which no other thread has
// started is no reason to refuse (armspawn.go): P0 (main) does the
// read-modify-write, then starts the threads that carry its value
// back; each starts with an acquire read of its flag (Options.Await).
func TestARMRefuseSpawned(t *testing.T) {
	x, y := prog.Const{V: prog.LocValue("x")}, prog.Const{V: prog.LocValue("y")}
	flag := func(n string) prog.Const { return prog.Const{V: prog.LocValue("%start." + n)} }
	rmw := prog.RMW{Dst: "a", Addr: x, New: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)}}
	read, use := prog.Load{Dst: "b", Addr: x}, prog.Store{Addr: y, Val: prog.Reg{Name: "b"}}
	create := func(n string, tags ...string) prog.Instr {
		return prog.Store{Addr: flag(n), Val: prog.Int(1), Tags: tags}
	}
	start := func(n string, tags ...string) prog.Instr { return prog.Load{Dst: "s", Addr: flag(n), Tags: tags} }
	back := []prog.Instr{prog.Load{Dst: "r", Addr: y}, prog.Store{Addr: x, Val: prog.Reg{Name: "r"}}}
	await := func(loc string) bool { return strings.HasPrefix(loc, "%start.") }
	with := func(head []prog.Instr, rest ...prog.Instr) []prog.Instr {
		return append(append([]prog.Instr(nil), head...), rest...)
	}
	for _, c := range []struct {
		name   string
		main   []prog.Instr
		others [][]prog.Instr
		await  func(string) bool
		want   string // a word of the refusal, "" for none
	}{
		{"created after the atomic", []prog.Instr{rmw, read, use, create("1", "L")}, [][]prog.Instr{with([]prog.Instr{start("1", "A")}, back...)}, await, ""},
		{"created before the atomic", []prog.Instr{create("1", "L"), rmw, read, use}, [][]prog.Instr{with([]prog.Instr{start("1", "A")}, back...)}, await, "read-modify-write"},
		{"no await", []prog.Instr{rmw, read, use, create("1", "L")}, [][]prog.Instr{with([]prog.Instr{start("1", "A")}, back...)}, nil, "read-modify-write"},
		{"plain create", []prog.Instr{rmw, read, use, create("1")}, [][]prog.Instr{with([]prog.Instr{start("1", "A")}, back...)}, await, "read-modify-write"},
		{"plain start", []prog.Instr{rmw, read, use, create("1", "L")}, [][]prog.Instr{with([]prog.Instr{start("1")}, back...)}, await, "read-modify-write"},
		{"an access before the start", []prog.Instr{rmw, read, use, create("1", "L")}, [][]prog.Instr{with(back, start("1", "A"))}, await, "read-modify-write"},
		{"a second writer of the flag", []prog.Instr{rmw, read, use, create("1", "L")}, [][]prog.Instr{with([]prog.Instr{start("1", "A")}, back...), {create("1", "L")}}, await, "read-modify-write"},
		{"the flag's address stored", []prog.Instr{rmw, read, use, prog.Store{Addr: y, Val: flag("1")}, create("1", "L")}, [][]prog.Instr{with([]prog.Instr{start("1", "A")}, back...)}, await, "read-modify-write"},
		{"created by a thread created after", []prog.Instr{rmw, read, use, create("1", "L")}, [][]prog.Instr{{start("1", "A"), create("2", "L")}, with([]prog.Instr{start("2", "A")}, back...)}, await, ""},
		{"created by a thread created before", []prog.Instr{create("1", "L"), rmw, read, use}, [][]prog.Instr{{start("1", "A"), create("2", "L")}, with([]prog.Instr{start("2", "A")}, back...)}, await, "read-modify-write"},
		{"main jumps back", []prog.Instr{prog.Label{Name: "L"}, rmw, read, use, create("1", "L"), prog.Jump{Cond: prog.Reg{Name: "b"}, Target: "L"}}, [][]prog.Instr{with([]prog.Instr{start("1", "A")}, back...)}, await, "read-modify-write"},
	} {
		ths := []*prog.Thread{{Name: "P0", Code: c.main}}
		for k, o := range c.others {
			ths = append(ths, &prog.Thread{Name: "P" + string(rune('1'+k)), Code: o})
		}
		got := armRMWRefuse(ths, c.await, nil)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: armRMWRefuse = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestIMMKeptWriteAfterRemovedRead is the shape of 3.LB+addr+pos+data
// under IMM, in C: before hwMaximal the graph engine gave Never (12
// executions) where the explicit and SMT engines give Sometimes (14).
func TestIMMKeptWriteAfterRemovedRead(t *testing.T) {
	src := `C LB+data+pos+data
{}
P0 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(x, memory_order_relaxed);
  atomic_store_explicit(y, r0 - r0 + 1, memory_order_relaxed);
}
P1 (atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
  atomic_store_explicit(y, 2, memory_order_relaxed);
}
P2 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
  atomic_store_explicit(x, r0 - r0 + 1, memory_order_relaxed);
}
exists (0:r0=1 /\ 1:r0=0 /\ 2:r0=2 /\ y=1)
`
	lt, err := litmus.Parse("lbpos.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("C")
	if n := hwCompare(t, "imm", []corpusTest{{path: "lbpos", t: lt, tags: fe.Tags()}}, nil); n != 1 {
		t.Errorf("%d compared", n)
	}
}

// crossCheckCorpus runs the graph engine with Options.CrossCheck under
// the built-in model on the tests of the corpus that glob names (40
// spread over it; MUSKET_LONG=1: all) and on extra: the native check and
// the model's CAT file must agree on every graph built, and some test
// must be decided.
func crossCheckCorpus(t *testing.T, model, glob string, extra []corpusTest) {
	t.Helper()
	m, err := cat.LoadBuiltin(model)
	if err != nil {
		t.Fatal(err)
	}
	cases := append(corpusSample(t, testcorpus.Dir(t), glob, 40, true), extra...)
	decided := 0
	for _, ct := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
		got, _ := Run(ctx, ct.t, m, model, Options{TagNames: ct.tags, CrossCheck: true})
		cancel()
		switch got.Status {
		case result.Unsupported:
		case result.Done:
			decided++
		default:
			t.Errorf("%s: %s: %v", ct.path, got.Status, got.Err)
		}
	}
	if decided == 0 {
		t.Errorf("no test decided")
	}
	t.Logf("%d tests cross-checked", decided)
}
