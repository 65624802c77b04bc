package enum

import (
	"context"
	"fmt"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/pts"
	"github.com/musket-verify/musket/internal/spec"
)

// TestReplay replays the witnesses of a test: in the test itself each is
// alive; in a version with fences that forbid the outcome none is; in a
// version with one fence (which does not) each is alive again.
func TestReplay(t *testing.T) {
	const base = `X86 SB
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
%s
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)`
	const mp = `PPC MP
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1           ;
 li r1,1      | lwz r1,0(r2) ;
 stw r1,0(r2) | %s ;
 %s | lwz r3,0(r4) ;
 stw r1,0(r4) |              ;
exists (1:r1=1 /\ 1:r3=0)`
	tests := []struct {
		name, model, arch string
		orig, patched     string
		alive             bool
	}{
		{"SB itself", "tso", "X86", fmt.Sprintf(base, ""), fmt.Sprintf(base, ""), true},
		{"SB two mfences", "tso", "X86", fmt.Sprintf(base, ""), fmt.Sprintf(base, " MFENCE      | MFENCE      ;"), false},
		{"SB one mfence", "tso", "X86", fmt.Sprintf(base, ""), fmt.Sprintf(base, " MFENCE      |             ;"), true},
		{"MP lwsync on the writer", "power", "PPC", fmt.Sprintf(mp, "            ", "           "),
			fmt.Sprintf(mp, "xor r9,r1,r1", "lwsync      "), true}, // a register op, no dependency
		{"MP lwsync+lwsync", "power", "PPC", fmt.Sprintf(mp, "            ", "           "),
			fmt.Sprintf(mp, "lwsync      ", "lwsync      "), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := cat.LoadBuiltin(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			fe, _ := litmus.Lookup(tc.arch)
			parse := func(src string) *spec.Test {
				lt, err := litmus.Parse("test.litmus", []byte(src))
				if err != nil {
					t.Fatalf("%v\n%s", err, src)
				}
				return lt
			}
			orig, patched := parse(tc.orig), parse(tc.patched)
			r := Run(context.Background(), orig, m, tc.model, Options{TagNames: fe.Tags(), Show: "prop"})
			if len(r.Shown) == 0 {
				t.Fatal("no witness")
			}
			var pins []Pin
			for _, x := range r.Shown {
				p, ok := PinOf(x)
				if !ok {
					t.Fatalf("no pin for %+v", x)
				}
				pins = append(pins, p)
			}
			alive, err := Replay(context.Background(), patched, m, tc.model, Options{TagNames: fe.Tags()}, pins)
			if err != nil {
				t.Fatal(err)
			}
			for k, a := range alive {
				if a != tc.alive {
					t.Errorf("witness %d: alive %v, want %v (pin %+v)", k, a, tc.alive, pins[k])
				}
			}
		})
	}
}

// TestReplayCut: an execution of an unrolled program that ran past the
// bound (every path of a thread that loops forever) is alive only for a
// pin that allows it (the explicit engine, which runs the unrolled code
// as it is, shows it; the SMT engine drops it).
func TestReplayCut(t *testing.T) {
	const src = `{x, y}
thread t0 {
  while True {
    x.store(_rx, 1);
    r = y.load(_rx);
  }
}
thread t1 {
  y.store(_rx, 1);
  r = x.load(_rx);
}
exists t1:r = 0
`
	p, err := pts.Parse("loop.pts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	u, err := compile.Unroll(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := compile.Compile(u, "x86")
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.LoadBuiltin("tso")
	if err != nil {
		t.Fatal(err)
	}
	tags := compile.Tags("x86")
	r := Run(context.Background(), c, m, "tso", Options{TagNames: tags, Show: "prop", Bound: 1})
	if len(r.Shown) == 0 {
		t.Fatal("no execution shown")
	}
	var pins []Pin
	for _, x := range r.Shown {
		p, ok := PinOf(x)
		if !ok {
			t.Fatalf("no pin for %+v", x)
		}
		pins = append(pins, p)
	}
	alive, err := Replay(context.Background(), c, m, "tso", Options{TagNames: tags, Bound: 1}, pins)
	if err != nil {
		t.Fatal(err)
	}
	for k, a := range alive {
		if a {
			t.Errorf("cut execution %d called alive: %+v", k, pins[k])
		}
	}
	for k := range pins {
		pins[k].Cut = true
	}
	alive, err = Replay(context.Background(), c, m, "tso", Options{TagNames: tags, Bound: 1}, pins)
	if err != nil {
		t.Fatal(err)
	}
	for k, a := range alive {
		if !a {
			t.Errorf("cut execution %d with Cut not alive: %+v", k, pins[k])
		}
	}
}

// TestReplayPinsCo: under a model that binds co itself (Power), the
// replay keeps the pinned coherence order: S's witness whose co puts
// P1's write of x first is forbidden with lwsyncs, though the same reads
// with the other order of x are allowed.
func TestReplayPinsCo(t *testing.T) {
	const src = `PPC S
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1           ;
 li r1,2      | lwz r1,0(r2) ;
 stw r1,0(r2) | %s ;
 %s | li r3,1      ;
 li r3,1      | stw r3,0(r4) ;
 stw r3,0(r4) |              ;
exists (1:r1=1)`
	m, err := cat.LoadBuiltin("power")
	if err != nil {
		t.Fatal(err)
	}
	if !m.Binds("co") {
		t.Fatal("the test needs a model that binds co")
	}
	fe, _ := litmus.Lookup("PPC")
	parse := func(s string) *spec.Test {
		lt, err := litmus.Parse("S.litmus", []byte(s))
		if err != nil {
			t.Fatalf("%v\n%s", err, s)
		}
		return lt
	}
	orig := parse(fmt.Sprintf(src, "            ", "            "))
	fenced := parse(fmt.Sprintf(src, "lwsync      ", "lwsync      "))
	r := Run(context.Background(), orig, m, "power", Options{TagNames: fe.Tags(), Show: "prop"})
	seen := map[bool]bool{}
	for _, x := range r.Shown {
		p, ok := PinOf(x)
		if !ok {
			t.Fatalf("no pin for %+v", x)
		}
		p1First := len(p.Co["x"]) == 2 && p.Co["x"][0].Thread == 1
		alive, err := Replay(context.Background(), fenced, m, "power", Options{TagNames: fe.Tags()}, []Pin{p})
		if err != nil {
			t.Fatal(err)
		}
		if alive[0] == p1First {
			t.Errorf("co of x %+v: alive %v", p.Co["x"], alive[0])
		}
		seen[p1First] = true
	}
	if !seen[true] || !seen[false] {
		t.Errorf("witnesses with both orders of x expected, got %v", seen)
	}
}
