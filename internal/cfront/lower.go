package cfront

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/prog"
)

// The C-level tags of the events (as the C litmus front-end tags them:
// herd7's names, which c11.cat and rc11.cat bind).
const (
	tagNA  = "NA"
	tagA   = "A"
	tagRMW = "RMW"
	tagX   = "X"
)

// Registers and labels the lowering adds to every thread. Their names
// start with '%', which no C identifier does.
const (
	failReg    = "%fail"    // the number of the failed assertion (0: none)
	blockLabel = "%block"   // the thread blocks: an assumption failed, a spin loop was cut, a join waits
	exitLabel  = "%exit"    // the end of the thread
	spinReg    = "%spin"    // 1 when the thread stopped in a cut spin loop
	spinAtReg  = "%spinat"  // the latest spin site passed (its number)
	spinLabel  = "%spincut" // where a cut spin loop goes
	blockedReg = "%blocked" // 1 when the thread blocked
)

// maxInline bounds the depth of inlined calls (recursion is unrolled to the bound first).
const maxInline = 32

// lowerError is an error at a source position, refusing a construct.
type lowerError struct {
	pos prog.Pos
	msg string
}

func (e *lowerError) Error() string {
	if e.pos.Line == 0 {
		return e.pos.File + ": " + e.msg
	}
	if e.pos.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.pos.File, e.pos.Line, e.pos.Col, e.msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.pos.File, e.pos.Line, e.msg)
}

// assertion is an assertion site: its number is the value of failReg.
type assertion struct {
	pos   prog.Pos
	text  string
	limit bool // a limit of Musket (failLimit), not a failure of the program
}

// site is a pthread_create or pthread_join call site of a thread's
// template code: the placeholder Fence{Tags: {placeholder, index}} stands
// for it until the thread's loops are unrolled.
type site struct {
	join bool
	fn   *ir.Func  // create: the thread function, when named directly
	fnp  prog.Expr // create: else the function pointer (threadfn.go)
	fnt  string    // create: its type
	arg  prog.Expr // create: its argument
	tid  prog.Expr // create: the pthread_t address; join: the thread id
	ret  prog.Expr // join: where the thread's result goes (nil: nowhere)
	dst  string    // join: the register of the call's value ("": unused)
	// selfErr is a join's value when a thread joins itself (EDEADLK;
	// thrd_error for thrd_join).
	selfErr int64
	pos     prog.Pos
}

const placeholder = "%site"

// builder accumulates the code of one thread.
type builder struct {
	code []prog.Instr
	pos  []prog.Pos
	cur  prog.Pos
}

func (b *builder) emit(in prog.Instr) {
	b.code = append(b.code, in)
	b.pos = append(b.pos, b.cur)
}

