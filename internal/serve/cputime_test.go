package serve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return nil
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
	var out []int
	for todo := []int{root}; len(todo) > 0; {
		pid := todo[0]
		todo = append(todo[1:], children[pid]...)
		if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && strings.Contains(string(cmd), "--type=renderer") {
			out = append(out, pid)
		}
	}
	return out
}

// cpuSnap is the CPU time of the browser's renderers at one moment:
// in all (every thread, those ended too) and per live thread.
type cpuSnap struct {
	all     time.Duration
	threads map[string]time.Duration // "pid/tid name" -> CPU time
}

func snapCPU(ctx context.Context) cpuSnap {
	s := cpuSnap{threads: map[string]time.Duration{}}
	for _, pid := range renderers(ctx) {
		dir := fmt.Sprintf("/proc/%d", pid)
		if _, _, cpu, ok := procStat(dir + "/stat"); ok {
			s.all += cpu
		}
		tasks, _ := os.ReadDir(dir + "/task")
		for _, t := range tasks {
			if _, comm, cpu, ok := procStat(filepath.Join(dir, "task", t.Name(), "stat")); ok {
				s.threads[fmt.Sprintf("%d/%s %s", pid, t.Name(), comm)] = cpu
			}
		}
	}
	return s
}

// since says what the renderers spent since s: in all, and by kind of
// thread (the name's first word: DedicatedWorker for the page's
// workers, ThreadPoolForeg for V8's background compiles, ...).
func (s cpuSnap) since(ctx context.Context) (time.Duration, string) {
	now := snapCPU(ctx)
	by := map[string]time.Duration{}
	for k, v := range now.threads {
		name := strings.Fields(k[strings.IndexByte(k, ' ')+1:] + " ?")[0]
		by[name] += v - s.threads[k]
	}
	var parts []string
	for k, v := range by {
		if v > 0 {
			parts = append(parts, fmt.Sprintf("%s %v", k, v))
		}
	}
	sort.Strings(parts)
	return now.all - s.all, strings.Join(parts, ", ")
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
// CPU time that grows as it works.
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
}
