package cfront

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

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

// maxInline bounds the depth of inlined calls (recursion is refused).
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
	return fmt.Sprintf("%s:%d: %s", e.pos.File, e.pos.Line, e.msg)
}

// assertion is an assertion site: its number is the value of failReg.
type assertion struct {
	pos  prog.Pos
	text string
}

// site is a pthread_create or pthread_join call site of a thread's
// template code: the placeholder Fence{Tags: {placeholder, index}} stands
// for it until the thread's loops are unrolled.
type site struct {
	join bool
	fn   *ir.Func  // create: the thread function
	arg  prog.Expr // create: its argument
	tid  prog.Expr // create: the pthread_t address; join: the thread id
	ret  prog.Expr // join: where the thread's result goes (nil: nowhere)
	pos  prog.Pos
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
	loops   map[*ir.Func]*loopInfo
	noSpin  bool

	created  []created  // the threads: 0 is main
	coins    int        // coin locations numbered so far
	lastCoin string     // the register of the latest coin read
	heap     []int64    // the sizes of the malloc call sites
	spins    []spinSite // the places a thread may stop waiting (numbered from 1)
	objects  int        // heap objects made so far
}

// initCell is a shared location and its initial value.
type initCell struct {
	name string
	val  cval
}

func (l *lowerer) errAt(pos prog.Pos, format string, args ...any) error {
	return &lowerError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

// posOf is the source position of an instruction (its !dbg location).
func (l *lowerer) posOf(md ir.Metadata) prog.Pos {
	for _, a := range md {
		if a.Name == "dbg" {
			if loc, ok := a.Node.(*metadata.DILocation); ok {
				return prog.Pos{File: l.file, Line: int(loc.Line), Col: int(loc.Column)}
			}
		}
	}
	return prog.Pos{File: l.file}
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
		return l.errAt(pos, "%s: unsupported %v", base, err)
	}
	for _, c := range cs {
		n := locName(base, c.off)
		if l.locs[n] {
			continue
		}
		l.locs[n] = true
		l.init = append(l.init, initCell{name: n, val: c.val})
	}
	return nil
}

// globals declares every global variable.
func (l *lowerer) globals() error {
	for _, g := range l.mod.Globals {
		name := g.Name()
		if strings.HasPrefix(name, ".str") || strings.HasPrefix(name, "__PRETTY_FUNCTION__") || strings.HasPrefix(name, "__func__") {
			continue // assertion texts
		}
		var init constant.Constant
		if g.Init != nil {
			init = g.Init
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
				return prog.Pos{File: l.file, Line: int(e.Var.Line)}
			}
		}
	}
	return prog.Pos{File: l.file}
}

