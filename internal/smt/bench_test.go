package smt

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkPigeonhole builds and refutes PHP(n+1, n) in a fresh context
// per iteration, with AtMostOne (pairwise clauses at this size) and with
// Z3's native cardinality constraint; it backs the choice of encoding in
// AtMostOne/ExactlyOne.
func BenchmarkPigeonhole(b *testing.B) {
	for _, n := range []int{6, 7} {
		for _, native := range []bool{false, true} {
			name := "pairwise"
			if native {
				name = "native"
			}
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				for b.Loop() {
					c := NewContext()
					s := c.NewSolver()
					php(c, s, n, native)
					if r := s.Check(); r != Unsat {
						b.Fatalf("PHP(%d) = %v", n, r)
					}
					c.Close()
				}
			})
		}
	}
}

// BenchmarkTerm measures building one term: one cgo crossing, a Z3
// reference and a cleanup registration.
func BenchmarkTerm(b *testing.B) {
	c := NewContext()
	defer c.Close()
	x, y := c.Int("x"), c.Int("y")
	b.ReportAllocs()
	for b.Loop() {
		c.Add(x, y)
	}
}

// BenchmarkContext measures creating and closing a context.
func BenchmarkContext(b *testing.B) {
	for b.Loop() {
		NewContext().Close()
	}
}

// BenchmarkContextChurn creates 1000 contexts per iteration, each with a
// few hundred terms, and reports the growth of Z3's heap and of the RSS;
// both must stay flat (see also TestNoLeakContexts).
func BenchmarkContextChurn(b *testing.B) {
	runtime.LockOSThread() // one malloc arena; see TestNoLeakContexts
	defer runtime.UnlockOSThread()
	settle(nil)
	rss0, z0 := rssBytes(b), AllocatedBytes()
	for b.Loop() {
		for i := 0; i < 1000; i++ {
			churn(i, i%100 == 0)
		}
	}
	settle(nil)
	b.ReportMetric(float64(int64(AllocatedBytes()-z0)), "z3-heap-growth-B")
	b.ReportMetric(float64(int64(rssBytes(b)-rss0)), "rss-growth-B")
}

// BenchmarkCheckContextStop measures how long a hard check runs past its
// context's deadline (metric ms-late): the figure TestCheckContext only
// bounds loosely.
func BenchmarkCheckContextStop(b *testing.B) {
	c := NewContext()
	defer c.Close()
	var late time.Duration
	for b.Loop() {
		s := hardSolver(c, 11)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		if r := s.CheckContext(ctx); r != Unknown {
			b.Fatalf("PHP(11) = %v, want Unknown (canceled)", r)
		}
		dl, _ := ctx.Deadline()
		late += time.Since(dl)
		cancel()
	}
	b.ReportMetric(float64(late.Milliseconds())/float64(b.N), "ms-late")
}
