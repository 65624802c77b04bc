package smt

import (
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestChecksKeepGoSIGINTHandler runs checks in several goroutines at once
// while another watches the process's SIGINT handler: Z3 must never
// install its own (its "ctrl_c" parameter), which crashed Musket on a
// Ctrl-C when concurrent checks restored each other's handlers.
func TestChecksKeepGoSIGINTHandler(t *testing.T) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt) // Go's handler is installed
	defer signal.Stop(ch)
	h0 := sigintHandler()
	if h0 == 0 {
		t.Fatal("no SIGINT handler installed by Go")
	}
	var changed atomic.Uint64
	stop := make(chan struct{})
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if h := sigintHandler(); h != h0 {
				changed.Store(uint64(h))
			}
		}
	}()
	var wg sync.WaitGroup
	deadline := time.Now().Add(time.Second)
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 20 && time.Now().Before(deadline); n++ {
				c := NewContext()
				s := c.NewSolver()
				php(c, s, 6, false)
				s.SetTimeout(200)
				s.Check()
				c.Close()
			}
		}()
	}
	wg.Wait()
	close(stop)
	watch.Wait()
	if h := changed.Load(); h != 0 {
		t.Fatalf("SIGINT handler changed during a check: %#x, Go's is %#x", h, h0)
	}
}
