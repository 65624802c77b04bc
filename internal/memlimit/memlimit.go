// Package memlimit enforces Musket's memory limit (the -memory flag): the
// Go runtime's soft limit (debug.SetMemoryLimit) keeps the collector
// working before the limit is reached, and a watcher samples the live
// heap, plus the memory of the C libraries that report it (Z3, through
// AddExternal), while some task runs. When the sum passes the limit, the
// watcher cancels the context of every running task with ErrExceeded as
// the cause: the engines, which check their context in their loops for
// the time limit, stop there, and the caller reports the task as stopped
// by the memory limit (exit status 3) instead of the process dying.
package memlimit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrExceeded is the cause of a context canceled by the memory limit, and
// what the errors of a library out of memory match (errors.Is).
var ErrExceeded = errors.New("memory limit reached")

var (
	limit    atomic.Int64 // bytes; 0: none
	mu       sync.Mutex
	tasks    = map[*task]struct{}{}
	running  bool
	external []func() uint64
	onSet    []func(int64)
)

type task struct{ cancel context.CancelCauseFunc }

// Minimum is the smallest limit Musket accepts (0, no limit, aside). The
// process itself holds about 6 MiB before any work (the Go runtime's
// heap, stacks and metadata), and Z3 needs more than 16 MiB for a
// context with the smallest litmus test: a limit below the process's own
// size was reached or not depending on whether the watcher sampled before
// the run ended, so that one tiny test passed and the next, the same,
// was "memory limit" (robust6). Below Minimum the limit is refused when
// it is given (CheckLimit); from Minimum on, a run is stopped only by
// memory that the run itself takes. 16 MiB is more than twice the
// process's own size, and still small enough that Z3 runs out of its own
// budget at once (the tests of that path use it).
const Minimum = 16 << 20

// CheckLimit refuses a limit that is not 0 (none) and below Minimum.
func CheckLimit(n int64) error {
	if n != 0 && n < Minimum {
		return fmt.Errorf("%s is below Musket's smallest memory limit, %s (the process itself takes about 6MiB before any work; 0: no limit)", Format(n), Format(Minimum))
	}
	return nil
}

// Default is the limit when none is given: three quarters of the
// machine's memory (or of the memory its cgroup allows), at most 8 GiB.
func Default() int64 {
	const cap8 = 8 << 30
	total := physical()
	if total <= 0 {
		return cap8
	}
	return min(total/4*3, cap8)
}

// physical is the memory of the machine, or of the cgroup when it is
// smaller; 0 when unknown.
func physical() int64 {
	var si syscall.Sysinfo_t
	var total int64
	if syscall.Sysinfo(&si) == nil {
		total = int64(si.Totalram) * int64(si.Unit)
	}
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(f); err == nil {
			if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
				total = n
			}
		}
	}
	return total
}

// Set makes n bytes the limit (0: none) and tells the Go runtime and the
// libraries registered with OnSet.
func Set(n int64) {
	limit.Store(n)
	if n > 0 {
		debug.SetMemoryLimit(n)
	} else {
		debug.SetMemoryLimit(math.MaxInt64)
	}
	mu.Lock()
	fs := append([]func(int64){}, onSet...)
	mu.Unlock()
	for _, f := range fs {
		f(n)
	}
}

// Limit returns the limit in bytes (0: none).
func Limit() int64 { return limit.Load() }

// AddExternal registers a function that tells how many bytes a C library
// has allocated (they are outside the Go runtime's accounting), and
// onSet, called with each new limit (to give the library the limit too).
func AddExternal(bytes func() uint64, set func(int64)) {
	mu.Lock()
	if bytes != nil {
		external = append(external, bytes)
	}
	if set != nil {
		onSet = append(onSet, set)
	}
	mu.Unlock()
	if set != nil && limit.Load() > 0 {
		set(limit.Load())
	}
}

