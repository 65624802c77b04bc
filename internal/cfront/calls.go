package cfront

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// calleeName is the name of the function a call calls ("" for an
// indirect call).
func calleeName(c *ir.InstCall) string {
	if f, ok := c.Callee.(*ir.Func); ok {
		return f.Name()
	}
	return ""
}

// nondetPrefix starts the names of the SV-COMP generators of arbitrary
// values.
const nondetPrefix = "__VERIFIER_nondet_"

// callSite is a call being lowered: the callee's name, the arguments
// (unwrapped from their attributes) and the register of the result (""
// when the call's value is void).
type callSite struct {
	fr   *frame
	name string
	args []value.Value
	dst  string
	pos  prog.Pos
	in   *ir.InstCall // the call (nil for a call the lowering makes up)
}

// arg is the i-th argument of the call as an expression.
func (l *lowerer) arg(cs *callSite, i int) (prog.Expr, error) {
	if i >= len(cs.args) {
		return nil, l.errAt(cs.pos, "%s: missing argument %d", cs.name, i+1)
	}
	return l.operand(cs.fr, cs.args[i], cs.pos)
}

// returnZero gives the call's result, if it is used, the value 0.
func (cs *callSite) returnZero() {
	if cs.dst != "" {
		cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: prog.Int(0)})
	}
}

// callLowering lowers a call to a function the front-end knows.
type callLowering func(l *lowerer, cs *callSite) error

// knownCalls are the functions lowered by name rather than inlined: the
// thread primitives (pthread.go), the verification primitives
// (verifier.go), the allocator and the intrinsics and library functions
// without a memory event (builtins.go).
var knownCalls = map[string]callLowering{
	"llvm.assume":           (*lowerer).noEvent,
	"pthread_mutex_destroy": (*lowerer).noEvent,
	"pthread_attr_init":     (*lowerer).noEvent,
	"pthread_attr_destroy":  (*lowerer).noEvent,

	"pthread_create":                (*lowerer).pthreadCreate,
	"pthread_self":                  (*lowerer).pthreadSelf,
	"__VERIFIER_tid":                (*lowerer).pthreadSelf,
	"pthread_equal":                 (*lowerer).pthreadEqual,
	"pthread_mutexattr_init":        (*lowerer).mutexAttrInit,
	"pthread_mutexattr_settype":     (*lowerer).mutexAttrType,
	"pthread_mutexattr_setpshared":  (*lowerer).noEvent,
	"pthread_mutexattr_setprotocol": (*lowerer).noEvent,
	"pthread_mutexattr_destroy":     (*lowerer).noEvent,
	"pthread_attr_setdetachstate":   (*lowerer).noEvent,
	"pthread_attr_setstacksize":     (*lowerer).noEvent,
	// Dartagnan's loop annotations: the loop is unrolled to -bound, a
	// path that needs more says BOUND (never a verdict of its own).
	"__VERIFIER_loop_begin": (*lowerer).noEvent,
	"__VERIFIER_loop_bound": (*lowerer).loopBound,
	"pthread_join":          (*lowerer).pthreadJoin,
	// GenMC's spin-loop annotations: an iteration that ends with a false
	// condition is a failed spin, and the thread stops there (an
	// assumption), as GenMC reads them.
	"__VERIFIER_spin_start": (*lowerer).noEvent,
	"__VERIFIER_spin_end":   (*lowerer).verifierAssert,
	"pthread_mutex_init":    (*lowerer).pthreadMutexInit,
	"pthread_mutex_trylock": (*lowerer).mutexTryCall,
	"pthread_spin_trylock":  (*lowerer).mutexTryLock,
	"pthread_mutex_lock":    (*lowerer).mutexLockCall,
	"pthread_spin_lock":     (*lowerer).mutexLock,
	"pthread_mutex_unlock":  (*lowerer).mutexUnlockCall,
	"pthread_spin_unlock":   (*lowerer).mutexUnlock,

	"__assert_fail":     (*lowerer).assertFail,
	"reach_error":       (*lowerer).reachError,
	"__VERIFIER_error":  (*lowerer).verifierError,
	"__VERIFIER_assert": (*lowerer).verifierAssert,
	"__VERIFIER_assume": (*lowerer).verifierAssert,
	// SV-COMP's atomic sections (atomicsec.go).
	"__VERIFIER_atomic_begin": (*lowerer).atomicBegin,
	"__VERIFIER_atomic_end":   (*lowerer).atomicEnd,
	"abort":                   (*lowerer).stop,
	"llvm.trap":               (*lowerer).stop, // __builtin_trap: as abort

	// exit and atexit: ctors.go's init.
	"_Exit": (*lowerer).stop,

	"memcpy":  (*lowerer).memCopy,
	"memmove": (*lowerer).memCopy,
	"memset":  (*lowerer).memSet,
	"memcmp":  (*lowerer).memCompare,
	"bcmp":    (*lowerer).memCompare,

	"malloc":        (*lowerer).malloc,
	"aligned_alloc": (*lowerer).malloc,
	"calloc":        (*lowerer).malloc,

	"free":             (*lowerer).free,
	"realloc":          (*lowerer).realloc,
	"__errno_location": (*lowerer).errnoLocation,
	"vprintf":          (*lowerer).noEvent,
	"fflush":           (*lowerer).noEvent,
	// Output to a stream (stderr's diagnostics): not modelled, as printf.
	"vfprintf":             (*lowerer).noEvent,
	"perror":               (*lowerer).noEvent,
	"sched_yield":          (*lowerer).noEvent,
	"pthread_yield":        (*lowerer).noEvent,
	"usleep":               (*lowerer).noEvent,
	"sleep":                (*lowerer).noEvent,
	"nanosleep":            (*lowerer).noEvent,
	"pthread_spin_init":    (*lowerer).noEvent,
	"pthread_spin_destroy": (*lowerer).noEvent,
}

