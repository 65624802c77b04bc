package param

import "slices"

// This file finds errors forward: when the sampled finite instance
// (explore.go) reaches an unsafe state, the shortest path to it is
// replayed backward, by the pre-images of its transition instances
// from the unsafe cube; the path is an error trace of the system only
// when the last cube meets the initial states. An approximated backward
// search would refute guess after guess on the way to such an error (the
// buggy FLASH model), while the replay costs one pre-image a step.

// forwardStep is a transition instance of a finite-instance path.
type forwardStep struct {
	t    *Trans
	args []int32 // processes of the instance
}

// errorPath searches the instance breadth-first for a state that
// satisfies an unsafe formula, and returns the path to it with the
// formula and its processes.
func (f *finite) errorPath(stop func() bool) (path []forwardStep, root *Root, procs []int32) {
	type entry struct {
		st     []int64
		parent int
		step   forwardStep
	}
	seen := map[string]bool{}
	var states []entry
	for _, s := range f.initial() {
		if k := stateKey(s); !seen[k] {
			seen[k] = true
			states = append(states, entry{st: s, parent: -1})
		}
	}
	var next [][]int64
	for i := 0; i < len(states); i++ {
		if i%1024 == 0 && stop != nil && stop() {
			return nil, nil, nil
		}
		for _, u := range f.sys.Unsafe {
			if ps := f.rootProcs(states[i].st, u); ps != nil {
				for j := i; states[j].parent >= 0; j = states[j].parent {
					path = append(path, states[j].step)
				}
				slices.Reverse(path)
				return path, u, ps
			}
		}
		for _, t := range f.sys.Trans {
			params := make([]int32, len(t.Params))
			var rec func(k int)
			rec = func(k int) {
				if k == len(params) {
					next = f.fire(states[i].st, t, params, next[:0])
					for _, s := range next {
						k := stateKey(s)
						if seen[k] || len(states) >= maxSample {
							continue
						}
						seen[k] = true
						states = append(states, entry{st: s, parent: i, step: forwardStep{t, slices.Clone(params)}})
					}
					return
				}
				for p := int32(1); p <= f.n; p++ {
					if !slices.Contains(params[:k], p) {
						params[k] = p
						rec(k + 1)
					}
				}
			}
			rec(0)
		}
	}
	return nil, nil, nil
}

// rootProcs returns distinct processes for the parameters of r that
// make st satisfy r, or nil.
func (f *finite) rootProcs(st []int64, r *Root) []int32 {
	params := make([]int32, r.Params)
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == len(params) {
			return f.dnf(st, r.DNF, &fenv{params: params})
		}
		for p := int32(1); p <= f.n; p++ {
			if !slices.Contains(params[:k], p) {
				params[k] = p
				if rec(k + 1) {
					return true
				}
			}
		}
		return false
	}
	if rec(0) {
		return params
	}
	return nil
}

// replay follows path backward from the cubes of root with its
// parameters on procs; it returns the trace when the path is an error
// trace of the system.
func (e *engine) replay(path []forwardStep, root *Root, procs []int32) ([]Step, bool) {
	for _, rc := range e.rootCubes(root) {
		slot := map[int32]int32{} // process of the instance -> slot
		used := map[int32]bool{}
		ok := true
		for i, p := range procs {
			s := rc.Args[i]
			if (p <= e.sys.Pinned || s <= e.sys.Pinned) && p != s {
				ok = false // a process constant must stay itself
			}
			slot[p], used[s] = s, true
		}
		if !ok {
			continue
		}
		cubes := []*Cube{rc}
		for k := len(path) - 1; k >= 0 && len(cubes) > 0; k-- {
			if e.stop != nil && e.stop() {
				return nil, false
			}
			st := path[k]
			var next []*Cube
			for _, c := range cubes {
				fresh := e.sys.Pinned
				for _, s := range c.Slots {
					fresh = max(fresh, s)
				}
				for _, s := range slot {
					fresh = max(fresh, s)
				}
				args := make([]int32, len(st.args))
				for i, p := range st.args {
					s, ok := slot[p]
					if !ok {
						if p <= e.sys.Pinned && !used[p] {
							s = p
						} else {
							fresh++
							s = fresh
						}
						slot[p], used[s] = s, true
					}
					args[i] = s
				}
				for _, nc := range e.preImage(c, st.t, args, fresh+1, nil) {
					e.prepare(nc)
					if nc.open && !e.z.sat(nc.Slots, nc.Lits, nil) {
						continue
					}
					next = append(next, nc)
				}
			}
			if len(next) > 64 {
				next = next[:64]
			}
			cubes = next
		}
		for _, c := range cubes {
			if e.reachesInit(c) {
				var trace []Step
				for x := c; x.Parent != nil; x = x.Parent {
					trace = append(trace, Step{x.Trans, x.Args})
				}
				return trace, true
			}
		}
	}
	return nil, false
}