// constValue evaluates a constant: an integer or an address.
func (l *lowerer) constValue(c constant.Constant) (cval, error) {
	switch c := c.(type) {
	case *constant.Int:
		if c.Typ.BitSize == 1 {
			if c.X.Sign() != 0 {
				return cval{n: 1}, nil
			}
			return cval{}, nil
		}
		return cval{n: c.X.Int64()}, nil
	case *constant.Null, *constant.ZeroInitializer, *constant.Undef, *constant.Poison:
		return cval{}, nil
	case *ir.Global:
		return cval{loc: c.Name()}, nil
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
		return cval{}, fmt.Errorf("function pointer @%s stored as data", c.Name())
	}
	return cval{}, fmt.Errorf("constant %s", c.Ident())
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

// intBits is the width of an integer type (64 for pointers and others).
func intBits(t types.Type) uint64 {
	if it, ok := t.(*types.IntType); ok {
		return it.BitSize
	}
	return 64
}

// zext is x as an unsigned N-bit value (values are kept sign-extended).
func zext(x prog.Expr, bits uint64) prog.Expr {
	if bits >= 64 || bits == 1 {
		return x
	}
	return prog.Bin{Op: prog.OpAnd, X: x, Y: prog.Int(int64(1)<<bits - 1)}
}

// orderTag is the C11 tag of an LLVM ordering.
func orderTag(o enum.AtomicOrdering) string {
	switch o {
	case enum.AtomicOrderingAcquire:
		return "ACQ"
	case enum.AtomicOrderingRelease:
		return "REL"
	case enum.AtomicOrderingAcquireRelease:
		return "ACQ_REL"
	case enum.AtomicOrderingSequentiallyConsistent:
		return "SC"
	}
	return "RLX"
}

func accessTags(atomic bool, o enum.AtomicOrdering) []string {
	if !atomic {
		return []string{tagNA}
	}
	return []string{tagA, orderTag(o)}
}

func rmwTags(o enum.AtomicOrdering) []string {
	return []string{tagA, orderTag(o), tagRMW, tagX}
}

// lowerFunc inlines f with the given arguments into b; its return value,
// if retDst is not empty, goes to register retDst.
func (l *lowerer) lowerFunc(b *builder, f *ir.Func, args []prog.Expr, retDst string, depth int, pos prog.Pos) error {
	if depth > maxInline {
		return l.errAt(pos, "calls nested deeper than %d (recursion is not supported): %s", maxInline, f.Name())
	}
	if len(f.Blocks) == 0 {
		return l.errAt(pos, "call to %s, which has no definition and is not supported", f.Name())
	}
	if f.Sig.Variadic {
		return l.errAt(pos, "variadic function %s", f.Name())
	}
	l.inst++
	fr := &frame{f: f, prefix: fmt.Sprintf("%s.%d.", f.Name(), l.inst), args: map[*ir.Param]prog.Expr{}, retDst: retDst, depth: depth, b: b}
	fr.retLbl = fr.prefix + "ret"
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
	for _, blk := range layout(f) {
		b.emit(prog.Label{Name: fr.blockLabel(blk)})
		for _, in := range blk.Insts {
			if err := l.inst1(fr, in); err != nil {
				return err
			}
		}
		if err := l.term(fr, blk); err != nil {
			return err
		}
	}
	b.emit(prog.Label{Name: fr.retLbl})
	return nil
}

func termMD(t ir.Terminator) ir.Metadata {
	if m, ok := t.(interface{ MDAttachments() []*metadata.Attachment }); ok {
		return m.MDAttachments()
	}
	return nil
}

func instMD(in ir.Instruction) ir.Metadata {
	if m, ok := in.(interface{ MDAttachments() []*metadata.Attachment }); ok {
		return m.MDAttachments()
	}
	return nil
}

// inst1 lowers one instruction.
func (l *lowerer) inst1(fr *frame, in ir.Instruction) error {
	b := fr.b
	pos := l.posOf(instMD(in))
	if pos.Line != 0 {
		b.cur = pos
	}
	pos = b.cur
	op := func(v value.Value) (prog.Expr, error) { return l.operand(fr, v, pos) }
	assign := func(dst value.Named, e prog.Expr) { b.emit(prog.Assign{Dst: fr.reg(dst), Val: e}) }
	bin := func(dst value.Named, o prog.Op, x, y value.Value, unsigned bool) error {
		a, err := op(x)
		if err != nil {
			return err
		}
		c, err := op(y)
		if err != nil {
			return err
		}
		if unsigned {
			bits := intBits(x.Type())
			a, c = zext(a, bits), zext(c, bits)
		}
		assign(dst, prog.Bin{Op: o, X: a, Y: c})
		return nil
	}
	switch in := in.(type) {
	case *ir.InstAdd:
		return bin(in, prog.OpAdd, in.X, in.Y, false)
	case *ir.InstSub:
		return bin(in, prog.OpSub, in.X, in.Y, false)
	case *ir.InstMul:
		return bin(in, prog.OpMul, in.X, in.Y, false)
	case *ir.InstSDiv:
		return bin(in, prog.OpDiv, in.X, in.Y, false)
	case *ir.InstUDiv:
		return bin(in, prog.OpDiv, in.X, in.Y, true)
	case *ir.InstSRem:
		return bin(in, prog.OpMod, in.X, in.Y, false)
	case *ir.InstURem:
		return bin(in, prog.OpMod, in.X, in.Y, true)
	case *ir.InstAnd:
		return bin(in, prog.OpAnd, in.X, in.Y, false)
	case *ir.InstOr:
		return bin(in, prog.OpOr, in.X, in.Y, false)
	case *ir.InstXor:
		if intBits(in.X.Type()) == 1 {
			return bin(in, prog.OpNe, in.X, in.Y, false)
		}
		return bin(in, prog.OpXor, in.X, in.Y, false)
	case *ir.InstShl:
		return bin(in, prog.OpShl, in.X, in.Y, false)
	case *ir.InstLShr:
		return bin(in, prog.OpShr, in.X, in.Y, true)
	case *ir.InstAShr:
		return bin(in, prog.OpShr, in.X, in.Y, false)
	case *ir.InstICmp:
		ops := map[enum.IPred]prog.Op{
			enum.IPredEQ: prog.OpEq, enum.IPredNE: prog.OpNe,
			enum.IPredSGE: prog.OpGe, enum.IPredSGT: prog.OpGt, enum.IPredSLE: prog.OpLe, enum.IPredSLT: prog.OpLt,
			enum.IPredUGE: prog.OpGe, enum.IPredUGT: prog.OpGt, enum.IPredULE: prog.OpLe, enum.IPredULT: prog.OpLt,
		}
		o, ok := ops[in.Pred]
		if !ok {
			return l.errAt(pos, "unsupported comparison %s", in.Pred)
		}
		unsigned := in.Pred >= enum.IPredUGE && in.Pred <= enum.IPredULT
		if _, isPtr := in.X.Type().(*types.PointerType); isPtr && o != prog.OpEq && o != prog.OpNe {
			return l.errAt(pos, "ordering comparison of pointers (icmp %s)", in.Pred)
		}
		if unsigned && intBits(in.X.Type()) > 1 {
			a, err := op(in.X)
			if err != nil {
				return err
			}
			c, err := op(in.Y)
			if err != nil {
				return err
			}
			assign(in, unsignedCmp(o, a, c))
			return nil
		}
		return bin(in, o, in.X, in.Y, unsigned)
	case *ir.InstZExt:
		x, err := op(in.From)
		if err != nil {
			return err
		}
		assign(in, zext(x, intBits(in.From.Type())))
	case *ir.InstSExt:
		x, err := op(in.From)
		if err != nil {
			return err
		}
		assign(in, x)
	case *ir.InstTrunc:
		x, err := op(in.From)
		if err != nil {
			return err
		}
		if intBits(in.To) == 1 {
			x = prog.Bin{Op: prog.OpAnd, X: x, Y: prog.Int(1)}
		}
		assign(in, x)
	case *ir.InstBitCast:
		x, err := op(in.From)
		if err != nil {
			return err
		}
		assign(in, x)
	case *ir.InstPtrToInt:
		x, err := op(in.From)
		if err != nil {
			return err
		}
		assign(in, x)
	case *ir.InstIntToPtr:
		x, err := op(in.From)
		if err != nil {
			return err
		}
		assign(in, x)
	case *ir.InstAddrSpaceCast:
		x, err := op(in.From)
		if err != nil {
			return err
		}
		assign(in, x)
	case *ir.InstFreeze:
		x, err := op(in.X)
		if err != nil {
			return err
		}
		assign(in, x)
	case *ir.InstSelect:
		c, err := op(in.Cond)
		if err != nil {
			return err
		}
		t, err := op(in.ValueTrue)
		if err != nil {
			return err
		}
		f, err := op(in.ValueFalse)
		if err != nil {
			return err
		}
		lt, le := l.label("sel"), l.label("sel")
		b.emit(prog.Jump{Cond: c, Target: lt})
		assign(in, f)
		b.emit(prog.Jump{Target: le})
		b.emit(prog.Label{Name: lt})
		assign(in, t)
		b.emit(prog.Label{Name: le})
	case *ir.InstGetElementPtr:
		return l.gep(fr, in, pos)
	case *ir.InstAlloca:
		l.allocs[fr.f.Name()+"."+in.Name()]++
		name := fmt.Sprintf("%s.%s", strings.TrimPrefix(fr.prefix, "."), strings.TrimPrefix(in.Name(), "%"))
		name = strings.ReplaceAll(name, "..", ".")
		if in.NElems != nil {
			if c, ok := in.NElems.(*constant.Int); !ok || c.X.Int64() != 1 {
				return l.errAt(pos, "alloca of a variable number of elements")
			}
		}
		if err := l.addObject(name, in.ElemType, nil, pos); err != nil {
			return err
		}
		var cs []cell
		_ = l.cells(in.ElemType, nil, 0, &cs)
		for _, c := range cs {
			l.nonAt[locName(name, c.off)] = true
		}
		assign(in, prog.Addr(name))
	case *ir.InstLoad:
		a, err := op(in.Src)
		if err != nil {
			return err
		}
		if err := scalarAccess(in.ElemType); err != nil {
			return l.errAt(pos, "load of %v", err)
		}
		b.emit(prog.Load{Dst: fr.reg(in), Addr: a, Tags: accessTags(in.Atomic, in.Ordering)})
	case *ir.InstStore:
		a, err := op(in.Dst)
		if err != nil {
			return err
		}
		v, err := op(in.Src)
		if err != nil {
			return err
		}
		if err := scalarAccess(in.Src.Type()); err != nil {
			return l.errAt(pos, "store of %v", err)
		}
		b.emit(prog.Store{Addr: a, Val: v, Tags: accessTags(in.Atomic, in.Ordering)})
	case *ir.InstCmpXchg:
		a, err := op(in.Ptr)
		if err != nil {
			return err
		}
		cmp, err := op(in.Cmp)
		if err != nil {
			return err
		}
		nv, err := op(in.New)
		if err != nil {
			return err
		}
		old := fr.reg(in) + ".0"
		okr := fr.reg(in) + ".1"
		cond := prog.Expr(prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: cmp})
		if in.Weak {
			// A weak compare-and-swap may fail spuriously: a coin (see
			// coins) decides whether it may succeed.
			c := l.coin(b)
			cond = prog.Bin{Op: prog.OpLAnd, X: cond, Y: prog.Reg{Name: c}}
		}
		r := prog.RMW{Dst: old, Addr: a, Cond: cond, New: nv, RTags: rmwTags(in.SuccessOrdering), WTags: rmwTags(in.SuccessOrdering)}
		if in.FailureOrdering != in.SuccessOrdering {
			r.FailRTags = rmwTags(in.FailureOrdering)
		}
		b.emit(r)
		ok := prog.Expr(prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: old}, Y: cmp})
		if in.Weak {
			ok = prog.Bin{Op: prog.OpLAnd, X: ok, Y: prog.Reg{Name: l.lastCoin}}
		}
		b.emit(prog.Assign{Dst: okr, Val: ok})
	case *ir.InstAtomicRMW:
		a, err := op(in.Dst)
		if err != nil {
			return err
		}
		x, err := op(in.X)
		if err != nil {
			return err
		}
		nv, err := rmwNew(in.Op, x, intBits(in.X.Type()))
		if err != nil {
			return l.errAt(pos, "%v", err)
		}
		b.emit(prog.RMW{Dst: fr.reg(in), Addr: a, New: nv, RTags: rmwTags(in.Ordering), WTags: rmwTags(in.Ordering)})
	case *ir.InstFence:
		if in.SyncScope == "singlethread" {
			return nil // atomic_signal_fence: a compiler barrier only
		}
		b.emit(prog.Fence{Tags: []string{orderTag(in.Ordering)}})
	case *ir.InstExtractValue:
		src, ok := in.X.(*ir.InstCmpXchg)
		if !ok || len(in.Indices) != 1 || in.Indices[0] > 1 {
			return l.errAt(pos, "extractvalue (aggregate values other than cmpxchg's result)")
		}
		assign(in, prog.Reg{Name: fr.reg(src) + fmt.Sprintf(".%d", in.Indices[0])})
	case *ir.InstPhi:
		// Assigned on the edges into the block (see term).
	case *ir.InstCall:
		return l.call(fr, in, pos)
	default:
		return l.errAt(pos, "unsupported LLVM instruction %s", instName(in))
	}
	return nil
}

