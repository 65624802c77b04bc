package litmus_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

const (
	// lrsc has an lr/sc pair and no AMO.
	lrscSrc = `RISCV lrsc
{ 0:x5=x; 0:x7=1; }
 P0                 ;
 lr.w x6,0(x5)      ;
 sc.w x8,x7,0(x5)   ;
exists (x=1)
`
	// amoswap has an AMO and no lr/sc.
	amoswapSrc = `RISCV amoswap
{ 0:x5=x; 0:x7=1; 1:x5=x; }
 P0                   | P1          ;
 amoswap.w x6,x7,(x5) | lw x6,0(x5) ;
exists (0:x6=0 /\ 1:x6=1 /\ x=1)
`
)

// TestRISCVAMOSet checks the set AMO: herd7's, the events of AMOs (herd7
// 7.58's riscv-defs.cat: let AMO = try AMO with (R & W), its one-event
// AMOs), and not those of lr/sc, which are X too. A model that takes an
// AMO as two events (its own fr keeps the identity, as Dat3M's) gets both
// of them in AMO, as Dartagnan's riscv.cat means it (it uses AMO|X).
func TestRISCVAMOSet(t *testing.T) {
	flags := "flag ~empty AMO as amo\nflag ~empty (AMO \\ (R & W)) as amo-not-rw\nflag ~empty (X \\ AMO) as x-not-amo\n"
	models := []struct {
		name, src string
		want      map[string][]string // test -> flags
	}{
		{"one event", "\"one\"\n" + flags, map[string][]string{
			"lrsc": {"x-not-amo"}, "amoswap": {"amo"}}},
		{"two events", "\"two\"\nlet fr = rf^-1;co\n" + flags, map[string][]string{
			"lrsc": {"x-not-amo"}, "amoswap": {"amo", "amo-not-rw"}}},
	}
	fe, _ := litmus.Lookup("RISCV")
	for _, md := range models {
		m, err := cat.LoadText("m.cat", map[string][]byte{"m.cat": []byte(md.src)}, cat.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", md.name, err)
		}
		for _, src := range []string{lrscSrc, amoswapSrc} {
			name := strings.Fields(src)[1]
			lt, err := litmus.Parse(name+".litmus", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
			for _, res := range []*result.Result{
				enum.Run(ctx, lt, m, md.name, enum.Options{TagNames: fe.Tags()}),
				bmc.Run(ctx, lt, m, md.name, bmc.Options{TagNames: fe.Tags()}),
			} {
				if res.Status != result.Done {
					t.Errorf("%s, %s, %s: %s %v", md.name, name, res.Engine, res.Status, res.Err)
					continue
				}
				if !slices.Equal(res.Flags, md.want[name]) {
					t.Errorf("%s, %s, %s: flags %v, want %v", md.name, name, res.Engine, res.Flags, md.want[name])
				}
			}
			cancel()
		}
	}
}

// TestRISCVAMODrawnOnce checks that the executions an engine gives back
// (the witness of -json, the graphs of -show and -o, the executions of
// -explain) draw an AMO as one event, as herd7 does, when the model sees
// it as one: a node "RMW" with the value it reads and the one it writes,
// its rf in and out, its co place, and no edge to itself.
func TestRISCVAMODrawnOnce(t *testing.T) {
	m, name, err := driver.Load("riscv")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("RISCV")
	lt, err := litmus.Parse("amoswap.litmus", []byte(amoswapSrc))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
	defer cancel()
	for _, res := range []*result.Result{
		enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags(), Show: "all"}),
		bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()}),
	} {
		if res.Status != result.Done || res.Witness == nil {
			t.Fatalf("%s: %s %v, witness %v", res.Engine, res.Status, res.Err, res.Witness)
		}
		xs := append([]*result.Execution{res.Witness}, res.Shown...)
		for _, x := range xs {
			checkDrawnOnce(t, res.Engine, x)
		}
		// The witness: init x=0, P0's AMO reads 0 and writes 1, P1 reads 1.
		w := res.Witness
		labels := make([]string, len(w.Events))
		for i, e := range w.Events {
			labels[i] = e.Label
		}
		amo := -1
		for i, l := range labels {
			if strings.Contains(l, ": RMW.") {
				amo = i
			}
		}
		if amo < 0 || !strings.HasSuffix(labels[amo], "[x]=0>1") {
			t.Fatalf("%s: events %q, want one RMW reading 0 and writing 1", res.Engine, labels)
		}
		if !slices.Contains(w.Rf, [2]int{amo, len(labels) - 1}) || !slices.Contains(w.Co, [2]int{0, amo}) {
			t.Errorf("%s: rf %v co %v, want the AMO (%d) read by P1 and after the initial write", res.Engine, w.Rf, w.Co, amo)
		}
	}
	// -explain: the forbidden outcome's executions and their cycles are
	// drawn on one-event AMOs.
	forbidden := strings.Replace(amoswapSrc, "exists (0:x6=0 /\\ 1:x6=1 /\\ x=1)", "exists (0:x6=1)", 1)
	lt, err = litmus.Parse("amoswap-self.litmus", []byte(forbidden))
	if err != nil {
		t.Fatal(err)
	}
	res := enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags(), Explain: true})
	if res.Status != result.Done || res.Explain == nil {
		t.Fatalf("explain: %s %v", res.Status, res.Err)
	}
	for _, r := range res.Explain.Rejected {
		checkDrawnOnce(t, "explain", r.Execution)
		if r.Reason != nil {
			for _, s := range r.Reason.Steps {
				if s.From >= len(r.Execution.Events) || s.To >= len(r.Execution.Events) {
					t.Errorf("explain: step %v outside the %d events drawn", s, len(r.Execution.Events))
				}
			}
		}
	}
}

// checkDrawnOnce checks that x has no event of an AMO drawn as a read or
// a write, events numbered 0.. with their labels' names, and no edge from
// an event to itself.
func checkDrawnOnce(t *testing.T, engine string, x *result.Execution) {
	t.Helper()
	for i, e := range x.Events {
		if e.ID != i {
			t.Errorf("%s: event %d has ID %d", engine, i, e.ID)
		}
		if strings.Contains(e.Label, ".AMO") && !strings.Contains(e.Label, ": RMW.") {
			t.Errorf("%s: an AMO drawn as a read or a write: %q", engine, e.Label)
		}
	}
	for _, es := range [][][2]int{x.Po, x.Rf, x.Co, x.Fr} {
		for _, p := range es {
			if p[0] == p[1] || p[0] >= len(x.Events) || p[1] >= len(x.Events) {
				t.Errorf("%s: edge %v (%d events)", engine, p, len(x.Events))
			}
		}
	}
}
