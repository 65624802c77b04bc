package cat

import (
	"fmt"
	"sort"

	"github.com/musket-verify/musket/internal/rel"
)

// Built-in functions, used when the model does not bind the name itself.
var builtinFuncs map[string]*builtinFn

func init() {
	builtinFuncs = map[string]*builtinFn{}
	for _, b := range []*builtinFn{
		{name: "domain", fn: biDomain},
		{name: "range", fn: biRange},
		{name: "fencerel", fn: biFencerel, reads: []string{"po"}},
		{name: "classes-loc", fn: biClassesLoc, reads: []string{locInput, "loc"}},
		{name: "partition", fn: biClassesLoc, reads: []string{locInput, "loc"}},
		{name: "linearisations", fn: biLinearisations},
		{name: "linearizations", fn: biLinearisations},
		{name: "cross", fn: biCross},
		{name: "tag2events", fn: biTag2Events, impure: true},
		{name: "tag2set", fn: biTag2Events, impure: true},
		{name: "tag2instrs", fn: biTag2Events, impure: true},
		{name: "classes", fn: biClasses},
		{name: "same-oa", fn: vmsaOnly("same-oa")},
		{name: "at-least-one-writable", fn: vmsaOnly("at-least-one-writable")},
		{name: "oa-changes", fn: vmsaOnly("oa-changes")},
		{name: "different-values", fn: biDifferentValues, reads: []string{"same-value"}},
	} {
		builtinFuncs[b.name] = b
	}
}

func biDomain(r *run, v value, pos Position) (value, error) {
	x, ok := r.asRel(v)
	if !ok {
		return nil, typeError1(pos, "domain", v)
	}
	return r.mkSet(x.Domain()), nil
}

func biRange(r *run, v value, pos Position) (value, error) {
	x, ok := r.asRel(v)
	if !ok {
		return nil, typeError1(pos, "range", v)
	}
	return r.mkSet(x.Range()), nil
}

// biFencerel is fencerel(S) = (po & (_ * S)); po: the pairs of po with an
// S event between them.
func biFencerel(r *run, v value, pos Position) (value, error) {
	s, ok := r.asSet(v)
	if !ok {
		return nil, typeError1(pos, "fencerel", v)
	}
	po, err := r.need("po", pos)
	if err != nil {
		return nil, err
	}
	return r.mkRel(po.Restrict(r.fullSet(), s).Seq(po)), nil
}

// need returns a relation the execution must give.
func (r *run) need(name string, pos Position) (rel.Rel, error) {
	v := r.lookupInput(name)
	x, ok := r.asRel(v)
	if v == nil || !ok {
		return rel.Rel{}, &Error{Pos: pos, Msg: fmt.Sprintf("the execution has no relation %s", name)}
	}
	return x, nil
}

// biClassesLoc partitions a set of events by location: the set of its
// non-empty classes, in the order of the locations.
func biClassesLoc(r *run, v value, pos Position) (value, error) {
	s, ok := r.asSet(v)
	if !ok {
		return nil, typeError1(pos, "classes-loc", v)
	}
	var classes []value
	if r.x.Loc != nil {
		byLoc := map[int][]int{}
		s.Each(func(e int) {
			if e < len(r.x.Loc) && r.x.Loc[e] >= 0 {
				byLoc[r.x.Loc[e]] = append(byLoc[r.x.Loc[e]], e)
			}
		})
		locs := make([]int, 0, len(byLoc))
		for l := range byLoc {
			locs = append(locs, l)
		}
		sort.Ints(locs)
		for _, l := range locs {
			classes = append(classes, r.mkSet(rel.SetOf(r.n, byLoc[l]...)))
		}
	} else {
		// Without Loc, the classes of the loc relation.
		loc, err := r.need("loc", pos)
		if err != nil {
			return nil, err
		}
		left := s
		for !left.IsEmpty() {
			e := left.Elems()[0]
			class := loc.Succ(e).Inter(s).With(e)
			classes = append(classes, r.mkSet(class))
			left = left.Diff(class)
		}
	}
	return newValSet(classes...), nil
}

const maxLinearisations = 1 << 20

