package gen

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// The Linux kernel's memory model (LKMM: Alglave, Maranget, McKenney,
// Parri and Stern, "Frightening Small Children and Disconcerting
// Grown-ups: Concurrency in the Linux Kernel", ASPLOS 2018) as diy7
// names its accesses when it generates from the kernel's bell file (diy7
// -arch LISA): each access carries one of the kernel's kinds, and the
// test is written in C with the kernel's primitives, as the kernel's
// litmus tests are:
//
//	annotation  read                    write                        read-modify-write
//	Once        READ_ONCE(*x)           WRITE_ONCE(*x, v)            xchg_relaxed(x, v)
//	Acquire     smp_load_acquire(x)     -                            xchg_acquire(x, v)
//	Release     -                       smp_store_release(x, v)      xchg_release(x, v)
//	Mb          -                       -                            xchg(x, v)
//
// An edge carries the kinds of its two accesses (PodRWAcquireOnce,
// RfeReleaseAcquire); one without them (PodRW, Rfe) makes Once
// accesses. The fences are FenceMb (smp_mb()), FenceWmb (smp_wmb()) and
// FenceRmb (smp_rmb()): FenceMbdWROnceOnce. A read-modify-write (Rmw)
// gives its kind twice, as the kernel's primitive tags both its events
// (RmwOnceOnce, RmwAcquireAcquire, RmwReleaseRelease, RmwMbMb). The
// dependencies are Addr (the address plus (r & 128), which is 0 for the
// test's values), Data (the value plus (r & 128)) and Ctrl (the rest of
// the thread under if (r == v)). Names are herd's with diy's "C-" prefix
// and the kinds in lower case: C-MP+poonceonce+poacquireonce,
// C-IRIW+fencembonceonce+poonceacquire+OnceRelease.

// lkmmKinds are the annotations of LKMM accesses, as edges write them.
var lkmmKinds = []string{"Once", "Acquire", "Release", "Mb"}

// lkmmRmw are the kernel's exchanges for each kind.
var lkmmRmw = map[string]string{"Once": "xchg_relaxed", "Acquire": "xchg_acquire", "Release": "xchg_release", "Mb": "xchg"}

// lkmmFences are the kernel's fences for the fences of the notation.
var lkmmFences = map[string]string{"FenceMb": "smp_mb", "FenceWmb": "smp_wmb", "FenceRmb": "smp_rmb"}

// checkLKMM checks the kinds of an LKMM edge's accesses: acquire reads,
// release writes, Mb only on a read-modify-write, whose two kinds are
// one.
func checkLKMM(e Edge) error {
	if e.Kind == Rmw {
		if e.SrcAnn != e.DstAnn {
			return fmt.Errorf("a read-modify-write is one kernel exchange: give its kind twice (RmwOnceOnce, RmwAcquireAcquire, RmwReleaseRelease, RmwMbMb)")
		}
		return nil
	}
	for _, x := range []struct {
		d   Dir
		ann string
	}{{e.Src, e.SrcAnn}, {e.Dst, e.DstAnn}} {
		switch {
		case x.ann == "Acquire" && x.d != 'R':
			return fmt.Errorf("Acquire (smp_load_acquire) is for reads, here on a write")
		case x.ann == "Release" && x.d != 'W':
			return fmt.Errorf("Release (smp_store_release) is for writes, here on a read")
		case x.ann == "Mb":
			return fmt.Errorf("Mb is the kind of a read-modify-write (RmwMbMb: xchg), not of a single access")
		}
	}
	return nil
}

// writeLKMM prints the test as a C litmus test of the Linux kernel:
// each thread a function of pointers to the locations it accesses
// (int *x), its accesses and fences the kernel's primitives.
func (t *Test) writeLKMM(w io.Writer, name string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "C %s\n", name)
	fmt.Fprintf(&b, "\"%s\"\n", t.Cycle())
	fmt.Fprintf(&b, "Cycle=%s\n", t.Rotated())
	fmt.Fprintf(&b, "Generator=musket gen\n")
	fmt.Fprintf(&b, "Prefetch=%s\n", t.Prefetch())
	fmt.Fprintf(&b, "Com=%s\n", t.Com())
	fmt.Fprintf(&b, "Orig=%s\n\n{}\n", t.Cycle())
	var cond []string
	for _, l := range t.finalLocs() {
		cond = append(cond, fmt.Sprintf("%s=%d", LocName(l), t.Final[l]))
	}
	emit := func(id int, th cThread) {
		var ls []string
		for l := range th.locs {
			ls = append(ls, "int *"+LocName(l))
		}
		sort.Strings(ls)
		fmt.Fprintf(&b, "\nP%d(%s)\n{\n%s\n}\n", id, strings.Join(ls, ", "), strings.Join(th.body, "\n"))
	}
	for id, th := range t.cThreads(lkmmDialect{}, &cond) {
		emit(id, th)
	}
	for k, th := range t.cObsThreads(lkmmDialect{}, &cond) {
		emit(len(t.Threads)+k, th)
	}
	fmt.Fprintf(&b, "\nexists (%s)\n", strings.Join(cond, ` /\ `))
	_, err := io.WriteString(w, b.String())
	return err
}

// paren puts an address with arithmetic in parentheses for a *.
func paren(addr string) string {
	if strings.ContainsRune(addr, ' ') {
		return "(" + addr + ")"
	}
	return addr
}

// lkmmDialect writes the Linux kernel's primitives: READ_ONCE and
// WRITE_ONCE for Once (and unannotated) accesses, smp_load_acquire,
// smp_store_release, the xchg family for Rmw, smp_mb/wmb/rmb for fences;
// an observer is a READ_ONCE.
type lkmmDialect struct{}

func (lkmmDialect) indent() string { return "\t" }

func (lkmmDialect) fence(f string) string { return lkmmFences[f] + "();" }

func (lkmmDialect) store(ev Event, loc, addr, val string) string {
	if ev.Ann == "Release" {
		return fmt.Sprintf("smp_store_release(%s, %s);", addr, val)
	}
	return fmt.Sprintf("WRITE_ONCE(*%s, %s);", paren(addr), val)
}

func (lkmmDialect) load(ev Event, loc, addr string, rmw bool, w int) string {
	ann := ev.Ann
	if ann == "" {
		ann = "Once"
	}
	switch {
	case rmw:
		return fmt.Sprintf("%s(%s, %d)", lkmmRmw[ann], addr, w)
	case ann == "Acquire":
		return fmt.Sprintf("smp_load_acquire(%s)", addr)
	}
	return fmt.Sprintf("READ_ONCE(*%s)", paren(addr))
}

func (lkmmDialect) obsFence() string { return "smp_mb();" }

func (lkmmDialect) obsLoad(loc string) string { return fmt.Sprintf("READ_ONCE(*%s)", loc) }
