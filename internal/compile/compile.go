package compile

import (
	"fmt"
	"github.com/musket-verify/musket/internal/arch"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/pts"
	"github.com/musket-verify/musket/internal/spec"
	"slices"
	"sort"
)

// The targets of Compile.
const (
	X86     = "x86"
	Power   = "power"
	ARMv7   = "armv7"
	AArch64 = "aarch64"
	RISCV   = "riscv"
)

// Targets lists the targets of Compile, sorted: the compilation targets
// of the architectures (package arch), each with its mappings below.
func Targets() []string {
	return arch.Targets()
}

// ArchWord returns the herd architecture word of target ("PPC" for
// "power"), which compiled tests carry in Test.Arch so that they are run
// like litmus tests of that architecture.
func ArchWord(target string) (string, bool) {
	a, ok := arch.ByTarget(target)
	if !ok {
		return "", false
	}
	return a.Name, true
}

// Kind is the kind of a source memory access.
type Kind uint8

// The kinds of access.
const (
	Load Kind = iota
	Store
)

func (k Kind) String() string {
	if k == Load {
		return "Load"
	}
	return "Store"
}

// Step is one instruction of a mapping: the source access itself, or a
// fence.
type Step struct {
	Mnemonic string   // as the mapping tables write it: "lwz", "dmb ish"
	Access   bool     // the memory access (a Load or Store); else a fence
	Tags     []string // tags of the access or of the fence event
}

func access(mnemonic string, tags ...string) Step {
	return Step{Mnemonic: mnemonic, Access: true, Tags: tags}
}

func fence(mnemonic string, tags ...string) Step {
	return Step{Mnemonic: mnemonic, Tags: tags}
}

// The instructions of the mappings. Fence tags are the names herd's CAT
// files bind (see the package comment).
var (
	// x86
	mov    = access("MOV")
	mfence = fence("mfence", "MFENCE")
	// Power
	lwz    = access("lwz")
	stw    = access("stw")
	sync   = fence("sync", "SYNC")
	lwsync = fence("lwsync", "LWSYNC")
	// ARMv7
	ldr    = access("ldr")
	str    = access("str")
	dmbISH = fence("dmb ish", "DMB.ISH")
	// AArch64: acquire reads are A, release writes L (aarch64.cat).
	ldr64 = access("LDR")
	ldar  = access("LDAR", "A")
	str64 = access("STR")
	stlr  = access("STLR", "L")
	// RISC-V: fence PRED,SUCC is Fence.PRED.SUCC (riscv-defs.cat).
	lw        = access("lw")
	sw        = access("sw")
	fenceRWRW = fence("fence rw,rw", "Fence.rw.rw")
	fenceRRW  = fence("fence r,rw", "Fence.r.rw")
	fenceRWW  = fence("fence rw,w", "Fence.rw.w")
)

type key struct {
	target string
	kind   Kind
	order  string
}