// lowerer lowers a module.
type lowerer struct {
	ctx     context.Context // the check's: its time and memory limits stop the lowering too (nil: none)
	file    string
	mod     *ir.Module
	funcs   map[string]*ir.Func
	lkmm    bool // the program uses the LKMM primitives of lkmm.h
	locs    map[string]bool
	init    []initCell
	nonAt   map[string]bool // non-atomic locations
	asserts []assertion
	sites   []site
	inst    int // inline instances
	tmp     int
	labels  int
	allocs  map[string]int
	// nextVA is the object of the variable arguments of the call being
	// inlined, for the variadic function lowerFunc lowers next
	// (varargs.go); vaObjects numbers those objects.
	nextVA    string
	vaObjects int
	// literals are the string literals the program reads (literals.go).
	literals map[string]bool
	loops    map[*ir.Func]*loopInfo
	noSpin   bool

	created   []created // the threads: 0 is main
	frees     bool      // the program calls free (free.go)
	reallocs  bool      // the program calls realloc (realloc.go)
	coins     int       // coin locations numbered so far
	lastCoin  string    // the register of the latest coin read
	heap      []int64   // the sizes of the malloc call sites (-1: heapSize has it)
	heapSize  map[int]heapSite
	heapRaw   map[int]bool    // the call sites whose objects start uninitialised (malloc, aligned_alloc)
	heapBytes map[int]bool    // the call sites whose objects are character memory: one cell per byte (heapcells.go)
	raw       map[string]bool // the heap objects made by those sites (uninit.go)
	spins     []spinSite      // the places a thread may stop waiting (numbered from 1)
	objects   int             // heap objects made so far
	heaps     map[string]bool // when frees: the heap objects made (free.go)
	ptrChecks int             // run-time checks of pointer comparisons (ptrcmp.go)
	// curThread is the thread being lowered: a thread-local global
	// (__thread, _Thread_local) names its copy (see globalAddr).
	curThread int
	asmFences []asmFence // the asm fences met
	splitRMWs []splitRMW // read-modify-writes over parts (mixed.go)
	nsplit    int        // their count, for fresh names
	// joinRet: some join asks for the thread's result (pthread_join
	// with a non-NULL second argument; main's joins are lowered before
	// the threads): threads store what they return.
	joinRet bool
	// lateJoin: some join's thread id is read from memory (lateJoins).
	lateJoin bool
	// active counts the instances of each function being inlined (on
	// the inlining stack): recursion is unrolled to bound.
	active map[*ir.Func]int
	bound  int
	// atomicFn counts the __VERIFIER_atomic_ functions being inlined
	// (atomicsec.go): inside one, the section's lock is held.
	atomicFn int
	// atomicBegun counts the __VERIFIER_atomic_begin calls lowered
	// without their end in the thread being lowered.
	atomicBegun int
	// posix: condition waits, barriers (condvar.go, posixsync.go).
	posix *posixState
	users map[*ir.Func]map[value.Value][]any // the users of each function's values (userpos.go)
	// owned: 0 not decided yet, 1 plain mutexes, 2 owned mutexes (the
	// program asks for a recursive or error-checking kind: mutexkind.go).
	owned int8
	// exits: the destructors and atexit handlers (ctors.go).
	exits *exitState
	// tssDtors are the key creations with a destructor (tssdtor.go).
	tssDtors     []tssDtorSite
	tssDtorsDone bool
	// charCasts: whether an integer alloca is also used as a char
	// pointer (memory.go's byteStore).
	charCasts map[*ir.InstAlloca]bool
	// Lifetimes (lifetime.go, escape.go): the failure text of each
	// tracked object, each thread's tracked thread-local copies, the
	// escape answers, each function's cyclic blocks, and the function
	// instances being inlined (innermost last).
	lifetimes    map[string]string
	threadLocals map[int][]string
	// lifeSites are the locals whose lifetime a loop repeats, heapLife
	// the failure text of each of their heap call sites, lifeHeaps the
	// objects made of them (lifetime.go).
	lifeSites map[*ir.InstAlloca]lifeSite
	heapLife  map[int]string
	lifeHeaps map[string]bool
	globalEsc map[*ir.Global]bool
	paramEsc  map[paramKey]bool
	cycles    map[*ir.Func]map[*ir.Block]bool
	frames    []*frame
	// strBound: the bound of the string functions' loops (strfuncs.go; 0:
	// not computed yet).
	strBound int64
	strFuncs int8 // 0 not decided, 1 no, 2 the program calls a string function
}

// expired tells whether the check's time limit was reached.
func (l *lowerer) expired() bool { return l.ctx != nil && l.ctx.Err() != nil }

// initCell is a shared location and its initial value.
type initCell struct {
	name string
	val  cval
	size int64 // bytes of its type; 0: untyped (a heap object's)
}

