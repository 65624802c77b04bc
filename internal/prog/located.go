package prog

import "fmt"

// LocatedOp says which events a Located instruction makes.
type LocatedOp uint8

// The operations of Located: herd7's Linux-kernel lock primitives and a
// single tagged event.
const (
	// LocLock is spin_lock: a lock read (LKR) and a lock write (LKW) of
	// one instruction instance.
	LocLock LocatedOp = iota
	// LocUnlock is spin_unlock: an unlock (UL).
	LocUnlock
	// LocTryLock is spin_trylock: either LKR and LKW, and Dst gets 1, or
	// a failed lock (LF), and Dst gets 0. Both are control-flow choices;
	// the model (lock.cat) decides which executions are consistent.
	LocTryLock
	// LocIsLocked is spin_is_locked: RL and Dst gets 1, or RU and Dst
	// gets 0 (choices as for LocTryLock).
	LocIsLocked
	// LocEvent is one event tagged Tags (synchronize_srcu: Sync-srcu).
	LocEvent
)

// The tags of herd7's lock events (the Linux kernel's lock.cat).
const (
	TagLockRead   = "LKR"
	TagLockWrite  = "LKW"
	TagUnlock     = "UL"
	TagLockFail   = "LF"
	TagReadLocked = "RL"
	TagReadUnlock = "RU"
)

// Located makes events at the location Addr points to that are neither
// reads nor writes: they take no part in the engines' rf and co, the model
// sees them through loc, po, int/ext and their tags (as herd7 makes the
// events of its lock and SRCU primitives; lock.cat builds their rf and co
// itself). Their events are sources of dependencies like reads: Dst (for
// LocTryLock and LocIsLocked) depends on the event that decides its value
// (LKR, LF, RL or RU).
type Located struct {
	Op   LocatedOp
	Addr Expr
	Dst  string   // LocTryLock, LocIsLocked: 1 or 0; may be empty
	Tags []string // LocEvent: the tags of the event
}

func (Located) isInstr() {}

var locatedNames = [...]string{"lock", "unlock", "trylock", "islocked", "event"}

// String prints the instruction for messages (InstrString's default).
func (l Located) String() string {
	name := "located"
	if int(l.Op) < len(locatedNames) {
		name = locatedNames[l.Op]
	}
	s := fmt.Sprintf("%s [%s]", name, ExprString(l.Addr))
	if l.Op == LocEvent {
		s = fmt.Sprintf("%s%v [%s]", name, l.Tags, ExprString(l.Addr))
	}
	if l.Dst != "" {
		s = l.Dst + " = " + s
	}
	return s
}
