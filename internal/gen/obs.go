package gen

import (
	"fmt"
	"sort"
	"strings"
)

// Obs is diy7's management of observers, its -obs and -obstype options
// (described in the diy7 documentation, "Identifying coherence orders
// with observers"). A test pins the coherence order of each location it
// writes twice or more; Mode says how:
//
//   - "" (Musket's own, the default): the final value of the location,
//     and, where three writes or more are not ordered by the cycle's own
//     values, a load at the end of the thread of the earlier write that
//     must return the later one;
//   - "avoid": the final value only; a cycle that needs more is refused
//     (ErrUnsupported);
//   - "accept": the final value for two writes; for three or more, an
//     observer thread that reads the location once per write, in
//     coherence order, in place of the final value;
//   - "force": an observer thread for two writes or more;
//   - "local": no final value; each pair of writes consecutive in
//     coherence that are in two threads gets a load at the end of the
//     thread of the earlier one that must return the later one.
//
// Type is how an observer reads: "fenced" (the default: the
// architecture's strongest fence between the reads of an observer
// thread, and before a local observer) or "straight" (no fence). diy's
// "loop" type polls the location in a bounded loop; it is not written.
//
// The fence before a fenced local load also orders the thread's earlier
// accesses before it, so such a test may forbid an outcome the cycle
// allows (PPC, PodWW Wse Wsi SyncdWW Wse: allowed without -obs, forbidden
// with -obs local -obstype fenced), as the diy7 documentation warns of
// local observers ("some care must be exercised"); it never allows more.
// TestObsVerdicts counts these.
//
// An observer thread that reads 1, 2, ..., n (the writes' values) orders
// the writes in coherence as the final value and the loads of the
// default do: coherence of reads in one thread (CoRR) is kept by every
// architecture gen writes.
type Obs struct{ Mode, Type string }

// ObsModes and ObsTypes are the values -obs and -obstype take.
var (
	ObsModes = []string{"accept", "avoid", "force", "local"}
	ObsTypes = []string{"fenced", "straight", "loop"}
)

// ObsThread is an observer thread: it reads Loc once for each value of
// Vals, in order, with the strongest fence between two reads when
// Fenced.
type ObsThread struct {
	Loc    int
	Vals   []int
	Fenced bool
}