// biLinearisations is linearisations(S, r): every strict total order on
// the events of S that contains r restricted to S.
func biLinearisations(r *run, v value, pos Position) (value, error) {
	t, ok := v.(tupleVal)
	if !ok || len(t) != 2 {
		return nil, &Error{Pos: pos, Msg: fmt.Sprintf("linearisations expects (set, relation), got %s", showArity(v))}
	}
	s, ok1 := r.asSet(t[0])
	order, ok2 := r.asRel(t[1])
	if !ok1 || !ok2 {
		return nil, typeError(pos, "linearisations", t[0], t[1])
	}
	elems := s.Elems()
	k := len(elems)
	// preds[i] = the elements (by index) that must come before elems[i].
	preds := make([]uint64, k)
	if k > 64 {
		return nil, &Error{Pos: pos, Msg: fmt.Sprintf("linearisations of %d events: too many", k)}
	}
	for i, a := range elems {
		for j, b := range elems {
			if order.Has(b, a) {
				preds[i] |= 1 << uint(j)
			}
		}
	}
	out := &valSet{}
	seq := make([]int, 0, k)
	var err error
	var rec func(placed uint64)
	rec = func(placed uint64) {
		if err != nil {
			return
		}
		if len(seq) == k {
			if len(out.elems) >= maxLinearisations {
				err = &Error{Pos: pos, Msg: "too many linearisations", Limit: true}
				return
			}
			b := rel.NewBuilder(r.n)
			for x := 0; x < k; x++ {
				for y := x + 1; y < k; y++ {
					b.Add(elems[seq[x]], elems[seq[y]])
				}
			}
			o := r.mkRel(b.Rel())
			out.elems = append(out.elems, o)
			out.hashes = append(out.hashes, hashValue(o))
			return
		}
		for i := 0; i < k; i++ {
			bit := uint64(1) << uint(i)
			if placed&bit == 0 && preds[i]&^placed == 0 {
				seq = append(seq, i)
				rec(placed | bit)
				seq = seq[:len(seq)-1]
			}
		}
	}
	rec(0)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// biClasses is classes(r): the equivalence classes of the equivalence
// relation r, as a set of event sets.
func biClasses(r *run, v value, pos Position) (value, error) {
	x, ok := r.asRel(v)
	if !ok {
		return nil, typeError1(pos, "classes", v)
	}
	var classes []value
	left := x.Domain()
	for !left.IsEmpty() {
		e := left.Elems()[0]
		class := x.Succ(e).With(e)
		classes = append(classes, r.mkSet(class))
		left = left.Diff(class)
	}
	return newValSet(classes...), nil
}

// vmsaOnly makes herd7's functions on page-table entries (same-oa(r),
// at-least-one-writable(r), oa-changes(S, r)): Musket's executions have
// no virtual memory, so they answer only for empty arguments, with empty.
func vmsaOnly(name string) func(r *run, v value, pos Position) (value, error) {
	return func(r *run, v value, pos Position) (value, error) {
		args := []value{v}
		if t, ok := v.(tupleVal); ok {
			args = t
		}
		if e, ok := isEmptyValue(args[0], r.n); !ok || !e {
			return nil, &Error{Pos: pos, Msg: name + " needs virtual memory, which Musket does not model"}
		}
		if len(args) == 2 {
			return r.mkSet(rel.NewSet(r.n)), nil
		}
		return r.mkRel(rel.NewRel(r.n)), nil
	}
}

// biDifferentValues is different-values(r): the pairs of r whose events
// carry different values. Executions give values as the relation
// same-value when they can; without it, distinct events count as
// different.
func biDifferentValues(r *run, v value, pos Position) (value, error) {
	x, ok := r.asRel(v)
	if !ok {
		return nil, typeError1(pos, "different-values", v)
	}
	if same, ok := r.x.Rel("same-value"); ok {
		return r.mkRel(x.Diff(same)), nil
	}
	if r.x.SameValue != nil {
		out := rel.NewBuilder(r.n)
		x.Each(func(i, j int) {
			if !r.x.SameValue(i, j) {
				out.Add(i, j)
			}
		})
		return r.mkRel(out.Rel()), nil
	}
	return r.mkRel(x.Diff(r.idRel())), nil
}

// biTag2Events is tag2events('t): the events that carry tag t.
func biTag2Events(r *run, v value, pos Position) (value, error) {
	t, ok := v.(tagVal)
	if !ok {
		return nil, typeError1(pos, "tag2events", v)
	}
	if s, ok := r.x.Sets[string(t)]; ok {
		return r.mkSet(s), nil
	}
	return r.mkSet(rel.NewSet(r.n)), nil
}

// emptyByDefault are the sets herd7 always defines, empty when the
// execution does not give them.
var emptyByDefault = map[string]bool{
	"B": true, "ADDR": true, "DATA": true, "CTRL": true, "NDATA": true,
	"EX": true, "X": true, "PTE": true, "LKW": true, "UB": true, "NExp": true,
	"emptyset": true,
}

// emptyRelByDefault are relations empty when the execution does not give
// them.
var emptyRelByDefault = map[string]bool{
	"addr": true, "data": true, "ctrl": true, "iico_data": true, "iico_ctrl": true,
	"pick-addr-dep": true, "pick-data-dep": true, "pick-ctrl-dep": true, "pick-basic-dep": true, "pick-dep": true,
	"lxsx": true,
}

// constFallback tells whether the fallback value of name depends on the
// number of events only.
func constFallback(name string) bool {
	switch name {
	case "id", "same-instance", "sm", "si", "Exp":
		return true
	}
	return emptyByDefault[name] || emptyRelByDefault[name]
}

// hasDefault tells whether fallback may give name a value: the names it
// lists.
func hasDefault(name string) bool {
	switch name {
	case "id", "same-instance", "sm", "si", "Exp", "M", "amo", "loc", "pco", "co0":
		return true
	}
	return emptyByDefault[name] || emptyRelByDefault[name]
}

// noDefaults tells, for each input name, whether it has no default (see
// hasDefault), so that a run looks no further when the execution lacks it.
func noDefaults(names []string) []bool {
	no := make([]bool, len(names))
	for i, name := range names {
		no[i] = name != locInput && !hasDefault(name)
	}
	return no
}

// fallback gives the value of a name the execution lacks, or nil (always
// nil for the names hasDefault does not list). Its parts are functions
// of their own, never inlined, so that each is small in WebAssembly (the
// whole was 18 KB, compiled by the browser's optimising compiler on a
// page's first runs).
func (r *run) fallback(name string) value {
	switch {
	case emptyByDefault[name]:
		return r.mkSet(r.emptySet())
	case emptyRelByDefault[name]:
		return r.mkRel(r.emptyRel())
	}
	return r.namedFallback(name)
}

// namedFallback is fallback for the names with a value of their own.
//
//go:noinline
func (r *run) namedFallback(name string) value {
	switch name {
	case "id":
		return r.mkRel(r.idRel())
	case "same-instance":
		return r.mkRel(r.idRel())
	case "sm", "si":
		// herd7's sm (older models and Dat3M's: si) relates the parts of
		// one mixed-size access; without mixed sizes every access is whole.
		return r.mkRel(r.idRel())
	case "Exp":
		return r.mkSet(r.fullSet())
	case "M":
		rs, ok1 := r.x.Sets["R"]
		ws, ok2 := r.x.Sets["W"]
		if ok1 && ok2 {
			return r.mkSet(rs.Union(ws))
		}
	case "amo":
		if x, ok := r.x.Rel("rmw"); ok {
			return r.mkRel(x)
		}
		return r.mkRel(rel.NewRel(r.n))
	case "loc":
		if r.x.Loc != nil {
			return r.locFallback()
		}
	case "pco":
		return r.pco()
	case "co0":
		return r.co0Fallback()
	}
	return nil
}

// locFallback is loc from the execution's location classes.
//
//go:noinline
func (r *run) locFallback() value {
	b := rel.NewBuilder(r.n)
	for i := 0; i < r.n && i < len(r.x.Loc); i++ {
		for j := 0; j < r.n && j < len(r.x.Loc); j++ {
			if r.x.Loc[i] >= 0 && r.x.Loc[i] == r.x.Loc[j] {
				b.Add(i, j)
			}
		}
	}
	return r.mkRel(b.Rel())
}

// co0Fallback is herd7's co0: the initial write of each location before
// its other writes.
//
//go:noinline
func (r *run) co0Fallback() value {
	vLoc, vIW, vW := r.lookupInput("loc"), r.lookupInput("IW"), r.lookupInput("W")
	if vLoc == nil || vIW == nil || vW == nil {
		return nil
	}
	loc, _ := r.asRel(vLoc)
	iw, _ := r.asSet(vIW)
	ws, _ := r.asSet(vW)
	return r.mkRel(loc.Inter(rel.Cross(iw, ws.Diff(iw))))
}

// pco is the coherence order the program alone imposes (herd7 computes it
// natively for the "cos-opt" variant of cos.cat): per location, the
// initial write first and the final write last, plus the orders po-loc
// observes between explicit accesses.
func (r *run) pco() value {
	get := func(name string) (value, bool) {
		v := r.lookupInput(name)
		return v, v != nil
	}
	vPo, ok1 := get("po")
	vLoc, ok2 := get("loc")
	vRf, ok3 := get("rf")
	vR, ok4 := get("R")
	vW, ok5 := get("W")
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return nil
	}
	po, _ := r.asRel(vPo)
	loc, _ := r.asRel(vLoc)
	rf, _ := r.asRel(vRf)
	rs, _ := r.asSet(vR)
	ws, _ := r.asSet(vW)
	exp := r.fullSet()
	if v, ok := get("Exp"); ok {
		exp, _ = r.asSet(v)
	}
	iw, fw := rel.NewSet(r.n), rel.NewSet(r.n)
	if v, ok := get("IW"); ok {
		iw, _ = r.asSet(v)
	}
	if v, ok := get("FW"); ok {
		fw, _ = r.asSet(v)
	}
	poLoc := po.Inter(loc).Restrict(exp, exp)
	invrf := rf.Inverse()
	id := r.idRel()
	ww := poLoc.Restrict(ws, ws)
	rw := rf.Seq(poLoc.Restrict(rs, ws))
	wr := poLoc.Restrict(ws, rs).Seq(invrf).Diff(id)
	rr := rf.Seq(poLoc.Restrict(rs, rs)).Seq(invrf).Diff(id)
	co0 := loc.Inter(rel.Cross(iw, ws.Diff(iw)).Union(rel.Cross(ws.Diff(fw), fw)))
	return r.mkRel(ww.Union(rw).Union(wr).Union(rr).Union(co0))
}

