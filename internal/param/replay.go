package param

// This file finds errors forward: when the sampled finite instance
// (explore.go) reaches an unsafe state, the path to it (a shortest one)
// is
// replayed backward, by the pre-images of its transition instances
// from the unsafe cube; the path is an error trace of the system only
// when the last cube meets the initial states. An approximated backward
// search would refute guess after guess on the way to such an error (the
// buggy FLASH model), while the replay costs one pre-image a step.

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
