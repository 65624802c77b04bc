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
	for id, evs := range t.Threads {
		regOf := map[int]string{}
		next := 0
		var body []string
		indent := "  "
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
					order := cOrders[strings.TrimPrefix(in.Fence, "Fence")]
					body = append(body, indent+fmt.Sprintf("atomic_thread_fence(%s);", order))
				case Dep:
					dep := regOf[i-1]
					switch in.Dep {
					case "Addr":
						addr = fmt.Sprintf("%s + (%s & 128)", loc, dep)
					case "Data":
						val = fmt.Sprintf("%d + (%s & 128)", ev.Val, dep)
					case "Ctrl":
						body = append(body, indent+fmt.Sprintf("if (%s == %d) {", dep, max(t.Events[i-1].Val, 0)))
						indent += "  "
						depth++
					}
				}
			}
			if ev.Dir == 'W' {
				switch {
				case !cAtomic(ev.Ann) && addr == loc:
					body = append(body, indent+fmt.Sprintf("*%s = %s;", loc, val))
				case !cAtomic(ev.Ann):
					body = append(body, indent+fmt.Sprintf("*(%s) = %s;", addr, val))
				case ev.Ann == "Sc":
					body = append(body, indent+fmt.Sprintf("atomic_store(%s,%s);", addr, val))
				default:
					body = append(body, indent+fmt.Sprintf("atomic_store_explicit(%s,%s,%s);", addr, val, cOrders[ev.Ann]))
				}
				continue
			}
			r := fmt.Sprintf("r%d", next)
			next++
			regOf[i] = r
			var e string
			switch {
			case k+1 < len(evs) && t.Edges[i].Kind == Rmw:
				// diy's C Rmw: an atomic exchange whose result is the
				// read's value.
				w := fmt.Sprint(t.Events[i+1].Val)
				if ev.Ann == "Sc" {
					e = fmt.Sprintf("atomic_exchange(%s,%s)", addr, w)
				} else {
					e = fmt.Sprintf("atomic_exchange_explicit(%s,%s,%s)", addr, w, cOrders[ev.Ann])
				}
			case !cAtomic(ev.Ann) && addr == loc:
				e = "*" + loc
			case !cAtomic(ev.Ann):
				e = "*(" + addr + ")"
			case ev.Ann == "Sc":
				e = fmt.Sprintf("atomic_load(%s)", addr)
			default:
				e = fmt.Sprintf("atomic_load_explicit(%s,%s)", addr, cOrders[ev.Ann])
			}
			body = append(body, indent+fmt.Sprintf("int %s = %s;", r, e))
			cond = append(cond, fmt.Sprintf("%d:%s=%d", id, r, max(ev.Val, 0)))
		}
		for ; depth > 0; depth-- {
			indent = indent[2:]
			body = append(body, indent+"}")
		}
		for _, o := range t.Obs {
			// An observer: a relaxed load of an atomic location (Build
			// refuses one of a plain location, a data race).
			if o.Thread != id {
				continue
			}
			locs[o.Loc] = true
			r := fmt.Sprintf("r%d", next)
			next++
			if o.Fenced {
				body = append(body, indent+"atomic_thread_fence(memory_order_seq_cst);")
			}
			body = append(body, indent+fmt.Sprintf("int %s = atomic_load_explicit(%s,memory_order_relaxed);", r, LocName(o.Loc)))
			cond = append(cond, fmt.Sprintf("%d:%s=%d", id, r, o.Val))
		}
		var ls []int
		for l := range locs {
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
		fmt.Fprintf(&b, "\nP%d (%s) {\n%s\n}\n", id, strings.Join(args, ","), strings.Join(body, "\n"))
	}
	for k, o := range t.ObsThreads {
		// The observer threads (-obs accept, force), after the cycle's:
		// relaxed loads of an atomic location (BuildObs refuses a
		// plain one), which coherence orders as the writes (CoRR).
		id := len(t.Threads) + k
		var body []string
		for j, v := range o.Vals {
			if j > 0 && o.Fenced {
				body = append(body, "  atomic_thread_fence(memory_order_seq_cst);")
			}
			body = append(body, fmt.Sprintf("  int r%d = atomic_load_explicit(%s,memory_order_relaxed);", j, LocName(o.Loc)))
			cond = append(cond, fmt.Sprintf("%d:r%d=%d", id, j, v))
		}
		fmt.Fprintf(&b, "\nP%d (atomic_int* %s) {\n%s\n}\n", id, LocName(o.Loc), strings.Join(body, "\n"))
	}
	for _, l := range t.finalLocs() {
		cond = append(cond, fmt.Sprintf("%s=%d", LocName(l), t.Final[l]))
	}
	fmt.Fprintf(&b, "\nexists (%s)\n", strings.Join(cond, ` /\ `))
	_, err := io.WriteString(w, b.String())
	return err
}
