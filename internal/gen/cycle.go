package gen

import (
	"fmt"
	"sort"
	"strings"
)

// Event is one access of a test: the source of the edge of the same index.
type Event struct {
	Dir    Dir
	Ann    string // "" plain
	Thread int
	Loc    int
	// Val is the value a write stores, or the value a read must return
	// for the cycle to be observed (-1: the cycle does not constrain it).
	Val int
	Mix Mix // the size and offset of a mixed-size access (see Mix)
}

// Test is the test of a cycle: its edges rotated to begin a thread, and
// the accesses they relate.
type Test struct {
	Arch   *Arch
	Orig   []Edge // as given
	Edges  []Edge // Edges[i] goes from Events[i] to Events[i+1 mod n]
	Events []Event
	// Threads lists, for each thread, the indices of its events in
	// program order.
	Threads [][]int
	Locs    int
	// Final gives the final value of the locations written twice or
	// more: the last write in coherence order.
	Final map[int]int
	// Obs lists the observers: loads appended to a thread, after its
	// last access, that pin the coherence order of a location written
	// three times or more where nothing else does (diy adds such loads
	// too).
	Obs      []Observer
	allowObs bool
	// ObsThreads lists the observer threads of -obs accept and force:
	// each is a thread of its own, after the cycle's, that reads one
	// location once per write, in coherence order.
	ObsThreads []ObsThread
	obs        Obs
	// Width is, in a test with mixed-size accesses, the size in bytes of
	// each location (4 or 8); nil otherwise. MVal then holds the value of
	// each access (what a write stores, what a read returns) and MFinal
	// the final value of each written location (see Mix).
	Width  map[int]int
	MVal   []uint64
	MFinal map[int]uint64
}

// Observer is a load of Loc appended to Thread that must return Val: it
// follows the thread's write of Val-1 in program order, so returning Val
// orders the two writes in coherence.
// With Fenced (diy's -obstype fenced with -obs local), the strongest
// fence of the architecture comes before it.
type Observer struct {
	Thread, Loc, Val int
	Fenced           bool
}

// ErrUnsupported marks the cycles the generator declines although they
// are valid, so that an enumeration can count them apart.
type ErrUnsupported struct{ Msg string }

func (e *ErrUnsupported) Error() string { return "unsupported: " + e.Msg }

// Build makes the test of a cycle, or says why the cycle is not one:
// consecutive edges must agree on the direction of the access between
// them (PodWR then Fre), a test needs two threads (two external
// communications) and, when it has several locations, two changes of
// location at least; the values that the communications ask for must
// agree (a read cannot both read from a write and precede it in
// coherence).
func Build(a *Arch, edges []Edge) (*Test, error) { return BuildObs(a, edges, Obs{}) }