// knownPrefixes are the families of known functions named by a prefix,
// tried in order after knownCalls.
var knownPrefixes = []struct {
	prefix string
	lower  callLowering
}{
	{"llvm.dbg.", (*lowerer).noEvent},
	{"llvm.lifetime.", (*lowerer).lifetime},
	{"llvm.va_start", (*lowerer).vaStart},
	{"llvm.va_copy", (*lowerer).vaCopy},
	{"llvm.va_end", (*lowerer).noEvent},
	{nondetPrefix, (*lowerer).nondet},
	{"llvm.expect.", (*lowerer).expect},
	{"llvm.smax.", (*lowerer).minMax},
	{"llvm.smin.", (*lowerer).minMax},
	{"llvm.umax.", (*lowerer).minMax},
	{"llvm.umin.", (*lowerer).minMax},
	{"llvm.abs.", (*lowerer).minMax},
	{"llvm.x86.sse2.pause", (*lowerer).noEvent},
	{lkmmPrefix, (*lowerer).lkmmCall},
	{"llvm.memcpy.", (*lowerer).memCopy},
	{"llvm.memmove.", (*lowerer).memCopy},
	{"llvm.memset.", (*lowerer).memSet},
	{"llvm.ctpop.", (*lowerer).bitIntrinsic},
	{"llvm.ctlz.", (*lowerer).bitIntrinsic},
	{"llvm.cttz.", (*lowerer).bitIntrinsic},
	{"llvm.bswap.", (*lowerer).bitIntrinsic},
	{"llvm.sadd.with.overflow.", (*lowerer).overflowOp},
	{"llvm.uadd.with.overflow.", (*lowerer).overflowOp},
	{"llvm.ssub.with.overflow.", (*lowerer).overflowOp},
	{"llvm.usub.with.overflow.", (*lowerer).overflowOp},
	{"llvm.smul.with.overflow.", (*lowerer).overflowOp},
	{"llvm.umul.with.overflow.", (*lowerer).overflowOp},
}

// call lowers a call: a known function (see knownCalls and
// knownPrefixes) or an inlined one; anything else is refused.
func (l *lowerer) call(fr *frame, c *ir.InstCall, pos prog.Pos) error {
	cs := &callSite{fr: fr, name: calleeName(c), args: make([]value.Value, len(c.Args)), pos: pos, in: c}
	for i, a := range c.Args {
		cs.args[i] = argValue(a)
	}
	if !isVoid(c) {
		cs.dst = fr.reg(c)
	}
	if a, ok := c.Callee.(*ir.InlineAsm); ok {
		return l.inlineAsm(cs, a)
	}
	if cs.name == "" {
		// A call of a function through a cast of it (in C, a call of a
		// function declared implicitly, before any prototype) that the
		// program does not define: named as such, not as a call through
		// a function pointer.
		if bc, ok := c.Callee.(*constant.ExprBitCast); ok {
			if f, ok := bc.From.(*ir.Func); ok && len(f.Blocks) == 0 {
				if !knownName(f.Name()) {
					return l.errAt(cs.pos, "call to %s, which has no definition and is not supported (declared implicitly: no prototype before the call)", f.Name())
				}
				// A function Musket knows, called without a prototype
				// (__VERIFIER_assume(c) in an old test program): as
				// if declared.
				cs.name = f.Name()
			}
		}
		if cs.name == "" {
			return l.indirectCall(cs, c)
		}
	}
	if lower := knownCalls[cs.name]; lower != nil {
		return lower(l, cs)
	}
	for _, k := range knownPrefixes {
		if strings.HasPrefix(cs.name, k.prefix) {
			return k.lower(l, cs)
		}
	}
	if strings.HasPrefix(cs.name, atomicFuncPrefix) {
		return l.atomicFunc(cs)
	}
	return l.inlineCall(cs)
}

