package gen

import (
	"fmt"
	"strings"
)

// cDialect is what differs between the two C dialects gen writes: C11's
// atomics (writeC) and the Linux kernel's primitives (writeLKMM). The
// shape of a thread's body — dependencies, control-dependent blocks,
// registers, the condition on each read, local observers — is theirs in
// common (cThreads).
type cDialect interface {
	// indent is one level of indentation.
	indent() string
	// fence is the statement of a Fence edge (without indentation).
	fence(f string) string
	// store is the statement writing val at addr (loc when no address
	// dependency is added).
	store(ev Event, loc, addr, val string) string
	// load is the expression reading addr; w is the value written when
	// the read is that of an exchange (rmw).
	load(ev Event, loc, addr string, rmw bool, w int) string
	// obsFence and obsLoad are an observer's fence and its load of loc.
	obsFence() string
	obsLoad(loc string) string
}

// cThread is the body of one thread and the locations it accesses.
type cThread struct {
	body []string
	locs map[int]bool
}

// cThreads writes the body of each thread of the cycle in dialect d, its
// local observers at its end, and appends the condition on each read to
// cond: an address dependency adds (r & 128) to the address, a data
// dependency to the value, a control dependency puts the rest of the
// thread under if (r == v).
func (t *Test) cThreads(d cDialect, cond *[]string) []cThread {
	var out []cThread
	for id, evs := range t.Threads {
		regOf := map[int]string{}
		next := 0
		newReg := func() string { next++; return fmt.Sprintf("r%d", next-1) }
		var body []string
		indent := d.indent()
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
					body = append(body, indent+d.fence(in.Fence))
				case Dep:
					dep := regOf[i-1]
					switch in.Dep {
					case "Addr":
						addr = fmt.Sprintf("%s + (%s & 128)", loc, dep)
					case "Data":
						val = fmt.Sprintf("%d + (%s & 128)", ev.Val, dep)
					case "Ctrl":
						body = append(body, indent+fmt.Sprintf("if (%s == %d) {", dep, max(t.Events[i-1].Val, 0)))
						indent += d.indent()
						depth++
					}
				}
			}
			if ev.Dir == 'W' {
				body = append(body, indent+d.store(ev, loc, addr, val))
				continue
			}
			r := newReg()
			regOf[i] = r
			rmw := k+1 < len(evs) && t.Edges[i].Kind == Rmw
			w := 0
			if rmw {
				w = t.Events[i+1].Val
			}
			body = append(body, indent+fmt.Sprintf("int %s = %s;", r, d.load(ev, loc, addr, rmw, w)))
			*cond = append(*cond, fmt.Sprintf("%d:%s=%d", id, r, max(ev.Val, 0)))
		}
		for ; depth > 0; depth-- {
			indent = strings.TrimPrefix(indent, d.indent())
			body = append(body, indent+"}")
		}
		for _, o := range t.Obs {
			if o.Thread != id {
				continue
			}
			locs[o.Loc] = true
			r := newReg()
			if o.Fenced {
				body = append(body, indent+d.obsFence())
			}
			body = append(body, indent+fmt.Sprintf("int %s = %s;", r, d.obsLoad(LocName(o.Loc))))
			*cond = append(*cond, fmt.Sprintf("%d:%s=%d", id, r, o.Val))
		}
		out = append(out, cThread{body: body, locs: locs})
	}
	return out
}

// cObsThreads writes the observer threads (-obs accept, force), which
// come after the cycle's, and appends their conditions to cond.
func (t *Test) cObsThreads(d cDialect, cond *[]string) []cThread {
	var out []cThread
	for k, o := range t.ObsThreads {
		id := len(t.Threads) + k
		var body []string
		for j, v := range o.Vals {
			if j > 0 && o.Fenced {
				body = append(body, d.indent()+d.obsFence())
			}
			body = append(body, d.indent()+fmt.Sprintf("int r%d = %s;", j, d.obsLoad(LocName(o.Loc))))
			*cond = append(*cond, fmt.Sprintf("%d:r%d=%d", id, j, v))
		}
		out = append(out, cThread{body: body, locs: map[int]bool{o.Loc: true}})
	}
	return out
}