// ParseObs checks the values of -obs and -obstype; mode "" is Musket's
// own observers (see Obs) and typ "" is "fenced".
func ParseObs(mode, typ string) (Obs, error) {
	if mode != "" && !contains(ObsModes, mode) {
		return Obs{}, fmt.Errorf("-obs %q: unknown mode; want %s", mode, strings.Join(ObsModes, ", "))
	}
	if typ == "" {
		typ = "fenced"
	}
	if !contains(ObsTypes, typ) {
		return Obs{}, fmt.Errorf("-obstype %q: unknown observer type; want %s", typ, strings.Join(ObsTypes, ", "))
	}
	if typ == "loop" {
		return Obs{}, fmt.Errorf("-obstype loop: polling observers are not written (a loop of up to 200 reads per observer); use fenced or straight")
	}
	return Obs{Mode: mode, Type: typ}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// own tells whether the mode pins coherence its own way (observe) rather
// than as the default does (coherencePinned).
func (o Obs) own() bool { return o.Mode == "accept" || o.Mode == "force" || o.Mode == "local" }

// observe applies the -obs mode once the values are set.
func (t *Test) observe() error {
	switch {
	case t.obs.Mode == "avoid":
		if len(t.Obs) > 0 {
			return &ErrUnsupported{fmt.Sprintf("-obs avoid: the coherence order of %s needs an observer", LocName(t.Obs[0].Loc))}
		}
		return nil
	case !t.obs.own():
		return nil
	}
	fenced := t.obs.Type != "straight"
	ws := make([][]int, t.Locs) // location -> its writes, in coherence order
	for i, ev := range t.Events {
		if ev.Dir == 'W' {
			ws[ev.Loc] = append(ws[ev.Loc], i)
		}
	}
	for l, w := range ws {
		n := len(w)
		if n < 2 || (t.obs.Mode == "accept" && n < 3) {
			continue
		}
		byVal := make([]int, n+1)
		for _, i := range w {
			byVal[t.Events[i].Val] = i
		}
		if t.obs.Mode != "local" {
			vals := make([]int, n)
			for v := range vals {
				vals[v] = v + 1
			}
			delete(t.Final, l)
			t.ObsThreads = append(t.ObsThreads, ObsThread{Loc: l, Vals: vals, Fenced: fenced})
			continue
		}
		var obs []Observer
		for v := 1; v < n; v++ {
			a, b := byVal[v], byVal[v+1]
			switch {
			case t.Events[a].Thread == t.Events[b].Thread && a < b:
				// Program order orders them (CoWW).
			case t.observable(a, v):
				obs = append(obs, Observer{Thread: t.Events[a].Thread, Loc: l, Val: v + 1, Fenced: fenced})
			case t.readsOrder(a, b, v):
			default:
				return &ErrUnsupported{fmt.Sprintf("-obs local: no load at the end of a thread can order the %s and %s writes of %s", ordinal(v), ordinal(v+1), LocName(l))}
			}
		}
		delete(t.Final, l)
		t.Obs = append(t.Obs, obs...)
	}
	// The condition lists the local observers by thread.
	sort.SliceStable(t.Obs, func(i, j int) bool { return t.Obs[i].Thread < t.Obs[j].Thread })
	if t.Arch.Name == "C" {
		// A C observer thread reads with relaxed atomic loads, which
		// keep coherence (CoRR); a plain location's would race.
		for _, o := range t.ObsThreads {
			for _, ev := range t.Events {
				if ev.Loc == o.Loc && !cAtomic(ev.Ann) {
					return &ErrUnsupported{fmt.Sprintf("-obs %s: an observer thread of the plain (non-atomic) location %s would race with its writes", t.obs.Mode, LocName(o.Loc))}
				}
			}
		}
	}
	for _, ev := range t.Events {
		if ev.Mix.Size != 0 && (len(t.ObsThreads) > 0 || len(t.Obs) > 0) {
			return errMixedObserver(t)
		}
	}
	return nil
}

// errMixedObserver is why a mixed-size test with an observer is refused.
// A load of a mixed-size location after a write returns the bytes of
// several writes (of other sizes and offsets), not that write's value,
// and writes to disjoint bytes are not ordered by coherence at all: an
// observer that asks the location's value after each write orders more
// than the cycle does (a verdict could change), and one that asks each
// write's value alone, as diy's do, asks what no coherent execution
// gives (TestCorpusCycleLines counts 230 such corpus tests).
func errMixedObserver(t *Test) error {
	loc := 0
	for _, o := range t.Obs {
		loc = o.Loc
	}
	for _, o := range t.ObsThreads {
		loc = o.Loc
	}
	return &ErrUnsupported{fmt.Sprintf("the coherence order of the mixed-size location %s needs an observer, which is not written: "+
		"a load of %s returns bytes of several writes, not one write's value, so no observer's value pins that order without asking more than the cycle", LocName(loc), LocName(loc))}
}

// readsOrder tells whether the values the condition asks of the reads
// order write a (of value v) before write b (of v+1) in coherence: a read
// of v before b in program order, or a read of v+1 after a.
func (t *Test) readsOrder(a, b, v int) bool {
	po := func(x, y int) bool { return t.Events[x].Thread == t.Events[y].Thread && x < y }
	for r, ev := range t.Events {
		if ev.Dir != 'R' || ev.Loc != t.Events[a].Loc {
			continue
		}
		if (ev.Val == v && po(r, b)) || (ev.Val == v+1 && po(a, r)) {
			return true
		}
	}
	return false
}

// strongFence names the strongest fence of an architecture, as an edge
// names it (the fence of diy's fenced observers).
func strongFence(a *Arch) string {
	switch a.Name {
	case "PPC":
		return "Sync"
	case "AArch64":
		return "DMB.SY"
	case "ARM":
		return "DMB"
	case "RISCV":
		return "Fence.rw.rw"
	case "LKMM":
		return "FenceMb"
	}
	return "MFence"
}
