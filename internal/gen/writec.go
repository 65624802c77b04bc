package gen

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// cOrders are the memory orders of the C annotations.
var cOrders = map[string]string{
	"Rlx": "memory_order_relaxed", "Acq": "memory_order_acquire", "Rel": "memory_order_release",
	"AR": "memory_order_acq_rel", "Sc": "memory_order_seq_cst", "Con": "memory_order_consume",
}

// cAtomic tells whether an annotation makes a C access atomic ("" and P
// are plain).
func cAtomic(ann string) bool { return ann != "" && ann != "P" }

// writeC prints the test as a C litmus test, as diy7 writes one: each
// thread a function of the locations it accesses (atomic_int* for a
// location accessed atomically, volatile int* otherwise), atomic accesses
// atomic_load_explicit / atomic_store_explicit (atomic_load and
// atomic_store for seq_cst), plain ones *x, fences
// atomic_thread_fence; an address dependency adds (r & 128) to the
// address, a data dependency to the value, a control dependency puts the
// rest of the thread under if (r == v). C has no optimised conditions in
// diy: every read is in the condition.
func (t *Test) writeC(w io.Writer, name string) error {
	atomic := map[int]bool{} // one type per location: Build checks it
	for _, ev := range t.Events {
		atomic[ev.Loc] = cAtomic(ev.Ann)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "C %s\n", name)
	fmt.Fprintf(&b, "\"%s\"\n", t.Cycle())
	fmt.Fprintf(&b, "Cycle=%s\n", joinEdges(t.Edges))
	fmt.Fprintf(&b, "Generator=musket gen\n")
	fmt.Fprintf(&b, "Prefetch=%s\n", t.Prefetch())
	fmt.Fprintf(&b, "Com=%s\n", t.Com())
	fmt.Fprintf(&b, "Orig=%s\n\n{}\n", t.Cycle())
	var cond []string
	for id, th := range t.cThreads(c11Dialect{}, &cond) {
		var ls []int
		for l := range th.locs {
			ls = append(ls, l)
		}
		// diy lists them from the last name in alphabetical order: z, y,
		// x, b, a.
		sort.Slice(ls, func(i, j int) bool { return LocName(ls[i]) > LocName(ls[j]) })
		var args []string
		for _, l := range ls {
			if atomic[l] {
				args = append(args, "atomic_int* "+LocName(l))
			} else {
				args = append(args, "volatile int* "+LocName(l))
			}
		}
		fmt.Fprintf(&b, "\nP%d (%s) {\n%s\n}\n", id, strings.Join(args, ","), strings.Join(th.body, "\n"))
	}
	// The observer threads (-obs accept, force), after the cycle's:
	// relaxed loads of an atomic location (BuildObs refuses a plain
	// one), which coherence orders as the writes (CoRR).
	for k, th := range t.cObsThreads(c11Dialect{}, &cond) {
		fmt.Fprintf(&b, "\nP%d (atomic_int* %s) {\n%s\n}\n", len(t.Threads)+k, LocName(t.ObsThreads[k].Loc), strings.Join(th.body, "\n"))
	}
	for _, l := range t.finalLocs() {
		cond = append(cond, fmt.Sprintf("%s=%d", LocName(l), t.Final[l]))
	}
	fmt.Fprintf(&b, "\nexists (%s)\n", strings.Join(cond, ` /\ `))
	_, err := io.WriteString(w, b.String())
	return err
}

// c11Dialect writes C11's atomics: atomic_load_explicit /
// atomic_store_explicit (atomic_load and atomic_store for seq_cst),
// plain accesses *x, fences atomic_thread_fence, diy's C Rmw an atomic
// exchange whose result is the read's value; an observer is a relaxed
// load of an atomic location (Build refuses one of a plain location, a
// data race).
type c11Dialect struct{}

func (c11Dialect) indent() string { return "  " }

func (c11Dialect) fence(f string) string {
	return fmt.Sprintf("atomic_thread_fence(%s);", cOrders[strings.TrimPrefix(f, "Fence")])
}

func (c11Dialect) store(ev Event, loc, addr, val string) string {
	switch {
	case !cAtomic(ev.Ann) && addr == loc:
		return fmt.Sprintf("*%s = %s;", loc, val)
	case !cAtomic(ev.Ann):
		return fmt.Sprintf("*(%s) = %s;", addr, val)
	case ev.Ann == "Sc":
		return fmt.Sprintf("atomic_store(%s,%s);", addr, val)
	}
	return fmt.Sprintf("atomic_store_explicit(%s,%s,%s);", addr, val, cOrders[ev.Ann])
}

func (c11Dialect) load(ev Event, loc, addr string, rmw bool, w int) string {
	switch {
	case rmw && ev.Ann == "Sc":
		return fmt.Sprintf("atomic_exchange(%s,%d)", addr, w)
	case rmw:
		return fmt.Sprintf("atomic_exchange_explicit(%s,%d,%s)", addr, w, cOrders[ev.Ann])
	case !cAtomic(ev.Ann) && addr == loc:
		return "*" + loc
	case !cAtomic(ev.Ann):
		return "*(" + addr + ")"
	case ev.Ann == "Sc":
		return fmt.Sprintf("atomic_load(%s)", addr)
	}
	return fmt.Sprintf("atomic_load_explicit(%s,%s)", addr, cOrders[ev.Ann])
}

func (c11Dialect) obsFence() string { return "atomic_thread_fence(memory_order_seq_cst);" }

func (c11Dialect) obsLoad(loc string) string {
	return fmt.Sprintf("atomic_load_explicit(%s,memory_order_relaxed)", loc)
}