// Watch returns a context that the memory limit cancels with ErrExceeded,
// and the function that ends the watch (call it when the task is done).
func Watch(ctx context.Context) (context.Context, func()) {
	if limit.Load() <= 0 {
		return ctx, func() {}
	}
	c, cancel := context.WithCancelCause(ctx)
	t := &task{cancel: cancel}
	mu.Lock()
	tasks[t] = struct{}{}
	if !running {
		running = true
		go watch()
	}
	mu.Unlock()
	return c, func() {
		mu.Lock()
		delete(tasks, t)
		mu.Unlock()
		cancel(context.Canceled)
	}
}

// Exceeded tells whether ctx (or a context it derives from) was canceled
// by the memory limit.
func Exceeded(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrExceeded)
}

// Error is the error of a task stopped by the limit.
func Error() error {
	return fmt.Errorf("%w (-memory %s; raise it with -memory)", ErrExceeded, Format(limit.Load()))
}

var samples = []metrics.Sample{
	{Name: "/gc/heap/live:bytes"},
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
}

// Used returns the bytes counted against the limit: the Go heap live at
// the last collection and the libraries' memory; and the memory the Go
// runtime holds from the system.
func Used() (counted, goTotal uint64) {
	s := make([]metrics.Sample, len(samples))
	copy(s, samples)
	metrics.Read(s)
	live := sampleValue(s[0])
	goTotal = sampleValue(s[1]) - min(sampleValue(s[2]), sampleValue(s[1]))
	return live + External(), goTotal
}

// External returns the bytes the C libraries registered with AddExternal
// have allocated (Z3's).
func External() uint64 {
	mu.Lock()
	ext := append([]func() uint64{}, external...)
	mu.Unlock()
	var n uint64
	for _, f := range ext {
		n += f()
	}
	return n
}

func sampleValue(s metrics.Sample) uint64 {
	if s.Value.Kind() == metrics.KindUint64 {
		return s.Value.Uint64()
	}
	return 0
}

// over tells whether the memory in use reaches the limit: the live heap
// and the libraries' memory together pass nine tenths of it, or the Go
// runtime's whole memory passes it by a quarter (the collector could not
// keep it under the soft limit).
func over() bool {
	n := limit.Load()
	if n <= 0 {
		return false
	}
	counted, goTotal := Used()
	// Nine tenths: past that the collector, held under the limit by the
	// runtime's soft limit, runs almost without pause and the task
	// crawls instead of failing.
	return counted > uint64(n)/10*9 || goTotal > uint64(n)+uint64(n)/4
}

// watch samples the memory while tasks run.
func watch() {
	t := time.NewTicker(25 * time.Millisecond)
	defer t.Stop()
	for range t.C {
		mu.Lock()
		if len(tasks) == 0 {
			running = false
			mu.Unlock()
			return
		}
		mu.Unlock()
		if !over() {
			continue
		}
		mu.Lock()
		for k := range tasks {
			k.cancel(ErrExceeded)
			delete(tasks, k)
		}
		mu.Unlock()
		// The stopped tasks' memory is garbage now: collect it before the
		// next sample, so that the next tasks are not charged with it.
		time.Sleep(50 * time.Millisecond)
		runtime.GC()
		debug.FreeOSMemory()
	}
}

// Parse reads a size: a number of bytes, or a number with a unit K, M,
// G or T (powers of 1024; KiB, KB, k, ... are accepted), e.g. 512M, 4GiB,
// 1.5G. "0" means no limit.
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	u := strings.ToUpper(t)
	u = strings.TrimSuffix(strings.TrimSuffix(u, "IB"), "B")
	mult := int64(1)
	if u != "" {
		switch u[len(u)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			u = u[:len(u)-1]
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(u), 64)
	if err != nil || f < 0 || f*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("not a size: %q (e.g. 512M, 4G, 2GiB)", s)
	}
	return int64(f * float64(mult)), nil
}

// Format writes a size with the largest binary unit that keeps it whole
// to a tenth.
func Format(n int64) string {
	switch {
	case n <= 0:
		return "none"
	case n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + "GiB"
	case n >= 1<<20:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n >= 1<<10:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10) + "B"
}