// instName is the LLVM opcode of an instruction, for messages.
func instName(in ir.Instruction) string {
	s := in.LLString()
	if i := strings.Index(s, " = "); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	return s
}

// scalarAccess refuses accesses to aggregates and floats.
func scalarAccess(t types.Type) error {
	switch t.(type) {
	case *types.IntType, *types.PointerType:
		return nil
	}
	return fmt.Errorf("type %s (only integers and pointers are supported)", t)
}

// rmwNew is the value an atomicrmw writes, over Old.
func rmwNew(o enum.AtomicOp, x prog.Expr, bits uint64) (prog.Expr, error) {
	old := prog.Old{}
	switch o {
	case enum.AtomicOpXChg:
		return x, nil
	case enum.AtomicOpAdd:
		return prog.Bin{Op: prog.OpAdd, X: old, Y: x}, nil
	case enum.AtomicOpSub:
		return prog.Bin{Op: prog.OpSub, X: old, Y: x}, nil
	case enum.AtomicOpAnd:
		return prog.Bin{Op: prog.OpAnd, X: old, Y: x}, nil
	case enum.AtomicOpOr:
		return prog.Bin{Op: prog.OpOr, X: old, Y: x}, nil
	case enum.AtomicOpXor:
		return prog.Bin{Op: prog.OpXor, X: old, Y: x}, nil
	case enum.AtomicOpNAnd:
		return prog.Un{Op: prog.OpBNot, X: prog.Bin{Op: prog.OpAnd, X: old, Y: x}}, nil
	case enum.AtomicOpMax, enum.AtomicOpMin, enum.AtomicOpUMax, enum.AtomicOpUMin:
		a, c := prog.Expr(old), x
		if o == enum.AtomicOpUMax || o == enum.AtomicOpUMin {
			a, c = zext(a, bits), zext(c, bits)
		}
		cmp := prog.OpGt
		if o == enum.AtomicOpMin || o == enum.AtomicOpUMin {
			cmp = prog.OpLt
		}
		// old if old cmp x, else x: x + (old - x)·(old cmp x).
		return prog.Bin{Op: prog.OpAdd, X: x, Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpSub, X: old, Y: x}, Y: prog.Bin{Op: cmp, X: a, Y: c}}}, nil
	}
	return nil, fmt.Errorf("unsupported atomicrmw %s (floating point)", o)
}

