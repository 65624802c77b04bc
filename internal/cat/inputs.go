package cat

import "github.com/musket-verify/musket/internal/rel"

// The inputs of a model are the names nothing in it binds: po, rf, R, W,
// MFENCE, ... They are looked up in the execution on first use in a
// Check, then fall back to the defaults of builtins.go.

// input resolves a free name of the model against the execution, once per
// run.
func (r *run) input(i int) value {
	v := r.inputs[i]
	if v == nil {
		v = r.resolveInput(i)
		if v == nil && r.opts.unboundEmpty {
			v = theEmpty
		}
		if v == nil {
			r.inputs[i] = absent
		} else {
			r.inputs[i] = v
		}
		return v
	}
	if v == absent {
		return nil
	}
	return v
}

// absentVal marks in run.inputs an input resolved to no value.
type absentVal struct{}

var absent value = absentVal{}

// Where an input was found last time, to look there first.
const (
	whereUnknown uint8 = iota
	whereSets
	whereRels
)

// resolveInput looks input i up in the execution. When the value equals
// the one the memo saw last, that value is returned and the comparison
// recorded, which saves boxing it and comparing it again.
func (r *run) resolveInput(i int) value {
	name, m := r.m.inputNames[i], r.memo
	if in := r.x.Inputs; in != nil {
		switch e := &in[i]; e.Kind {
		case SetInput:
			return r.inputSet(i, e.Set)
		case RelInput:
			return r.sameRel(i, e.Rel)
		}
		// Neither Sets nor Rels has it: as below, without looking.
		if v := m.consts[i]; v != nil {
			return v
		}
		if r.m.noDefault[i] {
			return nil
		}
		var v value
		if name == locInput {
			if r.x.Loc != nil {
				v = locVal(r.x.Loc)
			}
		} else {
			v = r.fallback(name)
		}
		if constFallback(name) {
			m.consts[i] = v
		}
		return v
	}
	if m.where[i] == whereRels {
		if x, ok := r.x.Rel(name); ok {
			return r.sameRel(i, x)
		}
	}
	if s, ok := r.x.Sets[name]; ok {
		m.where[i] = whereSets
		return r.inputSet(i, s)
	}
	if x, ok := r.x.Rel(name); ok {
		m.where[i] = whereRels
		return r.sameRel(i, x)
	}
	if v := m.consts[i]; v != nil {
		return v
	}
	if r.m.noDefault[i] {
		// Neither the execution nor a default gives it (lookupInput
		// would look in the execution's maps again, then find nothing).
		return nil
	}
	v := r.lookupInput(name)
	if constFallback(name) {
		m.consts[i] = v
	}
	return v
}

// inputSet is input i's value s, the memo's when it is equal.
func (r *run) inputSet(i int, s rel.Set) value {
	m := r.memo
	if old, ok := m.inputs[i].(setVal); ok && m.have[i] && m.seenGen[i] != m.gen && old.s.Equal(s) {
		m.seenGen[i] = m.gen
		return old
	}
	return r.mkSet(s)
}

func (r *run) sameRel(i int, x rel.Rel) value {
	m := r.memo
	if old, ok := m.inputs[i].(relVal); ok && m.have[i] && m.seenGen[i] != m.gen && old.r.Equal(x) {
		m.seenGen[i] = m.gen
		return old
	}
	return r.mkRel(x)
}

func (r *run) lookupInput(name string) value {
	if name == locInput {
		if r.x.Loc == nil {
			return nil
		}
		return locVal(r.x.Loc)
	}
	if s, ok := r.x.Sets[name]; ok {
		return r.mkSet(s)
	}
	if x, ok := r.x.Rel(name); ok {
		return r.mkRel(x)
	}
	return r.fallback(name)
}
