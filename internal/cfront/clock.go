package cfront

import (
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// The clock: clock_gettime, timespec_get, gettimeofday and time.
//
// Programs read the clock to compute a deadline for a timed wait
// (pthread_cond_timedwait, sem_timedwait, ...) or to measure a time. No
// memory model says anything about time, and the timed waits do not
// look at the deadline (posixsync.go: a time-out is possible whatever
// it is). So a reading of the clock is an arbitrary time that never goes
// back within a thread: each thread has its own clock, whose readings
// are non-decreasing in program order (POSIX's CLOCK_MONOTONIC; for
// CLOCK_REALTIME, which may be set back, it is a program that no one
// sets the clock under), seconds in [0, 2^32) and nanoseconds
// (microseconds for gettimeofday) in range. The clock id and the time base are not looked
// at: every clock is that one. Readings of two threads are unrelated.
//
// The readings are arbitrary values (prog.Havoc), which the SMT engine
// decides and the graph engine refuses by name.

// clockMaxSec bounds a reading's seconds: below 2^32 (the year 2106 for
// CLOCK_REALTIME, 136 years of uptime for CLOCK_MONOTONIC), so that a
// program computing a difference in nanoseconds in 64 bits, as programs
// do, does not overflow on a time no clock shows.
const clockMaxSec = 1 << 32

// clockSec and clockNsec are the registers holding the thread's last
// reading (0 before the first: registers start at 0).
const (
	clockSec  = "%clock_sec"
	clockNsec = "%clock_nsec"
)

func init() {
	for name, f := range map[string]callLowering{
		"clock_gettime": (*lowerer).clockGettime,
		"timespec_get":  (*lowerer).clockGettime,
		"gettimeofday":  (*lowerer).clockGettime,
		"time":          (*lowerer).clockGettime,
	} {
		knownCalls[name] = ownFirst(f)
	}
}

// clockRead emits a new reading of the thread's clock, in units of
// 1/perSec of a second below the seconds: its seconds and its fraction
// in two fresh registers.
func (l *lowerer) clockRead(b *builder, perSec int64) (sec, frac prog.Expr) {
	s, f := l.fresh("clk"), l.fresh("clk")
	b.emit(prog.Havoc{Dst: s})
	b.emit(prog.Assign{Dst: s, Val: wrap(prog.Reg{Name: s}, 64)})
	b.emit(prog.Havoc{Dst: f})
	b.emit(prog.Assign{Dst: f, Val: wrap(prog.Reg{Name: f}, 64)})
	// The last reading in nanoseconds' fraction, scaled to perSec.
	last := prog.Expr(prog.Reg{Name: clockNsec})
	if perSec != 1e9 {
		last = prog.Bin{Op: prog.OpDiv, X: last, Y: prog.Int(1e9 / perSec)}
	}
	sR, fR := prog.Reg{Name: s}, prog.Reg{Name: f}
	ok := prog.Bin{Op: prog.OpLAnd,
		X: prog.Bin{Op: prog.OpLAnd,
			X: prog.Bin{Op: prog.OpLAnd,
				X: prog.Bin{Op: prog.OpGe, X: fR, Y: prog.Int(0)},
				Y: prog.Bin{Op: prog.OpLt, X: fR, Y: prog.Int(perSec)}},
			Y: prog.Bin{Op: prog.OpLt, X: sR, Y: prog.Int(clockMaxSec)}},
		Y: prog.Bin{Op: prog.OpLOr,
			X: prog.Bin{Op: prog.OpGt, X: sR, Y: prog.Reg{Name: clockSec}},
			Y: prog.Bin{Op: prog.OpLAnd,
				X: prog.Bin{Op: prog.OpEq, X: sR, Y: prog.Reg{Name: clockSec}},
				Y: prog.Bin{Op: prog.OpGe, X: fR, Y: last}}}}
	good := l.label("clk")
	b.emit(prog.Jump{Cond: ok, Target: good})
	b.emit(prog.Assign{Dst: blockedReg, Val: prog.Int(1)}) // not a reading: no execution
	b.emit(prog.Jump{Target: blockLabel})
	b.emit(prog.Label{Name: good})
	b.emit(prog.Assign{Dst: clockSec, Val: sR})
	if perSec == 1e9 {
		b.emit(prog.Assign{Dst: clockNsec, Val: fR})
	} else {
		b.emit(prog.Assign{Dst: clockNsec, Val: prog.Bin{Op: prog.OpMul, X: fR, Y: prog.Int(1e9 / perSec)}})
	}
	return sR, fR
}

// clockGettime lowers clock_gettime(clk, tp), timespec_get(tp, base),
// gettimeofday(tv, tz) and time(t): a reading of the thread's clock
// (above) stored into the struct timespec (two 8-byte fields: seconds,
// nanoseconds) or struct timeval (seconds, microseconds), or returned
// (time, which also stores it through t unless t is null).
func (l *lowerer) clockGettime(cs *callSite) error {
	b := cs.fr.b
	var ptr int // the argument that points to the result
	var want int
	perSec := int64(1e9)
	switch cs.name {
	case "clock_gettime":
		ptr, want = 1, 2
	case "timespec_get":
		ptr, want = 0, 2
	case "gettimeofday":
		ptr, want, perSec = 0, 2, 1e6
	case "time":
		ptr, want, perSec = 0, 1, 1
	}
	if len(cs.args) != want {
		return l.errAt(cs.pos, "%s takes %d argument(s)", cs.name, want)
	}
	p, err := l.arg(cs, ptr)
	if err != nil {
		return err
	}
	sec, frac := l.clockRead(b, perSec)
	tags := func() []string { return withSize([]string{tagNA}, types.I64) }
	if cs.name == "time" {
		if c, ok := p.(prog.Const); ok && !c.V.IsAddr() && c.V.Int == 0 {
			if cs.dst != "" { // time(NULL)
				b.emit(prog.Assign{Dst: cs.dst, Val: sec})
			}
			return nil
		}
		skip := l.label("clk")
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: p, Y: prog.Int(0)}, Target: skip})
		b.emit(prog.Store{Addr: p, Val: sec, Tags: tags()})
		b.emit(prog.Label{Name: skip})
		if cs.dst != "" {
			b.emit(prog.Assign{Dst: cs.dst, Val: sec})
		}
		return nil
	}
	b.emit(prog.Store{Addr: p, Val: sec, Tags: tags()})
	b.emit(prog.Store{Addr: addrPlus(p, 8), Val: frac, Tags: tags()})
	if cs.dst != "" {
		var ret prog.Expr = prog.Int(0) // clock_gettime, gettimeofday: success
		if cs.name == "timespec_get" {
			var err error
			if ret, err = l.arg(cs, 1); err != nil { // success: the base
				return err
			}
		}
		b.emit(prog.Assign{Dst: cs.dst, Val: ret})
	}
	return nil
}
