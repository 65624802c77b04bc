package bmc

import (
	"sort"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
)

// The sets and relations every model is given (events by kind and tag,
// po, loc, the dependencies, rf, co, fr and their internal and external
// parts).

// buildInputs gives the sets and relations the engines give every model
// (the same names and meanings as event.Static and the explicit engine).
func (e *encoding) buildInputs() map[string]value {
	o := e.o
	in := map[string]value{}
	sets := e.eventSets()
	// X is herd's set: the events tagged X or EX; amo's domain the
	// events tagged X alone (event/atomicset.go).
	atomic := sets["X"]
	sets["X"] = o.setUnion(atomic, sets["EX"])
	for name, s := range sets {
		in[name] = s
	}
	for alias, tag := range event.TagAliases {
		if _, taken := sets[alias]; !taken {
			if s, ok := sets[tag]; ok {
				in[alias] = s
			}
		}
	}
	e.structure(in)
	fromPairs := func(m map[[2]int]B) *Rel { return relOfPairs(e.n, e.fusePairs(m)) }
	p := e.p
	in["addr"] = fromPairs(p.addr)
	in["data"] = fromPairs(p.data)
	in["ctrl"] = fromPairs(p.ctrl)
	// Each pick relation contains its full kind (pick.go).
	in["pick-addr-dep"] = o.relUnion(in["addr"].(*Rel), fromPairs(p.pickAddr))
	in["pick-data-dep"] = o.relUnion(in["data"].(*Rel), fromPairs(p.pickData))
	in["pick-ctrl-dep"] = o.relUnion(in["ctrl"].(*Rel), fromPairs(p.pickCtrl))
	in["pick-basic-dep"] = o.relUnion(in["pick-addr-dep"].(*Rel), in["pick-data-dep"].(*Rel))
	in["pick-dep"] = o.relUnion(in["pick-basic-dep"].(*Rel), in["pick-ctrl-dep"].(*Rel))
	in["iico_data"] = fromPairs(p.iico)
	in["iico_ctrl"] = newRel(e.n)
	rmw := fromPairs(p.rmw)
	in["rmw"] = rmw
	in["amo"] = o.relInter(rmw, o.cross(atomic, atomic))
	in["lxsx"] = o.relInter(rmw, o.cross(sets["EX"], sets["EX"]))
	intl, ext := in["int"].(*Rel), in["ext"].(*Rel)
	rf := fromPairs(e.rf)
	in["rf"] = rf
	in["rfi"] = o.relInter(rf, intl)
	in["rfe"] = o.relInter(rf, ext)
	co := e.fuseRel(e.co)
	in["co"] = co
	in["coi"] = o.relInter(co, intl)
	in["coe"] = o.relInter(co, ext)
	fr := o.relDiff(o.seq(o.inverse(rf), co), o.idRel())
	in["fr"] = fr
	in["fri"] = o.relInter(fr, intl)
	in["fre"] = o.relInter(fr, ext)
	return in
}

// eventSets gives the sets of events by kind (R, W, M, F, IW, ...) and by
// tag, the tags the front-end declares and the execution sets present
// even when empty.
func (e *encoding) eventSets() map[string]*Set {
	sets := map[string]*Set{}
	get := func(name string) *Set {
		if s, ok := sets[name]; ok {
			return s
		}
		s := newSet()
		sets[name] = s
		return s
	}
	for _, t := range e.opts.TagNames {
		get(t)
	}
	for _, name := range cat.ExecutionSets {
		get(name)
	}
	for i, ev := range e.p.events {
		switch ev.kind {
		case event.Read:
			get("R").m[i] = bTrue
			get("M").m[i] = bTrue
			get("Exp").m[i] = bTrue
			if ev.single != nil {
				get("W").m[i] = bTrue // a single-event read-modify-write (single.go)
			}
		case event.Write:
			get("W").m[i] = bTrue
			get("M").m[i] = bTrue
			get("Exp").m[i] = bTrue
			if ev.thread < 0 {
				get("IW").m[i] = bTrue
			}
		case event.Fence:
			get("F").m[i] = bTrue
		}
		for _, t := range ev.tags {
			get(t).m[i] = bTrue
		}
		for t, c := range ev.condTags {
			get(t).m[i] = c
		}
	}
	return sets
}

// structure gives the relations fixed by the program's text: po, loc,
// int, ext, id, same-instance and sm (si). Exclusive events of a thread
// (of two paths) are never both executed: no pair of them is in any.
func (e *encoding) structure(in map[string]value) {
	p, n := e.p, e.n
	po, loc, intl, ext, same, sm := newRel(n), newRel(n), newRel(n), newRel(n), newRel(n), newRel(n)
	for i, a := range p.events {
		e.f.poll(i)
		for j, b := range p.events {
			sameThread := a.thread == b.thread && (a.thread >= 0 || i == j)
			if sameThread {
				intl.set(i, j, bTrue)
				parts := sameAccess(a, b)
				if a.thread >= 0 && i < j && !e.exclusive(a, b) && !parts {
					po.set(i, j, bTrue)
				}
				if a.inst == b.inst && !e.exclusive(a, b) {
					same.set(i, j, bTrue)
					if parts {
						sm.set(i, j, bTrue)
					}
				}
			} else {
				ext.set(i, j, bTrue)
			}
			if a.loc != "" && a.loc == b.loc && !e.exclusive(a, b) {
				loc.set(i, j, bTrue)
			}
		}
	}
	for i, a := range p.events {
		e.f.poll(i)
		for j, b := range p.events {
			if e.exclusive(a, b) {
				intl.set(i, j, bFalse)
			}
		}
	}
	in["po"] = po
	in["loc"] = loc
	in["int"] = intl
	in["ext"] = ext
	in["id"] = e.o.idRel()
	in["same-instance"] = same
	for i := range p.events {
		sm.set(i, i, bTrue)
	}
	in["sm"] = sm // herd's sm, Dat3M's si: see event.SameAccess
	in["si"] = sm
}

// relOfPairs is the relation of the pairs of m, set in order.
func relOfPairs(n int, m map[[2]int]B) *Rel {
	r := newRel(n)
	keys := make([][2]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		r.set(k[0], k[1], m[k])
	}
	return r
}

// sameAccess tells whether a and b are two distinct chunks of one
// mixed-size access (as event.SameAccess).
func sameAccess(a, b *evt) bool {
	return a != b && a.thread >= 0 && a.thread == b.thread && a.inst == b.inst &&
		(a.kind == event.Read || a.kind == event.Write) && a.kind == b.kind
}
