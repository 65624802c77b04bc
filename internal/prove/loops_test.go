package prove

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/bmc"
)

// counterMP is a loop that carries a register (a count of its tries, at
// most two) and writes it to memory in the iterations that repeat; the
// invariant and the condition are filled in.
const counterMP = `SPARC counter
{ x=0; y=0; }
 P0               | P1            ;
 mov 0,%%o1        | mov 1,%%o3     ;
 L: add %%o1,1,%%o1 | st %%o3,[y]    ;
 st %%o1,[x]       | ld [x],%%o4    ;
 ld [y],%%o2       |               ;
 cmp %%o2,0        |               ;
 bne OUT          |               ;
 nop              |               ;
 cmp %%o1,2        |               ;
 bl L             |               ;
 nop              |               ;
 OUT: ld [x],%%o5  |               ;
(* invariant P0:L INV *)
exists (COND)
`

// twoIterations needs two arbitrary iterations: P1 reads 1, 2, 1 from
// x, and only iterations that repeat P0's loop write it.
const twoIterations = `SPARC two-iterations
"P1 sees x go 1, 2, 1: two iterations of P0's loop before its last, which does not write."
{ x=0; y=0; }
 P0            | P1            ;
 mov 1,%o3     | ld [x],%o1    ;
 mov 2,%o4     | ld [x],%o2    ;
 L: ld [y],%o1 | ld [x],%o3    ;
 cmp %o1,0     | mov 1,%o4     ;
 bne OUT       | st %o4,[y]    ;
 nop           |               ;
 st %o3,[x]    |               ;
 st %o4,[x]    |               ;
 ba L          |               ;
 nop           |               ;
 OUT: nop      |               ;
(* invariant P0:L 0:o3=1 /\ 0:o4=2 *)
exists (1:o1=1 /\ 1:o2=2 /\ 1:o3=1)
`

// finalValue: only an iteration that repeats the loop writes x, and the
// condition observes its final value.
const finalValue = `SPARC fin
{ x=0; y=0; }
 P0            | P1         ;
 mov 1,%o3     | mov 1,%o4  ;
 L: ld [y],%o1 | st %o4,[y] ;
 cmp %o1,0     |            ;
 bne OUT       |            ;
 nop           |            ;
 st %o3,[x]    |            ;
 ba L          |            ;
 nop           |            ;
 OUT: nop      |            ;
(* invariant P0:L 0:o3=1 *)
exists (x=1)
`

// counterWait: P1's loop waits for the count P0's loop publishes; P1's
// invariant holds only because of P0's (the check assumes the other
// loops' invariants, the other threads may stop anywhere).
const counterWait = `SPARC counter-wait
{ x=0; }
 P0               | P1              ;
 mov 0,%o1        | M: ld [x],%o4   ;
 L: add %o1,1,%o1 | cmp %o4,2       ;
 st %o1,[x]       | bne M           ;
 cmp %o1,2        | nop             ;
 bl L             | ld [x],%o5      ;
 nop              |                 ;
(* invariant P0:L 0:o1>=0 /\ 0:o1<2 *)
(* invariant P1:M 1:o4>=0 /\ 1:o4<2 *)
exists (1:o5=1)
`

