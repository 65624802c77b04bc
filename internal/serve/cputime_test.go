package serve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// CPU time, not wall time, is what the suite benchmark compares: on a
// machine other programs load, a pass's wall time grows with the load,
// while the CPU time the browser spent on it hardly does. Chromium runs
// the page, its workers and V8's background compiles in its renderer
// process, so the renderer's CPU time over a pass (every thread's, from
// /proc) is the pass's cost on the WebAssembly side.

// clockTick is the unit of /proc's CPU times (USER_HZ), 100 on Linux.
const clockTick = 10 * time.Millisecond

// procStat reads a /proc/.../stat file: the process' parent, its
// command's name and its CPU time (user+system).
func procStat(path string) (ppid int, comm string, cpu time.Duration, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, "", 0, false
	}
	s := string(b)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return 0, "", 0, false
	}
	comm = s[open+1 : close]
	f := strings.Fields(s[close+1:])
	// After the name: state, ppid, ..., utime and stime (fields 14 and 15
	// of proc(5), 12 and 13 here).
	if len(f) < 13 {
		return 0, "", 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return ppid, comm, time.Duration(u+st) * clockTick, true
}

// renderers lists the renderer processes under the browser of ctx.
func renderers(ctx context.Context) []int {
	r, _ := browserTree(ctx)
	return r
}

// browserTree is the browser's processes: its renderers, and the rest
// (the browser process itself, the GPU process, the network service and
// other utilities).
func browserTree(ctx context.Context) (renderers, rest []int) {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return nil, nil
	}
	root := c.Browser.Process().Pid
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, _, _, ok := procStat(filepath.Join("/proc", e.Name(), "stat")); ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	for todo := []int{root}; len(todo) > 0; {
		pid := todo[0]
		todo = append(todo[1:], children[pid]...)
		if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && strings.Contains(string(cmd), "--type=renderer") {
			renderers = append(renderers, pid)
		} else {
			rest = append(rest, pid)
		}
	}
	return renderers, rest
}

// cpuSnap is the CPU time of the browser's renderers at one moment: in
// all (every thread, those ended too, in /proc's 10 ms steps) and per
// live thread, to the nanosecond (the kernel's schedstat: the time the
// thread ran, not sampled) beside its 10 ms figure.
type cpuSnap struct {
	all     time.Duration
	threads map[string]threadCPU // "pid/tid" -> the thread's times
	// rest is the CPU time of the browser's other processes (see
	// browserTree), in 10 ms steps: not the page's, and not counted in a
	// pass' figure, but logged beside it, so that what a pass makes the
	// browser do elsewhere (the display compositor drawing the results
	// table, in the GPU process) is seen.
	rest time.Duration
}

// threadCPU is one renderer thread at one moment: its role (see role),
// its CPU time in /proc/.../stat's 10 ms steps, and the time it ran to
// the nanosecond (/proc/.../schedstat's first field; ok is false where
// the kernel has no schedstat).
type threadCPU struct {
	role        string
	ticks, exec time.Duration
	ok          bool
}

func snapCPU(ctx context.Context) cpuSnap {
	s := cpuSnap{threads: map[string]threadCPU{}}
	rend, rest := browserTree(ctx)
	for _, pid := range rest {
		if _, _, cpu, ok := procStat(fmt.Sprintf("/proc/%d/stat", pid)); ok {
			s.rest += cpu
		}
	}
	for _, pid := range rend {
		dir := fmt.Sprintf("/proc/%d", pid)
		if _, _, cpu, ok := procStat(dir + "/stat"); ok {
			s.all += cpu
		}
		tasks, _ := os.ReadDir(dir + "/task")
		for _, t := range tasks {
			tdir := filepath.Join(dir, "task", t.Name())
			if _, comm, cpu, ok := procStat(tdir + "/stat"); ok {
				exec, eok := schedRun(tdir + "/schedstat")
				s.threads[fmt.Sprintf("%d/%s", pid, t.Name())] = threadCPU{role(strconv.Itoa(pid) == t.Name(), comm), cpu, exec, eok}
			}
		}
	}
	return s
}

// schedRun reads the time a thread ran, in ns, from its schedstat file.
func schedRun(path string) (time.Duration, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	ns, err := strconv.ParseInt(f[0], 10, 64)
	return time.Duration(ns), err == nil
}

// role names what a renderer thread does, from its name (the first 15
// bytes of Chromium's): "page" for the renderer's main thread (the
// page's JavaScript, the DOM, style and layout), "worker" for the page's
// workers (DedicatedWorker: the engine in WebAssembly and worker.js),
// "compile" for Chromium's thread pool (ThreadPoolForegroundWorker,
// where V8 compiles WebAssembly and JavaScript in the background),
// "compositor", "io" (Chrome_ChildIOThread: messages to the browser
// process), and "other".
func role(main bool, comm string) string {
	switch {
	case main:
		return "page"
	case strings.HasPrefix(comm, "DedicatedWorker"):
		return "worker"
	case strings.HasPrefix(comm, "ThreadPoolForeg"):
		return "compile"
	case strings.HasPrefix(comm, "Compositor"):
		return "compositor"
	case strings.HasPrefix(comm, "Chrome_ChildIOT"):
		return "io"
	}
	return "other"
}

