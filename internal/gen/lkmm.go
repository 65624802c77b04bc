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
	emit := func(id int, locs map[int]bool, body []string) {
		var ls []string
		for l := range locs {
			ls = append(ls, "int *"+LocName(l))
		}
		sort.Strings(ls)
		fmt.Fprintf(&b, "\nP%d(%s)\n{\n%s\n}\n", id, strings.Join(ls, ", "), strings.Join(body, "\n"))
	}
	for id, evs := range t.Threads {
		regOf := map[int]string{}
		next := 0
		newReg := func() string { next++; return fmt.Sprintf("r%d", next-1) }
		var body []string
		indent := "\t"
		depth := 0
		locs := map[int]bool{}
		for k, i := range evs {
			ev := t.Events[i]
			if k > 0 && t.Edges[i-1].Kind == Rmw {
				continue // the write of an exchange, written with its read
			}
			locs[ev.Loc] = true
			loc := LocName(ev.Loc)
			addr, val := loc, fmt.Sprint(ev.Val)
			if k > 0 {
				in := t.Edges[i-1]
				switch in.Kind {
				case Fence:
					body = append(body, indent+lkmmFences[in.Fence]+"();")
				case Dep:
					dep := regOf[i-1]
					switch in.Dep {
					case "Addr":
						addr = fmt.Sprintf("%s + (%s & 128)", loc, dep)
					case "Data":
						val = fmt.Sprintf("%d + (%s & 128)", ev.Val, dep)
					case "Ctrl":
						body = append(body, indent+fmt.Sprintf("if (%s == %d) {", dep, max(t.Events[i-1].Val, 0)))
						indent += "\t"
						depth++
					}
				}
			}
			ann := ev.Ann
			if ann == "" {
				ann = "Once"
			}
			if ev.Dir == 'W' {
				if ann == "Release" {
					body = append(body, indent+fmt.Sprintf("smp_store_release(%s, %s);", addr, val))
				} else {
					body = append(body, indent+fmt.Sprintf("WRITE_ONCE(*%s, %s);", paren(addr), val))
				}
				continue
			}
			r := newReg()
			regOf[i] = r
			var e string
			switch {
			case k+1 < len(evs) && t.Edges[i].Kind == Rmw:
				e = fmt.Sprintf("%s(%s, %d)", lkmmRmw[ann], addr, t.Events[i+1].Val)
			case ann == "Acquire":
				e = fmt.Sprintf("smp_load_acquire(%s)", addr)
			default:
				e = fmt.Sprintf("READ_ONCE(*%s)", paren(addr))
			}
			body = append(body, indent+fmt.Sprintf("int %s = %s;", r, e))
			cond = append(cond, fmt.Sprintf("%d:%s=%d", id, r, max(ev.Val, 0)))
		}
		for ; depth > 0; depth-- {
			indent = indent[1:]
			body = append(body, indent+"}")
		}
		for _, o := range t.Obs {
			if o.Thread != id {
				continue
			}
			locs[o.Loc] = true
			r := newReg()
			if o.Fenced {
				body = append(body, indent+"smp_mb();")
			}
			body = append(body, indent+fmt.Sprintf("int %s = READ_ONCE(*%s);", r, LocName(o.Loc)))
			cond = append(cond, fmt.Sprintf("%d:%s=%d", id, r, o.Val))
		}
		emit(id, locs, body)
	}
	for k, o := range t.ObsThreads {
		// The observer threads (-obs accept, force), after the cycle's.
		id := len(t.Threads) + k
		var body []string
		for j, v := range o.Vals {
			if j > 0 && o.Fenced {
				body = append(body, "\tsmp_mb();")
			}
			body = append(body, fmt.Sprintf("\tint r%d = READ_ONCE(*%s);", j, LocName(o.Loc)))
			cond = append(cond, fmt.Sprintf("%d:r%d=%d", id, j, v))
		}
		emit(id, map[int]bool{o.Loc: true}, body)
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