// gep lowers a getelementptr: the base plus the scaled indices.
func (l *lowerer) gep(fr *frame, in *ir.InstGetElementPtr, pos prog.Pos) error {
	base, err := l.operand(fr, in.Src, pos)
	if err != nil {
		return err
	}
	e := base
	add := func(x prog.Expr) { e = prog.Bin{Op: prog.OpAdd, X: e, Y: x} }
	t := in.ElemType
	for k, iv := range in.Indices {
		idx, err := l.operand(fr, iv, pos)
		if err != nil {
			return err
		}
		var scale int64
		if k == 0 {
			scale, err = sizeOf(t)
			if err != nil {
				return l.errAt(pos, "getelementptr over %v", err)
			}
		} else {
			switch tt := t.(type) {
			case *types.ArrayType:
				scale, err = sizeOf(tt.ElemType)
				if err != nil {
					return l.errAt(pos, "getelementptr over %v", err)
				}
				t = tt.ElemType
			case *types.StructType:
				c, ok := idx.(prog.Const)
				if !ok || c.V.IsAddr() {
					return l.errAt(pos, "getelementptr: variable struct field index")
				}
				offs, _, err := structLayout(tt)
				if err != nil {
					return l.errAt(pos, "getelementptr over %v", err)
				}
				if c.V.Int < 0 || int(c.V.Int) >= len(offs) {
					return l.errAt(pos, "getelementptr: field %d out of range", c.V.Int)
				}
				if offs[c.V.Int] != 0 {
					add(prog.Int(offs[c.V.Int]))
				}
				t = tt.Fields[c.V.Int]
				continue
			default:
				return l.errAt(pos, "getelementptr into %s", t)
			}
		}
		if c, ok := idx.(prog.Const); ok && !c.V.IsAddr() {
			if c.V.Int*scale != 0 {
				add(prog.Int(c.V.Int * scale))
			}
			continue
		}
		if scale == 1 {
			add(idx)
		} else {
			add(prog.Bin{Op: prog.OpMul, X: idx, Y: prog.Int(scale)})
		}
	}
	fr.b.emit(prog.Assign{Dst: fr.reg(in), Val: e})
	return nil
}

