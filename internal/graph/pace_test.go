package graph_test

import (
	"context"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// TestPace checks Options.Pace on a C program under IMM (whose
// incremental check counts graphs in three places, engine.go's
// countGraph): it is called at every PaceEvery-th graph, the counts of a
// run it pauses are those of a run without it, and a Pace that blocks
// until the run's context is done ends the run as a time-out.
func TestPace(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("C")
	p, err := cfront.Lower(context.Background(), "../cfront/testdata/seqlock3.c", cfront.Options{Bound: 2})
	if err != nil {
		t.Fatal(err)
	}
	q := *p.Test
	q.Quant, q.Cond = spec.Exists, spec.Bool{V: false}
	opts := graph.Options{TagNames: fe.Tags(), BlockedReg: "%blocked"}
	r0, st0 := graph.Run(context.Background(), &q, m, "imm", opts)
	if r0.Status != result.Done || st0.Graphs < 2*graph.PaceEvery {
		t.Fatalf("the run without Pace: %v, %d graphs (want done, at least %d)", r0.Status, st0.Graphs, 2*graph.PaceEvery)
	}

	// A Pace that pauses the run at each call until another goroutine
	// lets it go on.
	var calls []int
	release := make(chan struct{})
	asked := make(chan int)
	go func() {
		for n := range asked {
			calls = append(calls, n)
			release <- struct{}{}
		}
	}()
	paced := opts
	paced.Pace = func(graphs int) {
		asked <- graphs
		<-release
	}
	r1, st1 := graph.Run(context.Background(), &q, m, "imm", paced)
	close(asked)
	if r1.Status != result.Done || st1.Graphs != st0.Graphs || st1.Complete != st0.Complete || st1.Blocked != st0.Blocked {
		t.Errorf("paused run: %v, %+v; without Pace: %+v", r1.Status, st1, st0)
	}
	if len(calls) != st0.Graphs/graph.PaceEvery {
		t.Errorf("Pace called %d times, want %d (%d graphs)", len(calls), st0.Graphs/graph.PaceEvery, st0.Graphs)
	}
	for i, n := range calls {
		if n != (i+1)*graph.PaceEvery {
			t.Errorf("call %d of Pace at %d graphs, want %d", i, n, (i+1)*graph.PaceEvery)
			break
		}
	}

	// A Pace that holds the run until its context is done: a time-out.
	ctx, cancel := context.WithCancel(context.Background())
	held := opts
	held.Pace = func(int) {
		cancel()
		<-ctx.Done()
	}
	r2, st2 := graph.Run(ctx, &q, m, "imm", held)
	if r2.Status != result.Timeout || st2.Graphs >= st0.Graphs {
		t.Errorf("held run: %v after %d graphs, want a time-out before %d", r2.Status, st2.Graphs, st0.Graphs)
	}
}
