package bmc_test

import (
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// Small programs, each checked against the explicit engine (verdict and
// final states) under SC and TSO.
var smallTests = []struct {
	name string
	src  string
	tso  bool // expected verdict under TSO
}{
	{"SB", `X86 SB
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)`, true},
	{"SB+mfences", `X86 SB+mfences
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MFENCE      | MFENCE      ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)`, false},
	{"MP", `X86 MP
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV EAX,[y] ;
 MOV [y],$1  | MOV EBX,[x] ;
exists (1:EAX=1 /\ 1:EBX=0)`, false},
	{"LB", `X86 LB
{ x=0; y=0; }
 P0          | P1          ;
 MOV EAX,[x] | MOV EAX,[y] ;
 MOV [y],$1  | MOV [x],$1  ;
exists (0:EAX=1 /\ 1:EAX=1)`, false},
	{"2+2W", `X86 2+2W
{ x=0; y=0; }
 P0         | P1         ;
 MOV [x],$1 | MOV [y],$1 ;
 MOV [y],$2 | MOV [x],$2 ;
locations [x; y;]
exists (x=1 /\ y=1)`, false},
	{"XCHG", `X86 SB+xchgs
{ x=0; y=0; }
 P0           | P1           ;
 MOV EAX,$1   | MOV EAX,$1   ;
 XCHG [x],EAX | XCHG [y],EAX ;
 MOV EBX,[y]  | MOV EBX,[x]  ;
exists (0:EBX=0 /\ 1:EBX=0)`, false},
	{"branch", `X86 branch
{ x=0; y=0; }
 P0          | P1          ;
 MOV EAX,[x] | MOV [y],$1  ;
 CMP EAX,$1  | MOV [x],$1  ;
 JNE L0      |             ;
 MOV EBX,[y] |             ;
 L0:         |             ;
exists (0:EAX=1 /\ 0:EBX=0)`, false},
	{"addr", `X86 addr
{ x=0; y=0; p=x; 0:ECX=p; }
 P0          | P1          ;
 MOV EAX,[ECX] | MOV [y],$1 ;
 MOV EBX,[EAX] | MOV [p],y ;
exists (0:EAX=y /\ 0:EBX=0)`, false},
	{"loop", `X86 loop
{ x=0; }
 P0           | P1          ;
 L0:          | MOV [x],$1  ;
 MOV EAX,[x]  | MOV [x],$2  ;
 CMP EAX,$0   |             ;
 JE L0        |             ;
exists (0:EAX=2)`, true},
}

func TestSmallAgainstEnum(t *testing.T) {
	for _, model := range []string{"sc", "tso"} {
		m, err := cat.LoadBuiltin(model)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range smallTests {
			t.Run(model+"/"+tc.name, func(t *testing.T) {
				lt, err := litmus.Parse(tc.name+".litmus", []byte(tc.src))
				if err != nil {
					t.Fatal(err)
				}
				fe, _ := litmus.Lookup("X86")
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
				defer cancel()
				a := enum.Run(ctx, lt, m, model, enum.Options{TagNames: fe.Tags()})
				b := bmc.Run(ctx, lt, m, model, bmc.Options{TagNames: fe.Tags()})
				if a.Status != result.Done || b.Status != result.Done {
					t.Fatalf("enum %s %v, smt %s %v", a.Status, a.Err, b.Status, b.Err)
				}
				if stateSet(a) != stateSet(b) || a.Ok() != b.Ok() || a.Bounded != b.Bounded {
					t.Errorf("enum %v {%s} bounded %v\nsmt  %v {%s} bounded %v", a.Ok(), stateSet(a), a.Bounded, b.Ok(), stateSet(b), b.Bounded)
				}
				if model == "tso" && b.Ok() != tc.tso {
					t.Errorf("tso verdict %v, want %v", b.Ok(), tc.tso)
				}
				if b.Ok() && b.Witness == nil && lt.Quant == spec.Exists {
					t.Errorf("no witness")
				}
				// The verdict alone agrees too.
				v := bmc.Run(ctx, lt, m, model, bmc.Options{TagNames: fe.Tags(), VerdictOnly: true})
				if v.Ok() != b.Ok() || v.Observation() != b.Observation() {
					t.Errorf("verdict-only %v %s, full %v %s", v.Ok(), v.Observation(), b.Ok(), b.Observation())
				}
			})
		}
	}
}

// TestRelationAnalysisSame: with the relation analysis off the answers
// are the same.
func TestRelationAnalysisSame(t *testing.T) {
	m, _ := cat.LoadBuiltin("tso")
	fe, _ := litmus.Lookup("X86")
	for _, tc := range smallTests[:6] {
		lt, err := litmus.Parse(tc.name+".litmus", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		a, ra := bmc.RunReport(context.Background(), lt, m, "tso", bmc.Options{TagNames: fe.Tags()})
		b, rb := bmc.RunReport(context.Background(), lt, m, "tso", bmc.Options{TagNames: fe.Tags(), NoAnalysis: true})
		if stateSet(a) != stateSet(b) {
			t.Errorf("%s: with analysis {%s}, without {%s}", tc.name, stateSet(a), stateSet(b))
		}
		if ra.Stats.Vars() >= rb.Stats.Vars() {
			t.Errorf("%s: the analysis does not save variables: %d vs %d", tc.name, ra.Stats.Vars(), rb.Stats.Vars())
		}
	}
}

// TestModelFeatures: let rec (relaxed encoding), closures, flags and
// negated checks, on SB, against the explicit engine.
func TestModelFeatures(t *testing.T) {
	models := map[string]string{
		"rec": `"rec"
let rec hb = po | rf | co | fr | (hb ; hb)
irreflexive hb`,
		"closure": `"closure"
let com = rf | co | fr
acyclic (po | com)+`,
		"flag": `"flag"
acyclic po | rf | co | fr
flag ~empty (rf & ext) as communicates`,
		"negated": `"negated"
~empty rf & ext`,
		"fun": `"fun"
let f(r, s) = r | s
let g x = f(x, rf)
acyclic g(po | co | fr)`,
		// A let rec every check wants small (one way, polarity.go), one
		// a flag wants big, one both, one taken away by \.
		"rec-small": `"rec-small"
let rec hb = po | rf | fr | co | (hb ; hb)
acyclic hb`,
		"rec-flag": `"rec-flag"
let rec t = (rf & ext) | (t ; t)
acyclic po | rf | co | fr
flag ~empty (t \ rf) as beyond`,
		"rec-both": `"rec-both"
let rec t = (fr & ext) | (t ; po ; t)
acyclic (t | po | co | rf) as c
flag ~empty (t ; po ; t) as twice`,
		"rec-diff": `"rec-diff"
let rec t = rf | (t ; t)
let u = (po | co | fr | rf) \ (t \ (rf & int))
acyclic u | (t & ext)
let later = t & (po ; po)
empty later \ later`,
		// A chain of sequences with an empty operand after its
		// closures (closure.go: the closures are never built).
		"chain-empty": `"chain-empty"
let com = rf | co | fr
let none = [F] ; po ; [F]
acyclic po | com | (com* ; (po | com)+ ; none ; (po | fr)*) as c
irreflexive (fr ; (rf | po)+) as d
irreflexive (co ; rf ; fr) | (fr ; po ; rf) | po as e
flag ~irreflexive (rf ; po ; fr) as f`,
		// A closure of the same relation in two checks (built once).
		"closure-twice": `"closure-twice"
let hb = po | rf
irreflexive hb+ ; fr as a
acyclic co | (hb+ & (W * W)) as b`,
		// A binding first used inside a let rec's shape passes
		// (letrec.go): evaluated for real, once.
		"rec-lazy": `"rec-lazy"
let base = rf | co | fr
let rec t = (base & ext) | (t ; po ; t)
acyclic t | po as c
flag ~empty (base ; base) as two`,
	}
	lt, err := litmus.Parse("SB.litmus", []byte(smallTests[0].src))
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("X86")
	dir := t.TempDir()
	for name, src := range models {
		path := fmt.Sprintf("%s/%s.cat", dir, name)
		if err := writeFile(path, src); err != nil {
			t.Fatal(err)
		}
		m, err := cat.Load(path, cat.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a := enum.Run(context.Background(), lt, m, name, enum.Options{TagNames: fe.Tags()})
		b := bmc.Run(context.Background(), lt, m, name, bmc.Options{TagNames: fe.Tags()})
		if b.Status != result.Done {
			t.Errorf("%s: %s %v", name, b.Status, b.Err)
			continue
		}
		if stateSet(a) != stateSet(b) || fmt.Sprint(a.Flags) != fmt.Sprint(b.Flags) {
			t.Errorf("%s: enum {%s} %v, smt {%s} %v", name, stateSet(a), a.Flags, stateSet(b), b.Flags)
		}
	}
}

// TestLazyErrors: a binding is evaluated at its first use (or, when no
// check uses it, at the end without building its formulas), and its
// error is still the model's: neither left unreported nor caught by a try
// around the use.
func TestLazyErrors(t *testing.T) {
	models := map[string]string{
		"unused": `"unused"
let bad = po ; 'a
acyclic po | rf | co | fr`,
		"try": `"try"
let bad = po ; 'a
acyclic po | rf | co | fr | (try bad with 0)`,
	}
	lt, err := litmus.Parse("SB.litmus", []byte(smallTests[0].src))
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("X86")
	dir := t.TempDir()
	for name, src := range models {
		path := fmt.Sprintf("%s/%s.cat", dir, name)
		if err := writeFile(path, src); err != nil {
			t.Fatal(err)
		}
		m, err := cat.Load(path, cat.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a := enum.Run(context.Background(), lt, m, name, enum.Options{TagNames: fe.Tags()})
		b := bmc.Run(context.Background(), lt, m, name, bmc.Options{TagNames: fe.Tags()})
		if b.Status != result.Failed || b.Err == nil || a.Status != result.Failed {
			t.Errorf("%s: enum %s %v, smt %s %v; want both failed", name, a.Status, a.Err, b.Status, b.Err)
		}
	}
}
