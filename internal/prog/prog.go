// Package prog is the program IR shared by every front-end: threads of
// instructions over registers and shared locations (loads, stores,
// read-modify-writes, fences, local computation, branches to labels).
// Front-ends (litmus dialects, the C11-like language of Dartagnan and
// Porthos, assembly)
// translate into it; the engines execute it.
package prog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/source"
)

// Value is a concrete value: an integer, or the address of a shared
// location (Loc != "") plus an offset Int.
type Value struct {
	Loc string
	Int int64
}

// IntValue returns the integer value v.
func IntValue(v int64) Value { return Value{Int: v} }

// AddrValue returns the address of location loc.
func AddrValue(loc string) Value { return Value{Loc: loc} }

// IsAddr tells whether v is an address.
func (v Value) IsAddr() bool { return v.Loc != "" }

// String prints integers in decimal and addresses by their location name.
func (v Value) String() string {
	if v.Loc == "" {
		return strconv.FormatInt(v.Int, 10)
	}
	if v.Int == 0 {
		return v.Loc
	}
	return fmt.Sprintf("%s+%d", v.Loc, v.Int)
}

// MarshalText prints v as String does (for JSON).
func (v Value) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Op is an operator of an expression.
type Op int

// The operators. Comparisons and logical operators yield 0 or 1.
const (
	OpAdd Op = iota
	OpSub
	OpMul
	OpDiv
	OpMod
	OpAnd // bitwise
	OpOr  // bitwise
	OpXor
	OpShl
	OpShr
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpLAnd // logical
	OpLOr  // logical
	OpNeg  // unary minus
	OpNot  // logical not
	OpBNot // bitwise not
	// OpPick is X, chosen by a condition computed from Y: the value is
	// X's, its data dependencies are X's, and Y's reads reach it only as
	// a pick dependency (herd7's iico_ctrl inside an instruction: AArch64
	// CSEL's flags, CAS's comparison). Engines that do not track pick
	// dependencies refuse it (HasPick).
	OpPick
)

var opNames = [...]string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "-", "!", "~", "pick"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op" + strconv.Itoa(int(o))
}

// Expr is a side-effect-free expression over registers and constants.
type Expr interface{ isExpr() }

// Const is a constant value.
type Const struct{ V Value }

// Reg is the current value of a thread-local register.
type Reg struct{ Name string }

// Old is, inside an RMW's Cond and New, the value the RMW read.
type Old struct{}

// Bin is a binary operation.
type Bin struct {
	Op   Op
	X, Y Expr
}

// Un is a unary operation.
type Un struct {
	Op Op
	X  Expr
}

func (Const) isExpr() {}
func (Reg) isExpr()   {}
func (Old) isExpr()   {}
func (Bin) isExpr()   {}
func (Un) isExpr()    {}

// Int is a shorthand for an integer constant expression. It is never
// inlined: the front-ends call it from hundreds of places, and each
// inlined copy boxes a constant (see source.ErrorList.Add for why copies
// cost).
//
//go:noinline
func Int(v int64) Expr { return Const{V: IntValue(v)} }

// Addr is a shorthand for the address of a location.
func Addr(loc string) Expr { return Const{V: AddrValue(loc)} }

// Pos is a source position of an instruction, for messages: the one
// position type of the front-ends (package source).
type Pos = source.Pos

// Instr is one instruction of a thread.
type Instr interface{ isInstr() }

// Load reads the location at Addr into register Dst. Tags annotate the
// read event (e.g. "A" for acquire, "X" for atomic, "EX" for exclusive).
type Load struct {
	Dst  string
	Addr Expr
	Tags []string
	// Part marks a further part of the previous instruction's access: a
	// mixed-size access split into chunks (see Thread.Sizes) is one Load
	// per chunk, all in one instruction instance (no po among their
	// events; sm relates them).
	Part bool
	// Cells, when not nil, are the locations Addr may denote, by a
	// front-end's address analysis (every execution's address is one of
	// them; the front-end makes sure of it). The SMT engine resolves a
	// computed address against them only, where it would otherwise try
	// every location; the address stays a value, with its dependencies.
	Cells []string
}