// mappings is THE compilation table: (target, kind, C11 order) to steps.
//
// x86, Power, ARMv7: Table I of "BMC with Memory Models as Modules" (FMCAD 2018)
// (the LLVM 4.0 mappings), row by
// row.
//
// AArch64: the standard C11 mapping (the ARMv8 AArch64 column of the
// Cambridge "C/C++11 mappings to processors" table,
// https://www.cl.cam.ac.uk/~pes20/cpp/cpp0xmappings.html, which LLVM and
// GCC follow): relaxed accesses are plain LDR/STR, every stronger load is
// LDAR, every stronger store STLR.
//
// RISC-V: Table A.6 "Mappings from C/C++ primitives to RISC-V primitives"
// of the RISC-V Instruction Set Manual, Volume I (Unprivileged ISA),
// Appendix A (RVWMO explanatory material), fence-based column:
//
//	atomic_load(relaxed)    l{b|h|w|d}
//	atomic_load(acquire)    l{b|h|w|d}; fence r,rw
//	atomic_load(seq_cst)    fence rw,rw; l{b|h|w|d}; fence r,rw
//	atomic_store(relaxed)   s{b|h|w|d}
//	atomic_store(release)   fence rw,w; s{b|h|w|d}
//	atomic_store(seq_cst)   fence rw,w; s{b|h|w|d}
//
// The table has no consume row; a consume load is compiled as an acquire,
// as C/C++ compilers do (and as Table I does for the other targets).
var mappings = map[key][]Step{
	// C11                     x86
	{X86, Load, pts.Rx}:   {mov},
	{X86, Load, pts.Con}:  {mov},
	{X86, Load, pts.Acq}:  {mov},
	{X86, Load, pts.SC}:   {mov},
	{X86, Store, pts.Rx}:  {mov},
	{X86, Store, pts.Rel}: {mov},
	{X86, Store, pts.SC}:  {mov, mfence},

	// C11                       Power
	{Power, Load, pts.Rx}:   {lwz},
	{Power, Load, pts.Con}:  {lwz, lwsync},
	{Power, Load, pts.Acq}:  {lwz, lwsync},
	{Power, Load, pts.SC}:   {sync, lwz, lwsync},
	{Power, Store, pts.Rx}:  {stw},
	{Power, Store, pts.Rel}: {lwsync, stw},
	{Power, Store, pts.SC}:  {sync, stw},

	// C11                       ARMv7
	{ARMv7, Load, pts.Rx}:   {ldr},
	{ARMv7, Load, pts.Con}:  {ldr, dmbISH},
	{ARMv7, Load, pts.Acq}:  {ldr, dmbISH},
	{ARMv7, Load, pts.SC}:   {ldr, dmbISH},
	{ARMv7, Store, pts.Rx}:  {str},
	{ARMv7, Store, pts.Rel}: {dmbISH, str},
	{ARMv7, Store, pts.SC}:  {dmbISH, str, dmbISH},

	// C11                         AArch64
	{AArch64, Load, pts.Rx}:   {ldr64},
	{AArch64, Load, pts.Con}:  {ldar},
	{AArch64, Load, pts.Acq}:  {ldar},
	{AArch64, Load, pts.SC}:   {ldar},
	{AArch64, Store, pts.Rx}:  {str64},
	{AArch64, Store, pts.Rel}: {stlr},
	{AArch64, Store, pts.SC}:  {stlr},

	// C11                       RISC-V
	{RISCV, Load, pts.Rx}:   {lw},
	{RISCV, Load, pts.Con}:  {lw, fenceRRW},
	{RISCV, Load, pts.Acq}:  {lw, fenceRRW},
	{RISCV, Load, pts.SC}:   {fenceRWRW, lw, fenceRRW},
	{RISCV, Store, pts.Rx}:  {sw},
	{RISCV, Store, pts.Rel}: {fenceRWW, sw},
	{RISCV, Store, pts.SC}:  {fenceRWW, sw},
}

// Mapping returns the steps an access of the kind and C11 order compiles
// to on target, and false when the table has no such row (an unknown
// target, a store with order acq or con, a load with order rel).
func Mapping(target string, kind Kind, order string) ([]Step, bool) {
	steps, ok := mappings[key{target, kind, order}]
	if !ok {
		return nil, false
	}
	out := make([]Step, len(steps))
	for i, s := range steps {
		out[i] = Step{Mnemonic: s.Mnemonic, Access: s.Access, Tags: slices.Clone(s.Tags)}
	}
	return out, true
}