// missingHint names the construct behind a call Musket refuses where
// the function's name does not: glibc's pthread_cleanup_push and
// pthread_cleanup_pop are macros over a sigsetjmp and these calls.
var missingHint = map[string]string{
	"pthread_cancel":              " (thread cancellation)",
	"pthread_setcancelstate":      " (thread cancellation)",
	"pthread_setcanceltype":       " (thread cancellation)",
	"pthread_testcancel":          " (thread cancellation)",
	"__pthread_register_cancel":   " (pthread_cleanup_push: thread cancellation)",
	"__pthread_unregister_cancel": " (pthread_cleanup_pop: thread cancellation)",
	"__pthread_unwind_next":       " (pthread_cleanup_push: thread cancellation)",
	"__sigsetjmp":                 " (setjmp, or pthread_cleanup_push, which glibc builds on it: thread cancellation)",
	"_setjmp":                     " (setjmp)",
	"setjmp":                      " (setjmp)",
	"longjmp":                     " (longjmp)",
}

// knownName tells whether Musket lowers calls to name without a
// definition (knownCalls, knownPrefixes).
func knownName(name string) bool {
	if knownCalls[name] != nil {
		return true
	}
	for _, k := range knownPrefixes {
		if strings.HasPrefix(name, k.prefix) {
			return true
		}
	}
	return false
}

// inlineCall lowers a call to a function of the program: its body,
// inlined.
func (l *lowerer) inlineCall(cs *callSite) error {
	f := l.funcs[cs.name]
	if f == nil || len(f.Blocks) == 0 {
		if strings.HasPrefix(cs.name, "__atomic_") {
			// clang calls libatomic for an atomic object that is not
			// lock-free (an _Atomic struct of more than 8 bytes on
			// x86-64): a lock inside the library, which Musket does
			// not model.
			return l.errAt(cs.pos, "call to %s, which has no definition and is not supported (an atomic access to an object that is not lock-free, e.g. an _Atomic struct larger than 8 bytes: clang leaves it to libatomic's locks)", cs.name)
		}
		at, in := cs.pos, ""
		if cs.in != nil {
			at, in = l.userCallPos(cs.in.Metadata, cs.pos)
		}
		return l.errAt(at, "call to %s%s, which has no definition and is not supported%s", cs.name, in, missingHint[cs.name])
	}
	var as []prog.Expr
	for i := range cs.args {
		if f.Sig.Variadic && i >= len(f.Params) {
			break
		}
		a, err := l.arg(cs, i)
		if err != nil {
			return err
		}
		as = append(as, a)
	}
	if f.Sig.Variadic {
		va, err := l.varArgs(cs, len(f.Params))
		if err != nil {
			return err
		}
		l.nextVA = va
	}
	return l.lowerFunc(cs.fr.b, f, as, cs.dst, cs.fr.depth+1, cs.pos)
}

func isVoid(c *ir.InstCall) bool {
	return c.Type().String() == "void"
}

// fail records an assertion site and emits its failure: failReg gets its
// number and the thread stops.
func (l *lowerer) fail(b *builder, pos prog.Pos, text string) {
	l.asserts = append(l.asserts, assertion{pos: pos, text: text})
	b.emit(prog.Assign{Dst: failReg, Val: prog.Int(int64(len(l.asserts)))})
	b.emit(prog.Jump{Target: exitLabel})
}

// failLimit ends the path where the program goes past a limit of
// Musket's lowering, as fail does; a check that finds this path first
// gives no verdict (exit status 3), never FAIL: the program may well be
// correct (robust5: two keys created at one site were a FAIL).
func (l *lowerer) failLimit(b *builder, pos prog.Pos, text string) {
	l.fail(b, pos, text)
	l.asserts[len(l.asserts)-1].limit = true
}

