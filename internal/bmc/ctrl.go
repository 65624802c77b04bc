package bmc

import "sort"

// The scope of control dependencies (prog.Jump.Join): a thread state keeps
// the reads of the unscoped branches taken (tstate.ctrl, assembly's
// branches, which cover the rest of the thread) apart from those of the
// scoped branches still open, per join label (tstate.scoped, C's if/else,
// which cover the events up to the label where the branches meet). Each
// read comes with the condition, relative to the state's execution, under
// which it is a dependency. The maps are shared between states and never
// changed in place.

// ctrlOf is what an event executed in st depends on by control: the reads
// of the unscoped branches taken and of the scoped ones still open.
func (p *progEnc) ctrlOf(st *tstate) map[int]B {
	deps := st.ctrl
	for _, l := range sortedLabels(st.scoped) {
		deps = mergeDeps(p.f, deps, st.scoped[l])
	}
	return deps
}

// branch records the reads deps of a conditional jump's condition in st,
// whose control dependency ends at label join ("" for never).
func (p *progEnc) branch(st *tstate, join string, deps map[int]B) {
	if join == "" {
		st.ctrl = mergeDeps(p.f, st.ctrl, deps)
		return
	}
	if len(deps) == 0 {
		return
	}
	m := make(map[string]map[int]B, len(st.scoped)+1)
	for k, v := range st.scoped {
		m[k] = v
	}
	m[join] = mergeDeps(p.f, m[join], deps)
	st.scoped = m
}

// join closes, at label, the scoped branches of st that end there.
func (p *progEnc) join(st *tstate, label string) {
	if _, ok := st.scoped[label]; !ok {
		return
	}
	m := make(map[string]map[int]B, len(st.scoped))
	for k, v := range st.scoped {
		if k != label {
			m[k] = v
		}
	}
	st.scoped = m
}

// mergeScoped merges the open scoped branches over the incoming edges of
// a node: a read is a dependency of a join label under the disjunction of
// the edges that have it.
func (p *progEnc) mergeScoped(in []edge) map[string]map[int]B {
	labels := map[string]bool{}
	for _, e := range in {
		for l := range e.st.scoped {
			labels[l] = true
		}
	}
	if len(labels) == 0 {
		return nil
	}
	out := map[string]map[int]B{}
	for _, l := range sortedLabels(labels) {
		if d := p.mergeMaps(in, func(s *tstate) map[int]B { return s.scoped[l] }); len(d) > 0 {
			out[l] = d
		}
	}
	return out
}

func sortedLabels[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