// Tags lists, sorted, every tag the events of a program compiled for
// target may carry (access and fence tags), so that an engine can bind
// each tag set of a model even when a program has no such event.
func Tags(target string) []string {
	seen := map[string]bool{}
	for k, steps := range mappings {
		if k.target != target {
			continue
		}
		for _, s := range steps {
			for _, t := range s.Tags {
				seen[t] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Compiled is a compiled program with the map back to its source.
type Compiled struct {
	Test   *spec.Test
	Target string
	// Origin[t][i] is the index, in the Code of source thread t, of the
	// instruction compiled instruction i of thread t comes from (every
	// compiled instruction comes from exactly one source instruction).
	Origin [][]int
	// srcLen[t] is the length of source thread t.
	srcLen []int
}

// Compile maps the C11 loads and stores of t to target (x86, power,
// armv7, aarch64, riscv) by the tables of this package; see CompileMap.
func Compile(t *spec.Test, target string) (*spec.Test, error) {
	c, err := CompileMap(t, target)
	if err != nil {
		return nil, err
	}
	return c.Test, nil
}

// CompileMap compiles t for target and records where each compiled
// instruction comes from. Every load and store of t must carry exactly
// one C11 order tag (sc, rel, acq, con, rx) that the table accepts for
// its kind; it becomes the steps of its mapping, the access keeping its
// register, address and value but only the target's tags. Assignments,
// jumps and labels are copied. Read-modify-writes and fences have no
// mapping and are errors. The init, condition, filter and locations of t
// are shared with the result, whose Arch is the target's herd word (X86,
// PPC, ARM, AArch64, RISCV).
func CompileMap(t *spec.Test, target string) (*Compiled, error) {
	word, ok := ArchWord(target)
	if !ok {
		return nil, fmt.Errorf("unknown compilation target %q (want one of %v)", target, Targets())
	}
	out := *t
	out.Arch = word
	out.Meta = map[string]string{}
	for k, v := range t.Meta {
		out.Meta[k] = v
	}
	out.Meta["target"] = target
	out.Init = slices.Clone(t.Init)
	out.Locations = slices.Clone(t.Locations)
	out.Threads = make([]*prog.Thread, len(t.Threads))
	c := &Compiled{Test: &out, Target: target, Origin: make([][]int, len(t.Threads)), srcLen: make([]int, len(t.Threads))}
	for i, th := range t.Threads {
		cth, origin, err := compileThread(th, target)
		if err != nil {
			return nil, err
		}
		out.Threads[i] = cth
		c.Origin[i] = origin
		c.srcLen[i] = len(th.Code)
	}
	return c, nil
}

func compileThread(th *prog.Thread, target string) (*prog.Thread, []int, error) {
	out := &prog.Thread{ID: th.ID, Name: th.Name}
	var origin []int
	withPos := len(th.Pos) == len(th.Code)
	for i, in := range th.Code {
		add := func(in prog.Instr) {
			out.Code = append(out.Code, in)
			origin = append(origin, i)
			if withPos {
				out.Pos = append(out.Pos, th.Pos[i])
			}
		}
		errorf := func(format string, args ...any) error {
			msg := fmt.Sprintf(format, args...)
			if withPos {
				return fmt.Errorf("%s: %s: %s", th.Pos[i], th.Name, msg)
			}
			return fmt.Errorf("%s: instruction %d: %s", th.Name, i, msg)
		}
		var kind Kind
		var tags []string
		switch in := in.(type) {
		case prog.Load:
			kind, tags = Load, in.Tags
		case prog.Store:
			kind, tags = Store, in.Tags
		case prog.Assign, prog.Jump, prog.Label:
			add(in)
			continue
		default:
			return nil, nil, errorf("%s has no %s mapping", prog.InstrString(in), target)
		}
		if len(tags) != 1 {
			return nil, nil, errorf("%s: want exactly one memory order tag (sc, rel, acq, con, rx)", prog.InstrString(in))
		}
		steps, ok := mappings[key{target, kind, tags[0]}]
		if !ok {
			return nil, nil, errorf("%s: no %s mapping for a %s with order %s", prog.InstrString(in), target, kind, tags[0])
		}
		for _, s := range steps {
			tags := slices.Clone(s.Tags)
			switch {
			case !s.Access:
				add(prog.Fence{Tags: tags})
			case kind == Load:
				l := in.(prog.Load)
				l.Tags = tags
				add(l)
			default:
				st := in.(prog.Store)
				st.Tags = tags
				add(st)
			}
		}
	}
	return out, origin, nil
}

// isMem tells whether in accesses memory.
func isMem(in prog.Instr) bool {
	switch in.(type) {
	case prog.Load, prog.Store, prog.RMW:
		return true
	}
	return false
}

// Access returns the index, in compiled thread t, of the memory access
// compiled from instruction src of the source thread, or -1 when that
// instruction is not a memory access.
func (c *Compiled) Access(t, src int) int {
	if t < 0 || t >= len(c.Origin) {
		return -1
	}
	for i, o := range c.Origin[t] {
		if o == src && isMem(c.Test.Threads[t].Code[i]) {
			return i
		}
	}
	return -1
}

// AccessMap relates two compilations of one source program, as Porthos'
// map π does: m[t][i] is, for the memory access at index i of thread t of
// b, the index in thread t of a of the memory access compiled from the
// same source instruction, and -1 at every index of b that is not a
// memory access. It fails when a and b do not come from programs of the
// same shape.
func AccessMap(a, b *Compiled) ([][]int, error) {
	if len(a.Origin) != len(b.Origin) {
		return nil, fmt.Errorf("compilations of %d and %d threads", len(a.Origin), len(b.Origin))
	}
	m := make([][]int, len(b.Origin))
	for t := range b.Origin {
		if a.srcLen[t] != b.srcLen[t] {
			return nil, fmt.Errorf("thread %d: compiled from sources of %d and %d instructions", t, a.srcLen[t], b.srcLen[t])
		}
		// fromSrc[j] is a's access of source instruction j.
		fromSrc := make([]int, a.srcLen[t])
		for j := range fromSrc {
			fromSrc[j] = -1
		}
		for i, o := range a.Origin[t] {
			if isMem(a.Test.Threads[t].Code[i]) {
				fromSrc[o] = i
			}
		}
		m[t] = make([]int, len(b.Origin[t]))
		for i, o := range b.Origin[t] {
			m[t][i] = -1
			if isMem(b.Test.Threads[t].Code[i]) {
				if fromSrc[o] < 0 {
					return nil, fmt.Errorf("thread %d: source instruction %d is a memory access in one compilation only", t, o)
				}
				m[t][i] = fromSrc[o]
			}
		}
	}
	return m, nil
}