// roles are role's names, in the order the benchmark prints them.
var roles = []string{"page", "worker", "compile", "compositor", "io", "other", "ended"}

// cpuSplit is what the renderers spent over a pass: in all and by role.
type cpuSplit struct {
	all    time.Duration
	byRole map[string]time.Duration
	ticks  time.Duration // the same total in /proc's 10 ms steps
	rest   time.Duration // the browser's other processes (not in all; see cpuSnap)
}

// since says what the renderers spent since s, in all and by role (see
// role). Each live thread's time is its schedstat's, to the nanosecond;
// a thread that began after s counts from zero. A thread that ended
// after s took its time since s with it: that share ("ended") is what
// the process' own 10 ms figure grew by beyond its live threads' 10 ms
// figures, and is counted only when some thread did end (else it is
// /proc's rounding, up to 10 ms per thread). Where the kernel has no
// schedstat, the 10 ms figures are used throughout.
func (s cpuSnap) since(ctx context.Context) cpuSplit {
	now := snapCPU(ctx)
	c := cpuSplit{byRole: map[string]time.Duration{}, ticks: now.all - s.all, rest: max(now.rest-s.rest, 0)}
	exact := true
	var liveTicks time.Duration
	for k, v := range now.threads {
		b := s.threads[k]
		liveTicks += v.ticks - b.ticks
		d := v.exec - b.exec
		if !v.ok || (b.role != "" && !b.ok) {
			exact = false
		}
		c.byRole[v.role] += d
		c.all += d
	}
	ended := false
	for k := range s.threads {
		if _, ok := now.threads[k]; !ok {
			ended = true
		}
	}
	if !exact {
		c.byRole = map[string]time.Duration{}
		for k, v := range now.threads {
			c.byRole[v.role] += v.ticks - s.threads[k].ticks
		}
		c.all = c.ticks
		return c
	}
	if lost := c.ticks - liveTicks; ended && lost > 0 {
		c.byRole["ended"] += lost
		c.all += lost
	}
	return c
}

// String is the split as the benchmark logs it: "page 31ms, worker
// 160ms, ..." (roles that spent nothing left out), then the browser's
// other processes, which the total leaves out.
func (c cpuSplit) String() string {
	var parts []string
	for _, r := range roles {
		if v := c.byRole[r]; v > 0 {
			parts = append(parts, fmt.Sprintf("%s %v", r, v.Round(100*time.Microsecond)))
		}
	}
	return strings.Join(parts, ", ") + fmt.Sprintf("; not counted: the browser's other processes %v", c.rest)
}

// selfCPU is this process' CPU time (user+system) so far.
func selfCPU(t testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestProcStat reads this process' own /proc stat as the suite
// benchmark reads the browser's renderers: its parent, its name, and a
// CPU time that grows as it works; and this thread's schedstat.
func TestProcStat(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system: the suite benchmark's CPU times need Linux's /proc")
	}
	ppid, comm, before, ok := procStat("/proc/self/stat")
	if !ok || ppid != os.Getppid() || comm == "" {
		t.Fatalf("procStat(/proc/self/stat) = %d, %q, %v, %v; want parent %d and a name", ppid, comm, before, ok, os.Getppid())
	}
	for start := selfCPU(t); selfCPU(t)-start < 30*time.Millisecond; {
	}
	if _, _, after, _ := procStat("/proc/self/stat"); after <= before {
		t.Errorf("CPU time %v after 30 ms of work, %v before", after, before)
	}
	if _, _, _, ok := procStat("/proc/self/no-such-file"); ok {
		t.Error("procStat of a missing file says ok")
	}

	// This thread's run time from its schedstat, as the benchmark reads
	// each renderer thread's: it grows as the thread works.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	path := fmt.Sprintf("/proc/self/task/%d/schedstat", syscall.Gettid())
	ran, ok := schedRun(path)
	if !ok {
		t.Logf("no %s on this kernel: the suite benchmark falls back to /proc's 10 ms steps", path)
		return
	}
	for start := selfCPU(t); selfCPU(t)-start < 30*time.Millisecond; {
	}
	if now, _ := schedRun(path); now <= ran {
		t.Errorf("run time %v after 30 ms of work, %v before", now, ran)
	}
	if _, ok := schedRun("/proc/self/no-such-file"); ok {
		t.Error("schedRun of a missing file says ok")
	}
}

// TestRole names Chromium's renderer threads by what they do.
func TestRole(t *testing.T) {
	for _, c := range []struct {
		main bool
		comm string
		want string
	}{
		{true, "chromium", "page"},
		{false, "DedicatedWorker", "worker"},
		{false, "ThreadPoolForeg", "compile"},
		{false, "Compositor", "compositor"},
		{false, "Chrome_ChildIOT", "io"},
		{false, "ThreadPoolServi", "other"},
		{false, "chromium", "other"},
	} {
		if got := role(c.main, c.comm); got != c.want {
			t.Errorf("role(%v, %q) = %q, want %q", c.main, c.comm, got, c.want)
		}
	}
}
