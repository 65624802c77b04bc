package cfront

import (
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// resolveSpins names the locations of the spin sites' reads whose
// address was computed when they were lowered (spinSite.late). The
// liveness check (check.go's livelock) says a thread waits forever when
// each read of its site read the final value of its location, so it
// needs the location by name; a site with a read it cannot name is left
// out of the check. A lock taken through &forks[i], where i comes from
// the thread's argument, was such a site: a deadlock of dining
// philosophers was not reported by -liveness (PASS). Once the threads
// are unrolled, the read that defines such a register often has an
// address its thread's registers of known value fold to a constant
// (constregs.go, exact: every way to the read agrees): when every read of t that
// defines the register (in every unrolled copy) reads the same constant
// address, that address is the read's location. Otherwise the site stays
// out of the check, as before.
func (l *lowerer) resolveSpins(t *spec.Test) {
	need := map[string]bool{}
	for _, s := range l.spins {
		for _, r := range s.late {
			need[r] = true
		}
	}
	if len(need) == 0 {
		return
	}
	// The addresses each register is read from, by thread.
	type key struct {
		thread int
		reg    string
	}
	addrs := map[key][]prog.Expr{}
	for ti, th := range t.Threads {
		c := newConstRegs(th)
		for _, in := range th.Code {
			var dst string
			var a prog.Expr
			switch x := in.(type) {
			case prog.Load:
				dst, a = x.Dst, x.Addr
			case prog.RMW:
				dst, a = x.Dst, x.Addr
			}
			if dst != "" && need[dst] {
				if v, ok := foldValue(a, c.cur); ok && c.cur != nil {
					a = prog.Const{V: v}
				}
				k := key{ti, dst}
				addrs[k] = append(addrs[k], a)
			}
			c.step(in)
		}
	}
	for i := range l.spins {
		s := &l.spins[i]
		if len(s.late) == 0 {
			continue
		}
		var regs, locs []string
		ok := true
		for _, r := range s.late {
			var loc string
			found := false
			for k, as := range addrs {
				if k.reg != r {
					continue
				}
				for _, a := range as {
					c, isC := a.(prog.Const)
					if !isC || !c.V.IsAddr() || found && locName(c.V.Loc, c.V.Int) != loc {
						ok = false
						break
					}
					loc, found = locName(c.V.Loc, c.V.Int), true
				}
			}
			if !ok || !found {
				ok = false
				break
			}
			regs, locs = append(regs, r), append(locs, loc)
		}
		if ok {
			s.regs, s.locs = append(s.regs, regs...), append(s.locs, locs...)
			s.late, s.dyn = nil, false
		}
	}
}