// biCross is cross(oss), the function of herd7's library file cross.cat:
// for a set oss of sets of relations, the set of every union of one
// relation from each member (cross({}) is {0}; an empty member gives {}).
// Musket's own cross.cat leaves it to this built-in, which builds the
// unions level by level: a recursion as deep as the result is large
// (herd7's definition) is slow and deep on the large sets of coherence
// orders of tests with many threads.
func biCross(r *run, v value, pos Position) (value, error) {
	oss, err := r.elements(v, pos)
	if err != nil {
		return nil, err
	}
	acc := []rel.Rel{rel.NewRel(r.n)}
	for _, os := range oss {
		opts, err := r.elements(os, pos)
		if err != nil {
			return nil, err
		}
		next := make([]rel.Rel, 0, len(acc)*len(opts))
		seen := map[uint64][]int{}
		for _, a := range acc {
			for _, o := range opts {
				x, ok := r.asRel(o)
				if !ok {
					return nil, typeError1(pos, "cross", o)
				}
				u := a.Union(x)
				h := hashValue(r.mkRel(u))
				dup := false
				for _, i := range seen[h] {
					dup = dup || next[i].Equal(u)
				}
				if dup {
					continue
				}
				if len(next) >= maxLinearisations {
					return nil, &Error{Pos: pos, Msg: fmt.Sprintf("cross: more than %d unions", maxLinearisations)}
				}
				if err := r.step(pos); err != nil {
					return nil, err
				}
				seen[h] = append(seen[h], len(next))
				next = append(next, u)
			}
		}
		acc = next
	}
	out := &valSet{elems: make([]value, len(acc)), hashes: make([]uint64, len(acc))}
	for i, x := range acc {
		out.elems[i] = r.mkRel(x)
		out.hashes[i] = hashValue(out.elems[i])
	}
	return out, nil
}
