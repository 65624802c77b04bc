package cfront

import (
	"fmt"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Kernel-only primitives under other models.
//
// musket/lkmm.h's spin locks (spin_lock, spin_unlock, spin_trylock,
// spin_is_locked), SRCU's located events and RCU's fences
// (rcu_read_lock, rcu_read_unlock, synchronize_rcu) make events whose
// meaning only the Linux kernel's model gives: a lock's mutual exclusion
// is lock.cat's rf and co over LKR, LKW and UL, a grace period is
// linux-kernel.cat's rcu-fence. A model that never names those tags (sc,
// c11, rc11, imm, the hardware models) sees no exclusion and no grace
// period, and would answer as if the primitive were not there: a silent
// wrong verdict (a counter incremented under spin_lock by two threads
// would "fail" under sc). Such a program is refused by name under such a
// model, with what to use instead (-conf linux-kernel.cfg). The
// READ_ONCE/WRITE_ONCE, smp_* fences and atomic_t operations are
// accesses and fences that every model orders by its own rules, and stay
// accepted.

// kernelOnlyTags are the tags of the events whose meaning only the
// kernel's model gives, each with a primitive that makes it.
var kernelOnlyTags = []struct{ tag, primitive string }{
	{prog.TagLockRead, "spin_lock"},
	{prog.TagLockWrite, "spin_lock"},
	{prog.TagUnlock, "spin_unlock"},
	{prog.TagLockFail, "spin_trylock"},
	{prog.TagReadLocked, "spin_is_locked"},
	{prog.TagReadUnlock, "spin_is_locked"},
	{"Rcu-lock", "rcu_read_lock"},
	{"Rcu-unlock", "rcu_read_unlock"},
	{"Sync-rcu", "synchronize_rcu"},
	{"Srcu-lock", "srcu_read_lock"},
	{"Srcu-unlock", "srcu_read_unlock"},
	{"Sync-srcu", "synchronize_srcu"},
}

// kernelOnlyError says where t uses a kernel-only primitive that the
// model m never names (nil: none, or m gives it a meaning).
func kernelOnlyError(t *spec.Test, m *cat.Model, modelName string) error {
	for _, th := range t.Threads {
		for pc, in := range th.Code {
			for _, tag := range eventTags(in) {
				for _, k := range kernelOnlyTags {
					if k.tag != tag || modelUses(m, tag) {
						continue
					}
					where := t.File
					if pc < len(th.Pos) {
						where = fmt.Sprintf("%s:%d", th.Pos[pc].File, th.Pos[pc].Line)
					}
					return fmt.Errorf("%s: %s is a Linux-kernel primitive (musket/lkmm.h) whose meaning only the kernel's model gives (its %s events), and model %s does not name them: check the program with -conf linux-kernel.cfg (herd7's Linux-kernel model)", where, k.primitive, tag, modelName)
				}
			}
		}
	}
	return nil
}

// eventTags are the tags of the located events and fences an instruction
// makes (the kinds kernel-only primitives lower to).
func eventTags(in prog.Instr) []string {
	switch x := in.(type) {
	case prog.Located:
		switch x.Op {
		case prog.LocLock:
			return []string{prog.TagLockRead, prog.TagLockWrite}
		case prog.LocUnlock:
			return []string{prog.TagUnlock}
		case prog.LocTryLock:
			return []string{prog.TagLockRead, prog.TagLockWrite, prog.TagLockFail}
		case prog.LocIsLocked:
			return []string{prog.TagReadLocked, prog.TagReadUnlock}
		}
		return x.Tags
	case prog.Fence:
		return x.Tags
	}
	return nil
}