// term lowers a block's terminator, with the phi assignments of each
// edge on the edge.
func (l *lowerer) term(fr *frame, blk *ir.Block) error {
	b := fr.b
	pos := l.posOf(termMD(blk.Term))
	if pos.Line != 0 {
		b.cur = pos
	}
	pos = b.cur
	// edge emits the jump to target (when cond holds, or always when
	// cond is nil): straight to its label when it has no phi, else
	// through an edge block placed after the terminator.
	var edges []func() error
	edge := func(cond prog.Expr, target *ir.Block) {
		phis, spin := l.edgeWork(fr, blk, target)
		if !phis && !spin {
			b.emit(prog.Jump{Cond: cond, Target: fr.blockLabel(target)})
			return
		}
		lbl := l.label("edge")
		b.emit(prog.Jump{Cond: cond, Target: lbl})
		edges = append(edges, func() error {
			b.emit(prog.Label{Name: lbl})
			return l.edgeCode(fr, blk, target, pos)
		})
	}
	switch t := blk.Term.(type) {
	case *ir.TermRet:
		if t.X != nil && fr.retDst != "" {
			v, err := l.operand(fr, t.X, pos)
			if err != nil {
				return err
			}
			b.emit(prog.Assign{Dst: fr.retDst, Val: v})
		}
		b.emit(prog.Jump{Target: fr.retLbl})
	case *ir.TermBr:
		edge(nil, t.Target.(*ir.Block))
	case *ir.TermCondBr:
		c, err := l.operand(fr, t.Cond, pos)
		if err != nil {
			return err
		}
		edge(c, t.TargetTrue.(*ir.Block))
		edge(nil, t.TargetFalse.(*ir.Block))
	case *ir.TermSwitch:
		x, err := l.operand(fr, t.X, pos)
		if err != nil {
			return err
		}
		for _, c := range t.Cases {
			cv, err := l.operand(fr, c.X, pos)
			if err != nil {
				return err
			}
			edge(prog.Bin{Op: prog.OpEq, X: x, Y: cv}, c.Target.(*ir.Block))
		}
		edge(nil, t.TargetDefault.(*ir.Block))
	case *ir.TermUnreachable:
		b.emit(prog.Assign{Dst: blockedReg, Val: prog.Int(1)})
		b.emit(prog.Jump{Target: blockLabel})
	default:
		return l.errAt(pos, "unsupported terminator %s", blk.Term.LLString())
	}
	for _, e := range edges {
		if err := e(); err != nil {
			return err
		}
	}
	return nil
}

