package main

import (
	"context"
	"io"
	"os"
	"runtime"
	"time"
)

// paramOneProcFor is how long 'musket param' runs on one P.
const paramOneProcFor = time.Second

// paramProcs starts a 'musket param' run on one P and gives the others
// back after paramOneProcFor, or when the returned function is called
// (at the end of the run). The search is sequential: a second P only
// marks for the collector in parallel, and on a run of tens of
// milliseconds its thread mostly spins looking for work at every
// wake-up of the collector's workers. Measured under load (interleaved
// runs, task-clock): ricart-synonrien 99 ms against 136, msi.lock 136
// against 218, dijkstra 87 against 116, bakery_na unchanged; a long run
// gets its parallel marking back after the first second. The verdict and the search do
// not depend on it. The server (musket serve) runs commands side by
// side in one process and is left alone, as is a GOMAXPROCS the user
// set. -parallel-sample gets the Ps at once (its helper goroutine needs
// a second one). restore may be called more than once.
func paramProcs(stdout io.Writer) (restore func()) {
	if _, served := stdout.(interface{ Context() context.Context }); served || os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	prev := runtime.GOMAXPROCS(1)
	if prev <= 1 {
		return func() {}
	}
	t := time.AfterFunc(paramOneProcFor, func() { runtime.GOMAXPROCS(prev) })
	return func() {
		if t.Stop() {
			runtime.GOMAXPROCS(prev)
		}
	}
}