// BuildObs is Build with diy's management of observers (-obs, -obstype):
// see Obs.
func BuildObs(a *Arch, edges []Edge, o Obs) (*Test, error) {
	n := len(edges)
	if n < 2 {
		return nil, fmt.Errorf("a cycle has two edges at least")
	}
	for i, e := range edges {
		next := edges[(i+1)%n]
		if e.Dst != next.Src {
			return nil, fmt.Errorf("%s ends on a %s but %s starts from a %s", e.Name, dirWord(e.Dst), next.Name, dirWord(next.Src))
		}
	}
	for i, e := range edges {
		next := edges[(i+1)%n]
		if e.Kind == Rmw && !a.HasRmw() {
			return nil, fmt.Errorf("%s: the generator writes no read-modify-write for %s yet", e.Name, a.Name)
		}
		if e.Kind == Dep && next.Kind == Rmw {
			return nil, &ErrUnsupported{fmt.Sprintf("%s then %s: a dependency into a read-modify-write", e.Name, next.Name)}
		}
	}
	ext, dl := 0, 0
	for _, e := range edges {
		if e.Ext {
			ext++
		}
		if !e.SameLoc {
			dl++
		}
	}
	if ext < 2 {
		return nil, fmt.Errorf("a cycle needs two external communications (Rfe, Fre, Wse) at least, to go through two threads; it has %d", ext)
	}
	if dl == 1 {
		return nil, fmt.Errorf("a cycle that changes location must change it twice at least (it changes once)")
	}
	// Detours: each Leave has its Back later, the threads in between
	// return to the thread that left. The test begins a thread outside
	// every detour: after a plain external edge at the least depth.
	depth, low, detour := 0, 0, false
	for _, e := range edges {
		depth += e.Detour
		low = min(low, depth)
		detour = detour || e.Detour != 0
	}
	if depth != 0 {
		return nil, fmt.Errorf("every Leave edge needs its Back edge (XxLeave ... XxBack)")
	}
	// The first such start from the cycle's first edge, as given.
	at := make([]int, n) // the depth after edge i
	depth = 0
	for i, e := range edges {
		depth += e.Detour
		at[i] = depth
	}
	start := -1
	for k := 0; k < n && start < 0; k++ {
		i := (k + n - 1) % n
		if e := edges[i]; e.Ext && e.Detour == 0 && at[i] == low {
			start = k
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("a cycle with detours needs an external communication outside them")
	}
	t, err := buildAt(a, edges, start, dl, o)
	if err != nil {
		return nil, err
	}
	// Begin with the thread herd's name of the family begins with.
	if fam, r := family(t); fam != "" && r != 0 && !detour {
		return buildAt(a, edges, (start+t.Threads[r][0])%n, dl, o)
	}
	return t, nil
}

// buildAt builds the test of the cycle rotated to begin at edge start
// (the first access of a thread); dl is the number of changes of
// location.
func buildAt(a *Arch, edges []Edge, start, dl int, o Obs) (*Test, error) {
	n := len(edges)
	t := &Test{Arch: a, Orig: edges, Edges: append(append([]Edge(nil), edges[start:]...), edges[:start]...), Final: map[int]int{}, obs: o}
	es := t.Edges
	t.Events = make([]Event, n)
	th, loc, threads := 0, 0, 1
	var left []int // the threads detours left, innermost last
	for i := range es {
		if i > 0 {
			switch prev := es[i-1]; {
			case prev.Detour < 0:
				th, left = left[len(left)-1], left[:len(left)-1]
			case prev.Detour > 0:
				left = append(left, th)
				th, threads = threads, threads+1
			case prev.Ext:
				th, threads = threads, threads+1
			}
			if !es[i-1].SameLoc {
				loc++
			}
		}
		in := es[(i+n-1)%n]
		ann, err := mergeAnn(in.DstAnn, es[i].SrcAnn)
		if err != nil {
			return nil, fmt.Errorf("%s then %s: %v", in.Name, es[i].Name, err)
		}
		mix, err := mergeMix(in.DstMix, es[i].SrcMix)
		if err != nil {
			return nil, fmt.Errorf("%s then %s: %v", in.Name, es[i].Name, err)
		}
		if a.Name == "LKMM" && ann == "" {
			ann = "Once" // the kernel's marked access, READ_ONCE/WRITE_ONCE
		}
		t.Events[i] = Event{Dir: es[i].Src, Ann: ann, Thread: th, Loc: loc, Val: -1, Mix: mix}
	}
	for i, e := range es {
		if strings.HasPrefix(e.Amo, "St") && t.Events[i].Ann != "" {
			return nil, fmt.Errorf("%s: STADD and STEOR have no acquire form", e.Name)
		}
		if e.Kind == Rmw && (isExclusive(t.Events[i].Ann) || isExclusive(t.Events[(i+1)%n].Ann)) {
			return nil, fmt.Errorf("%s: a read-modify-write is exclusive already: X is for the single accesses of other edges", e.Name)
		}
		if e.Kind == Rmw && t.Events[i].Ann == "Q" {
			return nil, fmt.Errorf("%s: a read-modify-write has no acquire-PC (Q) form: LDAXR, SWPA or CASA are acquire (A)", e.Name)
		}
	}
	t.Locs = loc + 1
	if dl > 0 && es[n-1].SameLoc {
		// The events after the last change of location are at the first
		// location.
		for i := range t.Events {
			if t.Events[i].Loc == loc {
				t.Events[i].Loc = 0
			}
		}
		t.Locs = loc
	}
	if a.Name == "C" {
		// A C location has one type, atomic_int or int: diy refuses a
		// cycle that accesses one both ways.
		atomic := map[int]bool{}
		for _, ev := range t.Events {
			if prev, ok := atomic[ev.Loc]; ok && prev != cAtomic(ev.Ann) {
				return nil, fmt.Errorf("location %s is accessed both atomically and not (a C location is atomic_int or int)", LocName(ev.Loc))
			}
			atomic[ev.Loc] = cAtomic(ev.Ann)
		}
	}
	t.Threads = make([][]int, threads)
	for i, ev := range t.Events {
		t.Threads[ev.Thread] = append(t.Threads[ev.Thread], i)
	}
	if err := t.values(dl == 0); err != nil {
		return nil, err
	}
	if err := t.observe(); err != nil {
		return nil, err
	}
	for _, ev := range t.Events {
		if ev.Mix.Size != 0 {
			if err := t.mixValues(); err != nil {
				return nil, err
			}
			break
		}
	}
	for _, o := range t.Obs {
		for _, ev := range t.Events {
			if a.Name == "C" && ev.Loc == o.Loc && !cAtomic(ev.Ann) {
				return nil, &ErrUnsupported{fmt.Sprintf("the coherence order of the plain location %s needs an observer load, which would race", LocName(o.Loc))}
			}
		}
	}
	return t, nil
}

func dirWord(d Dir) string {
	if d == 'R' {
		return "read"
	}
	return "write"
}

func mergeAnn(a, b string) (string, error) {
	if a == "P" {
		a = ""
	}
	if b == "P" {
		b = ""
	}
	switch {
	case a == b || b == "":
		return a, nil
	case a == "":
		return b, nil
	}
	return "", fmt.Errorf("the access between them is annotated both %s and %s", a, b)
}

// values gives each write its value and each read the value the cycle
// asks of it. The accesses to one location form a chain along the cycle
// (the cycle enters the location by a change of location and leaves it
// by another); its writes are in coherence order, numbered from 1. A read
// that a reads-from edge enters reads its write; a read that a from-read
// edge leaves reads the write just before the target in coherence order
// (0, the initial value, before the first). When the whole cycle is on
// one location, the chain is the whole cycle and starts at the first
// event from which these constraints agree.
func (t *Test) values(oneLoc bool) error {
	n := len(t.Events)
	if !oneLoc {
		// Each chain has one start: observers where values do not pin
		// the coherence order.
		t.allowObs = true
		for i := range t.Events {
			if !t.Edges[(i+n-1)%n].SameLoc {
				var chain []int
				for j := i; ; j = (j + 1) % n {
					chain = append(chain, j)
					if !t.Edges[j].SameLoc {
						break
					}
				}
				if err := t.chainValues(chain, false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	// First without observers: a start whose values pin the coherence
	// order by themselves wins over one that needs observers.
	var first error
	for _, obs := range []bool{false, true} {
		t.allowObs = obs
		for s := 0; s < n; s++ {
			chain := make([]int, n)
			for j := range chain {
				chain[j] = (s + j) % n
			}
			t.Obs = nil
			err := t.chainValues(chain, true)
			if err == nil {
				return nil
			}
			if _, unsup := err.(*ErrUnsupported); unsup || first == nil {
				first = err
			}
		}
		if _, unsup := first.(*ErrUnsupported); !unsup {
			break
		}
	}
	return first
}

// chainValues sets the values of one location's chain; closed says that
// the edge leaving the last event enters the first (the cycle is on one
// location).
func (t *Test) chainValues(chain []int, closed bool) error {
	writes := 0
	for _, i := range chain {
		if t.Events[i].Dir == 'W' {
			writes++
			t.Events[i].Val = writes
		} else {
			t.Events[i].Val = -1
		}
	}
	if writes == 0 {
		for _, i := range chain {
			if t.Edges[i].Kind == Hat {
				return fmt.Errorf("%s: no thread writes %s, so its reads all read the initial value", t.Edges[i].Name, LocName(t.Events[i].Loc))
			}
		}
	}
	// Hat edges copy a value from one read to the other, in either
	// direction: repeat until nothing changes (each pass sets one read at
	// least, or stops).
	for pass := 0; pass <= len(chain); pass++ {
		changed, err := t.constrain(chain, closed)
		if err != nil {
			return err
		}
		if !changed {
			break
		}
	}
	// A read of a written location that no communication constrains
	// returns, as diy writes it, the last write before it in the chain
	// (the initial 0 when none): the reads of Rfe PosRR and of PosRR
	// Fre are both in the condition. Coherence implies these values
	// given the constrained ones, so the test's verdict does not
	// change, but its condition is diy's. A location no thread writes
	// (a chain of reads only) reads 0 in every execution: diy leaves
	// its reads out of the condition, and so does this.
	last := 0
	for _, i := range chain {
		switch ev := &t.Events[i]; {
		case writes == 0:
		case ev.Dir == 'W':
			last = ev.Val
		case ev.Val < 0:
			ev.Val = last
		}
	}
	if _, err := t.constrain(chain, closed); err != nil {
		// Two reads of a Hat given different values by the rule above.
		return &ErrUnsupported{err.Error()}
	}
	if writes > 2 && !t.obs.own() {
		// -obs accept, force and local pin it their own way (observe).
		if err := t.coherencePinned(chain, writes); err != nil {
			return err
		}
	}
	if writes >= 2 {
		t.Final[t.Events[chain[0]].Loc] = writes
	}
	return nil
}

// constrain applies once the constraint of each edge of the chain to the
// values of its reads, and tells whether it set one.
func (t *Test) constrain(chain []int, closed bool) (bool, error) {
	changed := false
	set := func(r *Event, v int, edge string) error {
		if r.Val < 0 {
			changed = true
		}
		return setRead(r, v, edge)
	}
	for j, i := range chain {
		out := t.Edges[i]
		if j == len(chain)-1 && !closed {
			continue
		}
		nx := chain[(j+1)%len(chain)]
		src, dst := &t.Events[i], &t.Events[nx]
		switch out.Kind {
		case Ws:
			if dst.Val != src.Val+1 {
				return false, fmt.Errorf("%s: coherence cannot order the writes of the cycle", out.Name)
			}
		case Fr, Rmw:
			// The read of a read-modify-write returns the write just
			// before its own in coherence (atomicity): as for Fr, the
			// value before the target's.
			if err := set(src, dst.Val-1, out.Name); err != nil {
				return false, err
			}
		case Rf:
			if err := set(dst, src.Val, out.Name); err != nil {
				return false, err
			}
		case Hat:
			switch {
			case src.Val >= 0:
				if err := set(dst, src.Val, out.Name); err != nil {
					return false, err
				}
			case dst.Val >= 0:
				if err := set(src, dst.Val, out.Name); err != nil {
					return false, err
				}
			}
		}
	}
	return changed, nil
}

// coherencePinned checks that the test pins the coherence order of a
// location written three times or more: the final value pins the last
// write; each other write must come before the next one by coherence
// itself, given the values the condition asks of the reads: the two in
// one thread in program order, or a read that returns the first and is
// before the second in program order, or a read after the first in
// program order that returns the second.
func (t *Test) coherencePinned(chain []int, writes int) error {
	ws := make([]int, writes+1) // value -> event
	var reads []int
	for _, i := range chain {
		switch ev := t.Events[i]; {
		case ev.Dir == 'W':
			ws[ev.Val] = i
		case ev.Val >= 0:
			reads = append(reads, i)
		}
	}
	po := func(a, b int) bool { return t.Events[a].Thread == t.Events[b].Thread && a < b }
	for v := 1; v+1 < writes; v++ {
		a, b := ws[v], ws[v+1]
		ok := po(a, b)
		for _, r := range reads {
			rv := t.Events[r].Val
			ok = ok || (rv == v && po(r, b)) || (rv == v+1 && po(a, r))
		}
		if !ok && t.allowObs && t.observable(a, v) {
			t.Obs = append(t.Obs, Observer{Thread: t.Events[a].Thread, Loc: t.Events[a].Loc, Val: v + 1})
			ok = true
		}
		if !ok {
			return &ErrUnsupported{fmt.Sprintf("%d writes to one location, and nothing orders the %s and %s in coherence (a final condition pins the last write only)", writes, ordinal(v), ordinal(v+1))}
		}
	}
	return nil
}

// observable tells whether a load at the end of the thread of write w
// (of value v) may return v+1 without contradicting the cycle's own
// values: the thread does not write the location again after w, and its
// later reads of it return v+1 at most (a read of a later write, then
// the observer's read of v+1, would break coherence).
func (t *Test) observable(w, v int) bool {
	ev := t.Events[w]
	for _, i := range t.Threads[ev.Thread] {
		if i <= w || t.Events[i].Loc != ev.Loc {
			continue
		}
		if e := t.Events[i]; e.Dir == 'W' || e.Val > v+1 {
			return false
		}
	}
	return true
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return fmt.Sprintf("%dth", n)
}

func setRead(r *Event, v int, edge string) error {
	if r.Val >= 0 && r.Val != v {
		return fmt.Errorf("%s: a read would have to return both %d and %d", edge, r.Val, v)
	}
	r.Val = v
	return nil
}

// LocName names location i as diy does: x, y, z, a, b, ...
func LocName(i int) string {
	names := "xyzabcdefghijklmnopqrstuvw"
	if i < len(names) {
		return names[i : i+1]
	}
	return fmt.Sprintf("l%d", i)
}

// Cycle prints the edges as given.
func (t *Test) Cycle() string { return joinEdges(t.Orig) }

func joinEdges(es []Edge) string {
	var s []string
	for _, e := range es {
		switch {
		case e.Word == nil:
			s = append(s, e.Name)
		case *e.Word != "":
			s = append(s, *e.Word)
		}
	}
	return strings.Join(s, " ")
}

// Canonical is the cycle's key up to rotation: the least, in string
// order, of its rotations that begin a thread.
//
// The rotations are compared name by name and only the least is joined
// (an enumeration calls it for every closed sequence of edges): that is
// the order of the joined strings, because a blank, which separates the
// names, sorts before every character of a name, so a name that is a
// prefix of another sorts first either way (TestCanonical compares the
// two).
func Canonical(es []Edge) string {
	n := len(es)
	best := -1
	for s := 0; s < n; s++ {
		if !es[(s+n-1)%n].Ext {
			continue
		}
		if best < 0 || lessRotation(es, s, best) {
			best = s
		}
	}
	if best < 0 {
		return ""
	}
	size := n - 1
	for _, e := range es {
		size += len(e.Name)
	}
	var b strings.Builder
	b.Grow(size)
	for j := 0; j < n; j++ {
		if j > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(es[(best+j)%n].Name)
	}
	return b.String()
}

// lessRotation tells whether the rotation of es from s comes before the
// one from t, name by name.
func lessRotation(es []Edge, s, t int) bool {
	n := len(es)
	for j := 0; j < n; j++ {
		a, b := es[(s+j)%n].Name, es[(t+j)%n].Name
		if a != b {
			return a < b
		}
	}
	return false
}

// Observed lists the reads the condition constrains, in thread order.
func (t *Test) Observed() []int {
	var out []int
	for _, evs := range t.Threads {
		for _, i := range evs {
			if t.Events[i].Dir == 'R' && t.Events[i].Val >= 0 && !t.noResult(i) {
				out = append(out, i)
			}
		}
	}
	return out
}

// noResult tells whether read i is that of an atomic operation that
// returns nothing (STADD, STEOR): the condition cannot name it.
func (t *Test) noResult(i int) bool {
	e := t.Edges[i]
	return e.Kind == Rmw && strings.HasPrefix(e.Amo, "St")
}

// finalLocs lists the locations of Final in order.
func (t *Test) finalLocs() []int {
	var ls []int
	for l := range t.Final {
		ls = append(ls, l)
	}
	sort.Ints(ls)
	return ls
}
