package litmus

// Mixed-size AArch64 tests (herd7's mixed mode; Flur et al., "Mixed-size
// concurrency: ARM, POWER, C/C++11, and SC", POPL 2017).
//
// Memory is bytes, little-endian: an access of n bytes at x+off touches
// bytes off..off+n-1 of x. herd7 splits every access into one event per
// byte; the events of one access are one instruction instance, related by
// sm, and the AArch64 model's single-copy atomicity (sca-class = [M &
// Exp]; sm; [M & Exp], in obs, in the local write successors and in the
// hazard order of reads) makes an aligned access behave as a whole towards
// other threads.
//
// Musket splits each location into chunks instead of bytes: the coarsest
// partition of its bytes such that every access of the test to it covers
// whole chunks (accesses at [0..7], [0..3] and [4..7] give the chunks
// [0..3] and [4..7]). This gives the same verdicts as bytes:
//   - every access that touches a byte of a chunk touches all of it, so
//     the byte events of a chunk always come in groups of one per byte
//     in the same access: each group is related by sm and by loc with
//     exactly the groups of the other bytes of the chunk (same accesses);
//   - a read cannot take two bytes of a chunk from two different writes,
//     and two writes cannot be ordered by co one way on a byte of a chunk
//     and the other way on another byte: both give an ob cycle through
//     sca-class (rfe/fre/coe; sm between the byte events of the same two
//     accesses), and inside a thread the internal (coherence) axiom
//     forbids it; so in every consistent execution rf and co are uniform
//     over a chunk, and the byte execution is the chunk execution with
//     each event copied per byte, relations copied pairwise;
//   - the model's relations are unions, sequences and closures of
//     relations that are copied uniformly, so their cycles and emptiness
//     are the same at both granularities.
//
// The lowering: each location is split into chunk locations named as the
// engines name an address with an offset ("x" for the chunk at offset 0,
// "x+4" for the chunk at offset 4); an access becomes one prog.Load or
// prog.Store per chunk it covers, the further ones marked Part (one
// instruction instance), with the value cut into chunks (store: v / 2^8k
// % 2^8n) or assembled from them (load: a sum of chunk · 2^8k; a smaller
// load zero-extends). chunks_test.go checks the equivalence with bytes on
// corpus tests. Initial values, the final condition, the filter and the
// locations list are rewritten on the chunks. Tests without sized
// locations, byte or half-word accesses or accesses at an offset are left
// as they are (herd's whole-location semantics).
//
// A misaligned access is lowered like an aligned one: one access, all of
// its chunks related by sm (herd7 makes all the bytes of one access one
// instance, so the AArch64 model keeps them single-copy atomic together:
// the MP+misaligned2 family is forbidden, as expected). An array of bytes
// is a location of its size; only the chunks some access covers exist.
//
// An access whose address is computed at run time from a value read, as
// an offset from a location known statically (base + W0, base + (W3 AND
// 128)), cannot be placed before running. Its location is then cut into
// chunks of one size g, the largest that divides the location's size and
// every offset and size of an access to it, among them every offset
// within the location the access may take: valueSet knows a small set of
// them for an index masked by a constant, else any offset may be taken
// and g is a byte. Every access then covers whole chunks wherever it
// goes, so the argument above holds, and the access becomes one access
// per chunk at its address plus 0, g, 2g, ...; the engines resolve those
// addresses when they run. An offset outside the location reaches no
// chunk: that execution is left out.
//
// What is refused, by name: an address computed at run time that is not
// an offset from a location of the test, a location reached at such an
// offset that would need more than maxDynamicChunks chunks,
// read-modify-writes that span several chunks (but swaps), and 128-bit
// locations (LDP and STP reach the mixed-size lowering as two accesses).