// phisOf lists the phi instructions of a block.
func phisOf(blk *ir.Block) []*ir.InstPhi {
	var out []*ir.InstPhi
	for _, in := range blk.Insts {
		if p, ok := in.(*ir.InstPhi); ok {
			out = append(out, p)
		}
	}
	return out
}

// edgeWork tells whether the edge from→to assigns phis and whether it is
// the back edge of a spin loop.
func (l *lowerer) edgeWork(fr *frame, from, to *ir.Block) (bool, bool) {
	return len(phisOf(to)) > 0, fr.loops.spin[[2]*ir.Block{from, to}] != nil
}

// edgeCode is the code of an edge block: the spin-loop cut, then the phi
// assignments (in parallel: through temporaries), then the jump.
func (l *lowerer) edgeCode(fr *frame, from, to *ir.Block, pos prog.Pos) error {
	b := fr.b
	phis := phisOf(to)
	vals := make([]prog.Expr, len(phis))
	for i, p := range phis {
		var v value.Value
		for _, inc := range p.Incs {
			if inc.Pred == from {
				v = inc.X
			}
		}
		if v == nil {
			return l.errAt(pos, "phi %s has no value for block %s", p.Ident(), from.Ident())
		}
		x, err := l.operand(fr, v, pos)
		if err != nil {
			return err
		}
		vals[i] = x
	}
	if sl := fr.loops.spin[[2]*ir.Block{from, to}]; sl != nil {
		// The iteration that ends here wrote nothing; when it also ends
		// in the state it started in (every phi of the header gets its
		// own value back), it can be left out of any execution: the
		// thread stops here instead of running it again.
		var cond prog.Expr = prog.Int(1)
		and := func(c prog.Expr) { cond = prog.Bin{Op: prog.OpLAnd, X: cond, Y: c} }
		for i, p := range phis {
			and(prog.Bin{Op: prog.OpEq, X: vals[i], Y: prog.Reg{Name: fr.reg(p)}})
		}
		site := spinSite{pos: pos, real: true}
		for _, c := range sl.cas {
			and(prog.Un{Op: prog.OpNot, X: prog.Reg{Name: fr.reg(c) + ".1"}})
			if a, err := l.operand(fr, c.Ptr, pos); err == nil {
				site.add(fr.reg(c)+".0", a)
			}
		}
		for _, r := range sl.rmws {
			x, err := l.operand(fr, r.X, pos)
			if err != nil {
				return err
			}
			nv, err := rmwNew(r.Op, x, intBits(r.X.Type()))
			if err != nil {
				return l.errAt(pos, "%v", err)
			}
			old := prog.Reg{Name: fr.reg(r)}
			and(prog.Bin{Op: prog.OpEq, X: replaceOld(nv, old), Y: old})
			if a, err := l.operand(fr, r.Dst, pos); err == nil {
				site.add(fr.reg(r), a)
			}
		}
		for _, ld := range sl.loads {
			var src value.Value
			switch ld := ld.(type) {
			case *ir.InstLoad:
				src = ld.Src
			case *ir.InstCall:
				src = ld.Args[0]
			}
			if a, err := l.operand(fr, src, pos); err == nil {
				site.add(fr.reg(ld.(value.Named)), a)
			}
		}
		l.spinAt(b, site)
		b.emit(prog.Jump{Cond: cond, Target: spinLabel})
	}
	tmps := make([]string, len(phis))
	for i := range phis {
		if len(phis) == 1 {
			break
		}
		tmps[i] = l.fresh("phi")
		b.emit(prog.Assign{Dst: tmps[i], Val: vals[i]})
	}
	for i, p := range phis {
		v := vals[i]
		if tmps[i] != "" {
			v = prog.Reg{Name: tmps[i]}
		}
		b.emit(prog.Assign{Dst: fr.reg(p), Val: v})
	}
	b.emit(prog.Jump{Target: fr.blockLabel(to)})
	return nil
}