func (l *lowerer) errAt(pos prog.Pos, format string, args ...any) error {
	return &lowerError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

// posOf is the source position of an instruction (its !dbg location).
func (l *lowerer) posOf(md ir.Metadata) prog.Pos {
	for _, a := range md {
		if a.Name == "dbg" {
			if loc, ok := a.Node.(*metadata.DILocation); ok {
				return prog.Pos{File: l.fileOf(loc.Scope), Line: int(loc.Line), Col: int(loc.Column)}
			}
		}
	}
	return prog.Pos{File: l.file}
}

// fileOf is the file of a debug scope: the program's file as it was
// named, or the header the scope is in (a function defined in an
// included file), as clang names it.
func (l *lowerer) fileOf(scope metadata.Field) string {
	var f *metadata.DIFile
	switch s := scope.(type) {
	case *metadata.DISubprogram:
		f = s.File
	case *metadata.DILexicalBlock:
		f = s.File
	case *metadata.DILexicalBlockFile:
		f = s.File
	case *metadata.DIFile:
		f = s
	}
	if f == nil || f.Filename == "" || f.Filename == l.file || filepath.Clean(f.Filename) == filepath.Clean(l.file) {
		return l.file
	}
	if !filepath.IsAbs(f.Filename) && f.Directory != "" {
		if wd, err := os.Getwd(); err != nil || filepath.Clean(wd) != filepath.Clean(f.Directory) {
			return filepath.Join(f.Directory, f.Filename)
		}
	}
	return f.Filename
}

// locName is the name of the cell at offset off of object base.
func locName(base string, off int64) string {
	if off == 0 {
		return base
	}
	return fmt.Sprintf("%s+%d", base, off)
}

// addObject declares the cells of an object of type t named base.
func (l *lowerer) addObject(base string, t types.Type, c constant.Constant, pos prog.Pos) error {
	var cs []cell
	if err := l.cells(t, c, 0, &cs); err != nil {
		if err == errTooManyCells {
			return &LimitError{Msg: l.errAt(pos, "%s: %v", base, err).Error()}
		}
		return l.errAt(pos, "%s: unsupported %v", base, err)
	}
	for _, c := range cs {
		n := locName(base, c.off)
		if l.locs[n] {
			continue
		}
		l.locs[n] = true
		l.init = append(l.init, initCell{name: n, val: c.val, size: c.size})
	}
	return nil
}

// globals declares every global variable.
func (l *lowerer) globals() error {
	for _, g := range l.mod.Globals {
		name := g.Name()
		if (strings.HasPrefix(name, ".str") || strings.HasPrefix(name, "__PRETTY_FUNCTION__") || strings.HasPrefix(name, "__func__")) && !l.literals[name] {
			continue // assertion texts, output (literals.go)
		}
		if g.Init == nil && name != "stdin" && name != "stdout" && name != "stderr" {
			// extern int limit; with no definition in the file: the
			// program does not link, and Musket, which checks one
			// file, has no value to give it.
			return l.errAt(l.globalPos(g), "%s is declared but not defined in this file (unsupported: an extern variable defined elsewhere has no value here; define it)", name)
		}
		init := g.Init
		if init != nil && l.ownedMutexes() {
			init = ownedInit(init) // a static recursive mutex (mutexkind.go)
		}
		if err := l.addObject(name, g.ContentType, init, l.globalPos(g)); err != nil {
			return err
		}
	}
	return nil
}

func (l *lowerer) globalPos(g *ir.Global) prog.Pos {
	for _, a := range g.Metadata {
		if a.Name == "dbg" {
			if e, ok := a.Node.(*metadata.DIGlobalVariableExpression); ok && e.Var != nil {
				return prog.Pos{File: l.fileOf(e.Var.File), Line: int(e.Var.Line)}
			}
		}
	}
	return prog.Pos{File: l.file}
}

// constValue evaluates a constant: an integer or an address.
func (l *lowerer) constValue(c constant.Constant) (cval, error) {
	switch c := c.(type) {
	case *constant.Int:
		return cval{n: canonBig(c.X, c.Typ.BitSize)}, nil
	case *constant.Null, *constant.ZeroInitializer, *constant.Undef, *constant.Poison:
		return cval{}, nil
	case *ir.Global:
		return l.globalAddr(c)
	case *constant.Index:
		return l.constValue(c.Constant)
	case *constant.ExprBitCast:
		return l.constValue(c.From)
	case *constant.ExprPtrToInt:
		return l.constValue(c.From)
	case *constant.ExprIntToPtr:
		return l.constValue(c.From)
	case *constant.ExprAddrSpaceCast:
		return l.constValue(c.From)
	case *constant.ExprGetElementPtr:
		base, err := l.constValue(c.Src)
		if err != nil {
			return cval{}, err
		}
		var idx []int64
		for _, i := range c.Indices {
			v, err := l.constValue(i)
			if err != nil || v.loc != "" {
				return cval{}, fmt.Errorf("getelementptr index %s", i.Ident())
			}
			idx = append(idx, v.n)
		}
		off, err := constGEP(c.ElemType, idx)
		if err != nil {
			return cval{}, err
		}
		base.n += off
		return base, nil
	case *ir.Func:
		return cval{loc: fnLoc(c.Name())}, nil
	case *constant.BlockAddress:
		return cval{}, fmt.Errorf("constant %s: a label's address (GCC's &&label, for a computed goto) is not supported", c.Ident())
	}
	return cval{}, fmt.Errorf("constant %s", c.Ident())
}

// globalAddr is the address of global g in the thread being lowered:
// g itself, but for a thread-local variable (__thread, _Thread_local) in
// a thread other than main, that thread's own copy, an object named
// g.tlsN made on first use with the declaration's initial value.
func (l *lowerer) globalAddr(g *ir.Global) (cval, error) {
	if g.TLSModel == enum.TLSModelNone || l.curThread == 0 {
		return cval{loc: g.Name()}, nil
	}
	name := fmt.Sprintf("%s.tls%d", g.Name(), l.curThread)
	if !l.locs[name] {
		var init constant.Constant
		if g.Init != nil {
			init = g.Init
		}
		if err := l.addObject(name, g.ContentType, init, l.globalPos(g)); err != nil {
			return cval{}, err
		}
	}
	return cval{loc: name}, nil
}

// constGEP is the byte offset of a getelementptr with constant indices.
func constGEP(elem types.Type, idx []int64) (int64, error) {
	if len(idx) == 0 {
		return 0, nil
	}
	s, err := sizeOf(elem)
	if err != nil {
		return 0, err
	}
	off := idx[0] * s
	t := elem
	for _, i := range idx[1:] {
		switch tt := t.(type) {
		case *types.ArrayType:
			es, err := sizeOf(tt.ElemType)
			if err != nil {
				return 0, err
			}
			off += i * es
			t = tt.ElemType
		case *types.StructType:
			offs, _, err := structLayout(tt)
			if err != nil {
				return 0, err
			}
			if i < 0 || int(i) >= len(offs) {
				return 0, fmt.Errorf("field %d of %s", i, tt)
			}
			off += offs[i]
			t = tt.Fields[i]
		default:
			return 0, fmt.Errorf("getelementptr into %s", t)
		}
	}
	return off, nil
}

func (v cval) expr() prog.Expr {
	return prog.Const{V: prog.Value{Loc: v.loc, Int: v.n}}
}

// frame is one inlined instance of a function.
type frame struct {
	f      *ir.Func
	prefix string
	args   map[*ir.Param]prog.Expr
	retDst string
	retLbl string
	depth  int
	b      *builder
	loops  *loopInfo
	// latches routes back edges through one latch per header (latches.go).
	latches *latchInfo
	// va is the object holding the variable arguments of this instance
	// of a variadic function (varargs.go).
	va string
	// inLoop: the instance is inlined inside a loop (of a caller);
	// blk is the block being lowered; lifetimes are its tracked locals
	// (lifetime.go).
	inLoop    bool
	blk       *ir.Block
	lifetimes map[*ir.InstAlloca]tracked
	endAtRet  []tracked // tracked locals with no lifetime end: ended at the return
}

func (l *lowerer) fresh(kind string) string {
	l.tmp++
	return fmt.Sprintf("%%%s%d", kind, l.tmp)
}

func (l *lowerer) label(kind string) string {
	l.labels++
	return fmt.Sprintf("%%%s%d", kind, l.labels)
}

func (fr *frame) reg(v value.Named) string { return fr.prefix + v.Name() }

func (fr *frame) blockLabel(b *ir.Block) string { return fr.prefix + "bb" + b.Name() }

// operand turns an IR value into an expression.
func (l *lowerer) operand(fr *frame, v value.Value, pos prog.Pos) (prog.Expr, error) {
	switch v := v.(type) {
	case *ir.Param:
		if e, ok := fr.args[v]; ok {
			return e, nil
		}
		return nil, l.errAt(pos, "parameter %s of %s has no argument", v.Ident(), fr.f.Name())
	case *ir.Arg:
		return l.operand(fr, v.Value, pos)
	case *ir.InstCmpXchg:
		return nil, l.errAt(pos, "the result pair of cmpxchg used as a whole")
	case value.Named:
		if _, ok := v.(ir.Instruction); ok {
			if e, ok := l.lateAddr(fr, v); ok {
				return e, nil // (lifetime.go)
			}
			return prog.Reg{Name: fr.reg(v)}, nil
		}
	}
	if c, ok := v.(constant.Constant); ok {
		cv, err := l.constValue(c)
		if err != nil {
			return nil, l.errAt(pos, "unsupported %v", err)
		}
		return cv.expr(), nil
	}
	return nil, l.errAt(pos, "unsupported operand %s", v.Ident())
}

// lowerFunc inlines f with the given arguments into b; its return value,
// if retDst is not empty, goes to register retDst.
func (l *lowerer) lowerFunc(b *builder, f *ir.Func, args []prog.Expr, retDst string, depth int, pos prog.Pos) error {
	if !f.Sig.Variadic {
		l.nextVA = ""
	}
	if l.expired() {
		return errDeadline
	}
	if l.active[f] >= max(l.bound, 1) {
		// Recursion deeper than the bound: this path stops at the
		// bound, as a loop that needs more iterations does (BOUND).
		b.emit(prog.Assign{Dst: compile.BoundReg, Val: prog.Int(1)})
		b.emit(prog.Jump{Target: exitLabel})
		return nil
	}
	if depth > maxInline {
		return l.errAt(pos, "calls nested deeper than %d: %s", maxInline, f.Name())
	}
	if l.active == nil {
		l.active = map[*ir.Func]int{}
	}
	l.active[f]++
	defer func() { l.active[f]-- }()
	if len(f.Blocks) == 0 {
		return l.errAt(pos, "call to %s, which has no definition and is not supported", f.Name())
	}
	va := l.nextVA
	l.nextVA = ""
	if f.Sig.Variadic && va == "" {
		return l.errAt(pos, "call to %s, a variadic function, through a function pointer (unsupported: only direct calls pass variable arguments)", f.Name())
	}
	l.inst++
	fr := &frame{f: f, prefix: fmt.Sprintf("%s.%d.", f.Name(), l.inst), args: map[*ir.Param]prog.Expr{}, retDst: retDst, depth: depth, b: b, va: va}
	fr.retLbl = fr.prefix + "ret"
	if n := len(l.frames); n > 0 {
		up := l.frames[n-1]
		fr.inLoop = up.inLoop || (up.blk != nil && l.cyclic(up.f)[up.blk])
	}
	l.frames = append(l.frames, fr)
	defer func() { l.frames = l.frames[:len(l.frames)-1] }()
	for i, p := range f.Params {
		if i < len(args) {
			// Arguments go through registers, so that the callee sees
			// the values of the call.
			r := fr.prefix + "arg" + fmt.Sprint(i)
			b.emit(prog.Assign{Dst: r, Val: args[i]})
			fr.args[p] = prog.Reg{Name: r}
		} else {
			fr.args[p] = prog.Int(0)
		}
	}
	fr.loops = l.loopsOf(f)
	order := layout(f)
	fr.latches = loopLatches(f, order)
	for _, blk := range order {
		b.emit(prog.Label{Name: fr.blockLabel(blk)})
		fr.blk = blk
		for _, r := range fr.loops.heads[blk] {
			b.emit(prog.Assign{Dst: ranReg(fr.reg(r)), Val: prog.Int(0)})
		}
		for _, c := range fr.loops.lkHeads[blk] {
			b.emit(prog.Assign{Dst: ranReg(fr.reg(c)), Val: prog.Int(0)})
		}
		for _, in := range blk.Insts {
			if err := l.inst1(fr, in); err != nil {
				return err
			}
		}
		if err := l.term(fr, blk); err != nil {
			return err
		}
		for _, h := range fr.latches.after[blk] {
			b.emit(prog.Label{Name: fr.latchLabel(h)})
			b.emit(prog.Jump{Target: fr.blockLabel(h)})
		}
	}
	b.emit(prog.Label{Name: fr.retLbl})
	for _, tr := range fr.endAtRet {
		endLifetime(b, tr)
	}
	return nil
}