import (
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"math/bits"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// splitBytes makes every byte a chunk, as herd7 does: the tests check
// that chunks give the same verdicts.
var splitBytes bool

// a64TypeSize is the size in bytes of a sized location type.
func a64TypeSize(typ string) int {
	switch typ {
	case "int8_t", "uint8_t", "char":
		return 1
	case "int16_t", "uint16_t", "short":
		return 2
	case "int32_t", "uint32_t", "int":
		return 4
	case "int64_t", "uint64_t", "long":
		return 8
	}
	return 0
}

// a64Access is one memory access of a thread, placed statically.
type a64Access struct {
	thread, pc int
	loc        string
	off, size  int64
	known      bool // the address is known statically
	signed     bool // a load that sign-extends the value it reads
	// base is, for an access whose address is not known statically,
	// the location it is an offset from, when that is known: the
	// location a register of the initial state points to, plus an
	// offset computed at run time (from a value read). "" otherwise.
	base string
	// offs are the offsets from base the address may take, when a
	// small set of values is known for it (an index masked by a
	// constant, as in AND W6,W3,#128: 0 or 128); nil when any offset
	// may be taken.
	offs []int64
}

// a64Chunk is a chunk of a location: bytes [off, off+size).
type a64Chunk struct{ off, size int64 }

// chunkName names the chunk of loc at offset off as the engines name the
// address loc+off.
func chunkName(loc string, off int64) string {
	if off == 0 {
		return loc
	}
	return fmt.Sprintf("%s+%d", loc, off)
}

func sizeMask(size int64) int64 {
	if size >= 8 {
		return -1
	}
	return int64(1)<<(8*size) - 1
}

// a64StaticAccesses places every access of t (the value of its address
// before running, when a simple constant propagation knows it).
func a64StaticAccesses(t *spec.Test) []a64Access {
	var out []a64Access
	for ti, th := range t.Threads {
		if th.Sizes == nil {
			continue
		}
		env := map[string]prog.Value{}
		known := map[string]bool{}
		for _, e := range t.Init {
			if e.Ref.Thread == ti {
				env[e.Ref.Name], known[e.Ref.Name] = e.Val, true
			}
		}
		assigned := map[string]bool{}
		for _, in := range th.Code {
			for _, r := range prog.Defs(in) {
				assigned[r] = true
			}
		}
		reg := func(name string) (prog.Value, bool) {
			if v, ok := env[name]; ok {
				return v, known[name]
			}
			return prog.IntValue(0), true // never set: herd's zero
		}
		var eval func(e prog.Expr) (prog.Value, bool)
		eval = func(e prog.Expr) (prog.Value, bool) {
			switch e := e.(type) {
			case prog.Const:
				return e.V, true
			case prog.Reg:
				return reg(e.Name)
			case prog.Bin:
				if x, ok := e.X.(prog.Reg); ok && e.Op == prog.OpXor {
					if y, ok := e.Y.(prog.Reg); ok && x == y {
						return prog.IntValue(0), true // herd's false dependency
					}
				}
				a, ok1 := eval(e.X)
				b, ok2 := eval(e.Y)
				if (e.Op == prog.OpAnd || e.Op == prog.OpMul) && (ok1 && a == prog.IntValue(0) || ok2 && b == prog.IntValue(0)) {
					return prog.IntValue(0), true
				}
				if !ok1 || !ok2 {
					return prog.Value{}, false
				}
				v, err := prog.Apply(e.Op, a, b)
				return v, err == nil
			case prog.Un:
				a, ok := eval(e.X)
				if !ok {
					return prog.Value{}, false
				}
				v, err := prog.ApplyUnary(e.Op, a)
				return v, err == nil
			}
			return prog.Value{}, false
		}
		sets := map[string][]prog.Value{}
		evalSet := func(e prog.Expr) ([]prog.Value, bool) { return valueSet(e, eval, sets) }
		set := func(r string, v prog.Value, ok bool) {
			if r != "" {
				env[r], known[r] = v, ok
				delete(sets, r)
			}
		}
		for pc, in := range th.Code {
			switch in := in.(type) {
			case prog.Label:
				for r := range assigned {
					set(r, prog.Value{}, false)
				}
			case prog.Assign:
				v, ok := eval(in.Val)
				vs, okSet := evalSet(in.Val)
				set(in.Dst, v, ok)
				if !ok && okSet && in.Dst != "" {
					sets[in.Dst] = vs
				}
			}
			addr, _ := prog.AddrOf(in)
			if addr != nil && pc < len(th.Sizes) && th.Sizes[pc] != 0 {
				size := th.Sizes[pc]
				a := a64Access{thread: ti, pc: pc, size: int64(size), signed: size < 0}
				if size < 0 {
					a.size = int64(-size)
				}
				if v, ok := eval(addr); ok && v.IsAddr() {
					a.loc, a.off, a.known = v.Loc, v.Int, true
				} else if a.base = addrBase(addr, eval); a.base != "" {
					if vs, ok := evalSet(addr); ok {
						a.offs = []int64{}
						for _, v := range vs {
							if v.IsAddr() && v.Loc == a.base {
								a.offs = append(a.offs, v.Int)
							}
						}
					}
				}
				out = append(out, a)
			}
			for _, r := range prog.Defs(in) {
				if _, isAssign := in.(prog.Assign); !isAssign {
					set(r, prog.Value{}, false)
				}
			}
		}
	}
	return out
}

// maxValueSet bounds the sets of values valueSet computes.
const maxValueSet = 64

// valueSet is the set of values e may take, when it is small and known
// statically: e's value when eval knows it, the values of a register
// set from such a set (sets), and x AND c for an unknown x and a
// constant c of few bits set (every submask of c); false otherwise.
func valueSet(e prog.Expr, eval func(prog.Expr) (prog.Value, bool), sets map[string][]prog.Value) ([]prog.Value, bool) {
	if v, ok := eval(e); ok {
		return []prog.Value{v}, true
	}
	switch e := e.(type) {
	case prog.Reg:
		vs, ok := sets[e.Name]
		return vs, ok
	case prog.Un:
		xs, ok := valueSet(e.X, eval, sets)
		if !ok {
			return nil, false
		}
		var out []prog.Value
		for _, x := range xs {
			v, err := prog.ApplyUnary(e.Op, x)
			if err != nil {
				return nil, false
			}
			out = addValue(out, v)
		}
		return out, true
	case prog.Bin:
		xs, okX := valueSet(e.X, eval, sets)
		ys, okY := valueSet(e.Y, eval, sets)
		if e.Op == prog.OpAnd && (!okX || !okY) {
			// x AND c, x unknown: a submask of c.
			c, ok := eval(e.Y)
			if !ok {
				c, ok = eval(e.X)
			}
			if !ok || c.IsAddr() || c.Int < 0 || bits.OnesCount64(uint64(c.Int)) > 6 {
				return nil, false
			}
			var out []prog.Value
			for m := c.Int; ; m = (m - 1) & c.Int {
				out = append(out, prog.IntValue(m))
				if m == 0 {
					break
				}
			}
			return out, true
		}
		if !okX || !okY || len(xs)*len(ys) > maxValueSet*maxValueSet {
			return nil, false
		}
		var out []prog.Value
		for _, x := range xs {
			for _, y := range ys {
				v, err := prog.Apply(e.Op, x, y)
				if err != nil {
					return nil, false
				}
				if out = addValue(out, v); len(out) > maxValueSet {
					return nil, false
				}
			}
		}
		return out, true
	}
	return nil, false
}

// addValue adds v to the set vs.
func addValue(vs []prog.Value, v prog.Value) []prog.Value {
	for _, w := range vs {
		if w == v {
			return vs
		}
	}
	return append(vs, v)
}

// addrBase is the location an address computed at run time is an offset
// from: e is the sum of an address known statically and of integers
// (offsets, possibly computed from values read); "" when no such
// location is known.
func addrBase(e prog.Expr, eval func(prog.Expr) (prog.Value, bool)) string {
	if v, ok := eval(e); ok {
		if v.IsAddr() {
			return v.Loc
		}
		return ""
	}
	b, ok := e.(prog.Bin)
	if !ok || b.Op != prog.OpAdd && b.Op != prog.OpSub {
		return ""
	}
	isInt := func(x prog.Expr) bool {
		// An offset: not an address known statically. A register
		// whose value is not known is taken for an integer (the
		// lowering refuses locations holding addresses; an address
		// added to an address is an error at run time).
		v, ok := eval(x)
		return !ok || !v.IsAddr()
	}
	if l := addrBase(b.X, eval); l != "" && isInt(b.Y) {
		return l
	}
	if l := addrBase(b.Y, eval); l != "" && isInt(b.X) && b.Op == prog.OpAdd {
		return l
	}
	return ""
}

// a64IsMixed tells whether t is a mixed-size test: it declares a location
// with a sized type or an array, or it has a byte or half-word access or
// an access at a non-zero offset.
func a64IsMixed(t *spec.Test, accs []a64Access) bool {
	for _, e := range t.Init {
		if !e.Ref.IsReg() && (a64SizedTypes[e.Type] || strings.Contains(e.Type, "[")) {
			return true
		}
	}
	for _, a := range accs {
		if a.size < 4 || a.known && a.off != 0 {
			return true
		}
	}
	return false
}

// negativeInMemory tells whether t gives a location a negative value. The
// bytes of such a value are what a 32-bit load zero-extends (an int x=-1
// read by LDR W0 or LDADD W1,W2,[X3] gives 4294967295, as herd has it),
// which the chunks of the mixed-size lowering model and the plain
// translation does not: such a test is lowered as a mixed-size one
// when its locations can be (else translated plainly, as before).
func negativeInMemory(t *spec.Test) bool {
	for _, e := range t.Init {
		if !e.Ref.IsReg() && !e.Val.IsAddr() && e.Val.Int < 0 {
			return true
		}
	}
	return false
}

// lowerMixed rewrites a mixed-size test into per-chunk accesses (see the
// comment at the top of this file); other tests are left as they are.
func lowerMixed(t *spec.Test) error { return lowerMixedSizes(t, "AArch64", false) }

// lowerMixedSizes is lowerMixed for the front-end of arch. exact asks
// for value arithmetic that both engines compute alike on negative
// values too (RISC-V stores sign-extended registers: a floor division
// and a non-negative remainder, at the price of a few more operations);
// a negative size in Thread.Sizes is a load that sign-extends.
func lowerMixedSizes(t *spec.Test, arch string, exact bool) error {
	accs := a64StaticAccesses(t)
	mixed := a64IsMixed(t, accs)
	if !mixed && !negativeInMemory(t) {
		extendNarrowLoads(t, accs)
		return nil
	}
	for _, a := range accs {
		if !a.known && uniformSizes(t, accs) {
			// One size for every access and location: no location is
			// ever split, whatever the addresses computed at run time.
			extendNarrowLoads(t, accs)
			return nil
		}
	}
	// Arithmetic that is right on non-negative values only is enough
	// when no value of the test can be negative (or too large to be read
	// as a signed 64-bit value).
	exact = exact || valuesMayExceed(t, 1<<62)
	for _, a := range accs {
		if n := max(a.size, -a.size); n > 0 && (t.MinAccess == 0 || n < t.MinAccess) {
			t.MinAccess = n
		}
	}
	m := &mixedLowering{t: t, arch: arch, exact: exact, accs: accs}
	m.sizeLocations()
	if err := m.errs.Err(); err != nil {
		if !mixed || uniformSizes(t, accs) {
			// Sized types but one size for every access and location
			// (RISC-V's ISA16: uint64_t and pointers, ld and sd): no
			// location is ever split, so the test needs no chunks.
			extendNarrowLoads(t, accs)
			return nil
		}
		return err
	}
	m.cutChunks()
	m.lowerCode()
	if err := m.errs.Err(); err != nil {
		return err
	}
	m.lowerInit()
	return m.lowerFinal()
}

// uniformSizes tells whether every access of t has the same size, at
// offset 0 where its address is known, and every location with a type
// (a pointer: 8 bytes) is of that size: then no access reads or writes a
// part of a location, whatever the addresses computed at run time.
func uniformSizes(t *spec.Test, accs []a64Access) bool {
	size := int64(0)
	for _, a := range accs {
		n := a.size
		if n < 0 {
			n = -n
		}
		if size == 0 {
			size = n
		}
		if n != size || a.known && a.off != 0 || a.signed && n < 8 {
			return false
		}
	}
	if size == 0 {
		return false
	}
	for _, e := range t.Init {
		if e.Ref.IsReg() || e.Type == "" {
			continue
		}
		n := int64(a64TypeSize(e.Type))
		if strings.HasSuffix(strings.TrimSpace(e.Type), "*") {
			n = 8
		}
		if n != size {
			return false
		}
	}
	return true
}

func hasStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