// spinSite is a place where a thread stops waiting: a cut spin loop, a
// lock, a join or a thread's start. The thread waits forever in a fair
// execution when each of its reads there read the final value of its
// location (the co-last write): no later write can release it.
type spinSite struct {
	pos  prog.Pos
	real bool     // a spin loop, lock or join (a start is not a liveness bug)
	join bool     // a join (reported only when no spin loop or lock is)
	regs []string // the registers of the reads
	locs []string // the locations they read
	dyn  bool     // some read has a computed address: not expressible
}

func (s *spinSite) add(reg string, addr prog.Expr) {
	c, ok := addr.(prog.Const)
	if !ok || !c.V.IsAddr() {
		s.dyn = true
		return
	}
	s.regs = append(s.regs, reg)
	s.locs = append(s.locs, locName(c.V.Loc, c.V.Int))
}

// spinAt records a site and sets spinAtReg to its number.
func (l *lowerer) spinAt(b *builder, s spinSite) {
	l.spins = append(l.spins, s)
	b.emit(prog.Assign{Dst: spinAtReg, Val: prog.Int(int64(len(l.spins)))})
}

// unsignedCmp compares two sign-extended values as unsigned ones of their
// width, in linear arithmetic: when their signs agree, as signed values;
// else the negative one is the larger (its unsigned value is at least
// 2^(N-1)).
func unsignedCmp(o prog.Op, a, b prog.Expr) prog.Expr {
	if o == prog.OpGt || o == prog.OpGe {
		a, b = b, a
		o = map[prog.Op]prog.Op{prog.OpGt: prog.OpLt, prog.OpGe: prog.OpLe}[o]
	}
	neg := func(x prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpLt, X: x, Y: prog.Int(0)} }
	same := prog.Bin{Op: prog.OpEq, X: neg(a), Y: neg(b)}
	return prog.Bin{Op: prog.OpLOr,
		X: prog.Bin{Op: prog.OpLAnd, X: same, Y: prog.Bin{Op: o, X: a, Y: b}},
		Y: prog.Bin{Op: prog.OpLAnd, X: prog.Un{Op: prog.OpNot, X: same}, Y: neg(b)}}
}