// Store writes Val to the location at Addr.
type Store struct {
	Addr Expr
	Val  Expr
	Tags []string
	// Part marks a further part of the previous instruction's access, as
	// Load.Part does.
	Part bool
	// Cells: as Load.Cells.
	Cells []string
}

// RMW is an atomic read-modify-write: it reads the location at Addr
// (the value is Old in Cond and New, and goes to register Dst when Dst is
// not empty); then, when Cond is nil or evaluates to non-zero, it writes
// New. The read and the write form one rmw pair; RTags and WTags annotate
// them (e.g. "X" for x86's locked instructions).
type RMW struct {
	Dst   string
	Addr  Expr
	Cond  Expr
	New   Expr
	RTags []string
	WTags []string
	// FailRTags, when not nil, replaces RTags on the read of an RMW whose
	// Cond is false (C's compare-and-swap with a failure order that differs
	// from its success order: the failing CAS is a plain read).
	FailRTags []string
	// Part marks a further part of the previous instruction's access, as
	// Load.Part does: a mixed-size swap over several chunks of a location
	// is one RMW per chunk, each with its own read-write pair.
	Part bool
	// Single makes the read and the write ONE event for the memory model
	// (a RISC-V AMO: RVWMO makes it one memory operation, both a load and
	// a store, as herd7 does with one event in R and W). The engines still
	// run it as a read and a write (its rf in, its co place and values);
	// the model sees one event in R, W and M with the read's rf in, the
	// write's rf out and co place, no po, rmw or iico pair inside, and no
	// read of its own write (see event.Fuse).
	Single bool
	// Cells: as Load.Cells.
	Cells []string
}

// StoreCond is a store-conditional (PPC stwcx., ARM STREX/STXR, RISC-V
// sc): it either writes Val to the location at Addr, paired with the
// thread's latest load-reserve (a Load tagged "EX"), or fails without
// writing — always possibly, spuriously. Status, when not empty, receives
// OkVal on success and FailVal on failure.
type StoreCond struct {
	Addr    Expr
	Val     Expr
	Status  string
	OkVal   Value
	FailVal Value
	Tags    []string // tags of the write; front-ends include "EX"
	// StatusDeps makes the status register depend on the write, so that
	// later accesses whose address, data or control use it are ordered
	// after it (RISC-V: a successful sc's rd is a dependency source).
	StatusDeps bool
	// Part marks a further part of the previous store-conditional, as
	// Load.Part does (a mixed-size store exclusive over several chunks):
	// it succeeds exactly when the first part does, paired with the
	// load-reserve part of its own chunk, and sets no status.
	Part bool
	// Cells: as Load.Cells.
	Cells []string
}

// Fence is a barrier event; Tags name its kind (e.g. "MFENCE").
type Fence struct{ Tags []string }

// Assign sets register Dst to Val (local computation, no memory event).
type Assign struct {
	Dst string
	Val Expr
}

// Jump goes to Target when Cond is nil or evaluates to non-zero.
type Jump struct {
	Cond   Expr
	Target string
	// Join, when not empty, names the label where the control dependency
	// of this conditional jump ends (see ctrl.go in packages symexec and
	// bmc): C's if/else, whose branches join there. Empty, as in
	// assembly, the dependency covers everything after the jump.
	Join string
	// NoCtrl marks a jump a front-end adds inside one instruction (RISC-V's
	// sc adding its success dependencies): it makes no control dependency.
	NoCtrl bool
	// Either marks a choice the engines make both ways, whatever Cond
	// holds (AArch64's CAS, whose register write herd7 has two event
	// structures for: aarch64_pick.go in package litmus). It is always
	// NoCtrl: the choice depends on nothing. Cond is a value unknown
	// before the run, so that code reading jumps without this field
	// (static analyses) takes both ways too.
	Either bool
}

// Label marks a jump target.
type Label struct{ Name string }