// constString reads a C string constant (the text of an assertion).
func (l *lowerer) constString(v value.Value) (string, bool) {
	g := globalOf(v)
	if g == nil || g.Init == nil {
		return "", false
	}
	ca, ok := g.Init.(*constant.CharArray)
	if !ok {
		return "", false
	}
	return strings.TrimRight(string(ca.X), "\x00"), true
}

// globalOf is the global v is or points into the start of through a
// constant getelementptr (a string literal's address), or nil.
func globalOf(v value.Value) *ir.Global {
	switch v := v.(type) {
	case *constant.ExprGetElementPtr:
		g, _ := v.Src.(*ir.Global)
		return g
	case *ir.Global:
		return v
	}
	return nil
}

// literalString is the text of a string literal v points at (a constant
// global's characters, up to the first 0); ok is false for anything
// else, a char array the program may write included.
func (l *lowerer) literalString(v value.Value) (string, bool) {
	g := globalOf(v)
	if g == nil || !g.Immutable {
		return "", false
	}
	s, ok := l.constString(v)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return s, ok
}

// coin emits the read of a coin: a location that an extra thread sets to
// 1, so that the read returns 0 or 1 as the execution chooses (on every
// model: no other access touches it). The coin locations are numbered
// after unrolling.
func (l *lowerer) coin(b *builder) string {
	return l.coinAs(b, "coin")
}

// coinAs is coin with its register named after kind (weakCASCoin: the
// coin of a weak compare-and-swap, which CompileFor sets for x86).
func (l *lowerer) coinAs(b *builder, kind string) string {
	r := l.fresh(kind)
	b.emit(prog.Load{Dst: r, Addr: prog.Addr(coinLoc), Tags: []string{tagA, "RLX"}})
	l.lastCoin = r
	return r
}

const coinLoc = "%coin"

// weakCASCoin names the registers of the coins of weak compare-and-swaps.
const weakCASCoin = "wcascoin"

// isWeakCASCoin tells whether in reads the coin of a weak
// compare-and-swap (after unrolling: a numbered coin location).
func isWeakCASCoin(in prog.Load) bool {
	c, ok := in.Addr.(prog.Const)
	return ok && strings.HasPrefix(c.V.Loc, coinLoc) && strings.HasPrefix(in.Dst, "%"+weakCASCoin)
}

// heapLoc marks the placeholder address of a malloc call (its Int is the
// call's index in lowerer.heap) until expand gives the instance its object.
const heapLoc = "%heap"

// maxHeapObject bounds the size of an allocated object.
const maxHeapObject = 1 << 12

// fnLoc is the address a function pointer to fn holds: a location of
// its own that no access touches, so that pointers to functions can be
// stored, loaded, passed and compared like other addresses.
func fnLoc(fn string) string { return "%fn." + fn }

// indirectCall lowers a call through a function pointer: a choice among
// the functions of the program with the callee's type, by the value the
// pointer holds (each inlined); a pointer that holds none of them is a
// failure of the program.
func (l *lowerer) indirectCall(cs *callSite, c *ir.InstCall) error {
	fp, err := l.operand(cs.fr, c.Callee, cs.pos)
	if err != nil {
		return err
	}
	want := c.Callee.Type().String()
	cands := funcsOfType(l.mod, want)
	if len(cands) == 0 {
		return l.errAt(cs.pos, "indirect call (through a function pointer): no function of the program has type %s", want)
	}
	if len(cands) > 16 {
		return l.errAt(cs.pos, "indirect call (through a function pointer): %d functions have its type (at most 16 are tried)", len(cands))
	}
	var as []prog.Expr
	for i := range cs.args {
		a, err := l.arg(cs, i)
		if err != nil {
			return err
		}
		as = append(as, a)
	}
	b := cs.fr.b
	after := l.label("icall")
	var labels []string
	for _, f := range cands {
		lb := l.label("icall." + f.Name())
		labels = append(labels, lb)
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: fp, Y: prog.Addr(fnLoc(f.Name()))}, Target: lb})
	}
	l.fail(b, cs.pos, "call through a function pointer that holds no function of the program")
	for i, f := range cands {
		b.emit(prog.Label{Name: labels[i]})
		if err := l.lowerFunc(b, f, as, cs.dst, cs.fr.depth+1, cs.pos); err != nil {
			return err
		}
		b.emit(prog.Jump{Target: after})
	}
	b.emit(prog.Label{Name: after})
	return nil
}
