package symexec

// The scope of control dependencies (prog.Jump.Join): a path keeps the
// reads of its unscoped branches (State.ctrl, assembly's branches, which
// cover the rest of the path) apart from those of its scoped branches
// still open, per join label (State.scoped, C's if/else, which cover the
// events up to the label where the branches meet). The maps and slices
// are shared between forked paths and never changed in place.

// CtrlDeps is what an event emitted now depends on by control: the reads
// of the unscoped branches taken and of the scoped ones still open.
func (st *State[E]) CtrlDeps() []int {
	deps := st.ctrl
	for _, d := range st.scoped {
		deps = MergeDeps(deps, d)
	}
	return deps
}

// branch records the reads deps of a conditional jump's condition, whose
// control dependency ends at label join ("" for never).
func (st *State[E]) branch(join string, deps []int) {
	if join == "" {
		st.ctrl = MergeDeps(st.ctrl, deps)
		return
	}
	if len(deps) == 0 {
		return
	}
	m := make(map[string][]int, len(st.scoped)+1)
	for k, v := range st.scoped {
		m[k] = v
	}
	m[join] = MergeDeps(m[join], deps)
	st.scoped = m
}

// join closes, at label, the scoped branches that end there.
func (st *State[E]) join(label string) {
	if _, ok := st.scoped[label]; !ok {
		return
	}
	m := make(map[string][]int, len(st.scoped))
	for k, v := range st.scoped {
		if k != label {
			m[k] = v
		}
	}
	st.scoped = m
}

// CtrlPick is what an event emitted now depends on by control through a
// pick only: the reads that reach the conditions of the unscoped
// branches taken by a pick (Sym.Pick), beyond CtrlDeps.
func (st *State[E]) CtrlPick() []int { return pickOnly(st.CtrlDeps(), st.pctrl) }