func (Load) isInstr()      {}
func (Store) isInstr()     {}
func (RMW) isInstr()       {}
func (Fence) isInstr()     {}
func (StoreCond) isInstr() {}
func (Assign) isInstr()    {}
func (Jump) isInstr()      {}
func (Label) isInstr()     {}

// Thread is one process of a program.
type Thread struct {
	ID   int
	Name string // e.g. "P0"
	Code []Instr
	Pos  []Pos // Pos[i] is where Code[i] comes from (may be empty)
	// NonAtomic lists the locations the program declares non-atomic (C:
	// no thread's parameter has an atomic type); an engine tags their
	// initial writes "NAL".
	NonAtomic []string
	// Sizes, when not nil, gives the size in bytes of the access of each
	// instruction of Code (0: not an access, or the whole location): a
	// front-end that models mixed-size accesses records them here before
	// it lowers the test into per-chunk accesses.
	Sizes []int
}

// IsPart tells whether in continues the previous instruction's instance
// (a further chunk of a mixed-size access).
func IsPart(in Instr) bool {
	switch in := in.(type) {
	case Load:
		return in.Part
	case Store:
		return in.Part
	case RMW:
		return in.Part
	case StoreCond:
		return in.Part
	}
	return false
}

// Labels maps each label of t to its index in Code.
func (t *Thread) Labels() (map[string]int, error) {
	m := map[string]int{}
	for i, in := range t.Code {
		if l, ok := in.(Label); ok {
			if _, dup := m[l.Name]; dup {
				return nil, fmt.Errorf("%s: label %s defined twice", t.Name, l.Name)
			}
			m[l.Name] = i
		}
	}
	for _, in := range t.Code {
		if j, ok := in.(Jump); ok {
			if _, ok := m[j.Target]; !ok {
				return nil, fmt.Errorf("%s: jump to undefined label %s", t.Name, j.Target)
			}
		}
	}
	return m, nil
}

// ExprString prints an expression for messages and debugging.
func ExprString(e Expr) string {
	switch e := e.(type) {
	case Const:
		return e.V.String()
	case Reg:
		return e.Name
	case Old:
		return "old"
	case Bin:
		return "(" + ExprString(e.X) + " " + e.Op.String() + " " + ExprString(e.Y) + ")"
	case Un:
		return e.Op.String() + ExprString(e.X)
	case nil:
		return "<nil>"
	}
	return fmt.Sprintf("%v", e)
}

// InstrString prints an instruction for messages and debugging.
func InstrString(in Instr) string {
	tags := func(t []string) string {
		if len(t) == 0 {
			return ""
		}
		return "." + strings.Join(t, ".")
	}
	switch in := in.(type) {
	case Load:
		return fmt.Sprintf("%s%s = load%s [%s]", part(in.Part), in.Dst, tags(in.Tags), ExprString(in.Addr))
	case Store:
		return fmt.Sprintf("%sstore%s [%s] %s", part(in.Part), tags(in.Tags), ExprString(in.Addr), ExprString(in.Val))
	case RMW:
		c := ""
		if in.Cond != nil {
			c = " if " + ExprString(in.Cond)
		}
		return fmt.Sprintf("%s%s = rmw%s/%s [%s] %s%s", part(in.Part), in.Dst, tags(in.RTags), tags(in.WTags), ExprString(in.Addr), ExprString(in.New), c)
	case StoreCond:
		return fmt.Sprintf("%s%s = storecond%s [%s] %s", part(in.Part), in.Status, tags(in.Tags), ExprString(in.Addr), ExprString(in.Val))
	case Fence:
		return "fence" + tags(in.Tags)
	case Assign:
		return fmt.Sprintf("%s = %s", in.Dst, ExprString(in.Val))
	case Jump:
		if in.Cond == nil {
			return "goto " + in.Target
		}
		if in.Either {
			return "either goto " + in.Target
		}
		return fmt.Sprintf("if %s goto %s", ExprString(in.Cond), in.Target)
	case Label:
		return in.Name + ":"
	}
	return fmt.Sprintf("%v", in)
}

// part prefixes the printed further parts of an access.
func part(p bool) string {
	if p {
		return "+ "
	}
	return ""
}