// TestWritingLoops checks the arbitrary iterations of Section 4.2.2 (the
// writes of the iterations before the last, bounded by the reads other
// threads make) and registers carried between iterations, under every
// model the method is sound for. Each answer is compared with the
// bounded method: a violation the abstraction finds in these programs is
// a real one, and a proof agrees with the bounded search.
func TestWritingLoops(t *testing.T) {
	counter := func(inv, cond string) string {
		s := strings.ReplaceAll(counterMP, "%%", "%")
		return strings.NewReplacer("INV", inv, "COND", cond).Replace(s)
	}
	file := func(name string) string {
		src, err := os.ReadFile(filepath.Join(examples, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(src)
	}
	cases := []struct {
		name, src string
		proved    bool
		want      string   // substring of the reason
		bound     int      // the bounded method's bound that finds the violation
		models    []string // nil: every model the method is sound for
	}{
		{"test-and-set spinlock, failing ldstubs write", file("tas-spinlock.litmus"), true, "", 2, nil},
		{"test-and-set spinlock whose failing iterations clear the lock", file("tas-spinlock-bug.litmus"), false, "possible violation", 2, nil},
		{"flags with back-off: a failing try lowers and raises the flag", file("backoff.litmus"), true, "", 2, []string{"sc"}},
		{"flags with back-off, store buffering", file("backoff.litmus"), false, "possible violation", 2, []string{"tso", "pso"}},
		{"flags with back-off and membars", file("backoff+membars.litmus"), true, "", 2, nil},
		{"counter bounded by the invariant", file("counter.litmus"), true, "", 3, nil},
		{"counter: a value only an earlier iteration writes", counter(`0:o1=0 \/ 0:o1=1`, "1:o4=1"), false, "possible violation", 3, nil},
		{"counter: the last iteration's value read after the loop", counter(`0:o1=0 \/ 0:o1=1`, "0:o5=2"), false, "possible violation", 3, nil},
		{"counter: a value no iteration writes", counter(`0:o1>=0 /\ 0:o1<2`, "1:o4=3 \\/ 0:o5=3"), true, "", 3, nil},
		{"counter: invariant not inductive", counter("0:o1=0", "1:o4=3"), false, "is not inductive", 0, nil},
		// Inductive but too weak: the last iteration may start at 2 in
		// the abstraction (not in the program): a spurious violation.
		{"counter: an invariant too weak", counter("0:o1>=0", "1:o4=3"), false, "possible violation", 0, nil},
		{"counter: invariant with a wrong bound", counter("0:o1<1", "1:o4=3"), false, "(0:o1<1) is not inductive", 0, nil},
		{"two earlier iterations observed", twoIterations, false, "possible violation", 2, nil},
		{"final value from an earlier iteration", finalValue, false, "possible violation", 2, nil},
		{"loop waiting for another loop's count", counterWait, true, "", 3, nil},
		{"loop waiting for another loop's count, invariant too strong", strings.Replace(counterWait, "1:o4>=0 /\\ 1:o4<2", "1:o4=0", 1), false, "(1:o4=0) is not inductive", 0, nil},
		{"xchg spinlock, register carried between tries", file("xchg-spinlock.litmus"), true, "", 2, nil},
		{"xchg spinlock, invariant too weak", strings.ReplaceAll(file("xchg-spinlock.litmus"), "EAX=1 *)", "EAX>=0 *)"), false, "possible violation", 0, nil},
		{"counter: invariant false on entry", counter("0:o1=1", "1:o4=3"), false, "does not hold when the loop is entered", 0, nil},
	}
	dir := t.TempDir()
	for i, c := range cases {
		path := filepath.Join(dir, "case"+string(rune('a'+i))+".litmus")
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		models := c.models
		if models == nil {
			models = SoundModels
		}
		for _, model := range models {
			rep, err := Prove(context.Background(), path, Options{Model: model})
			if err != nil {
				t.Errorf("%s under %s: %v", c.name, model, err)
				continue
			}
			if rep.Proved != c.proved || !strings.Contains(rep.Reason, c.want) {
				t.Errorf("%s under %s: proved %v, reason %q; want proved %v, reason containing %q", c.name, model, rep.Proved, rep.Reason, c.proved, c.want)
				continue
			}
			if !rep.Proved && rep.Witness == nil {
				t.Errorf("%s under %s: not proved without an execution", c.name, model)
			}
			if c.bound == 0 {
				continue
			}
			pr, err := bmc.CheckLitmus(context.Background(), path, bmc.LitmusOptions{Model: model, Bound: c.bound})
			if err != nil {
				t.Fatalf("%s under %s: %v", c.name, model, err)
			}
			if pr.Reachable == rep.Proved {
				t.Errorf("%s under %s: proved %v but the bounded method (bound %d) finds a violation: %v", c.name, model, rep.Proved, c.bound, pr.Reachable)
			}
		}
	}
}

// TestWrittenValues checks invariants that mention [x], the value the
// thread last wrote to x: after stores, read-modify-writes (ldstub) and
// store-conditionals that succeed (STREX), with x's initial value before
// the thread writes it.
func TestWrittenValues(t *testing.T) {
	file := func(name, old, inv string) string {
		src, err := os.ReadFile(filepath.Join(examples, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), old) {
			t.Fatalf("%s has no %q", name, old)
		}
		return strings.ReplaceAll(string(src), old, inv)
	}
	counterInv := `0:o1>=0 /\ 0:o1<2`
	cases := []struct {
		name, src string
		proved    bool
		want      string // substring of the reason or the error
		isErr     bool
	}{
		{"store: [x] is the count", file("counter.litmus", counterInv, `[x] = 0:o1 /\ `+counterInv), true, "", false},
		{"store: [x] changes", file("counter.litmus", counterInv, `[x] = 0 /\ `+counterInv), false, "is not inductive", false},
		{"store: initial value", file("counter.litmus", counterInv, `[x] = 1 /\ `+counterInv), false, "does not hold when the loop is entered", false},
		{"store: a location the thread never writes", file("counter.litmus", counterInv, `[y] = 0 /\ `+counterInv), true, "", false},
		{"ldstub writes 0xff", file("tas-spinlock.litmus", "P0:L true", `P0:L [lock] = 0 \/ [lock] = 255`), true, "", false},
		{"ldstub: [lock] not kept at 0", file("tas-spinlock.litmus", "P0:L true", `P0:L [lock] = 0`), false, "is not inductive", false},
		{"XCHG writes the register it then overwrites", file("xchg-spinlock.litmus", "P0:L 0:EAX=1", `P0:L 0:EAX=1 /\ ([lock]=0 \/ [lock]=1)`), true, "", false},
		{"XCHG: [lock] not kept at 0", file("xchg-spinlock.litmus", "P0:L 0:EAX=1", `P0:L 0:EAX=1 /\ [lock]=0`), false, "is not inductive", false},
		{"STREX: only a success writes", file("toppers-spinlock.litmus", "P0:L 0:R3=1", `P0:L 0:R3=1 /\ [lock]=0`), true, "", false},
		{"write through a computed address", `ARM T
{ 0:R2=x; }
 P0             ;
 MOV R3,#1      ;
 MOV R1,R2      ;
 L: STR R3,[R1] ;
 LDR R0,[R2]    ;
 CMP R0,#0      ;
 BEQ L          ;
(* invariant P0:L [x]=1 *)
exists (x=0)
`, false, "cannot name", true},
	}
	dir := t.TempDir()
	for i, c := range cases {
		path := filepath.Join(dir, "mem"+string(rune('a'+i))+".litmus")
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, model := range SoundModels {
			rep, err := Prove(context.Background(), path, Options{Model: model})
			if c.isErr {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s under %s: error %v, want one containing %q", c.name, model, err, c.want)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s under %s: %v", c.name, model, err)
				continue
			}
			if rep.Proved != c.proved || !strings.Contains(rep.Reason, c.want) {
				t.Errorf("%s under %s: proved %v, reason %q; want proved %v, reason containing %q", c.name, model, rep.Proved, rep.Reason, c.proved, c.want)
			}
		}
	}
}
