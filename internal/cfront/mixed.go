package cfront

// Mixed-size accesses.
//
// C programs read and write memory with accesses of different sizes that
// overlap: a union's int member and its short member, an int read over
// two shorts (misaligned, too), bytes copied through a char pointer, a
// lock word read whole and written by halves. Memory is bytes,
// little-endian, as on x86-64, AArch64 and RISC-V (and Power in its
// little-endian mode, which Musket chooses for Power too): an access of n
// bytes at o+off touches bytes off..off+n-1 of object o.
//
// As the mixed-size litmus tests of the AArch64 front-end do (Flur et
// al., "Mixed-size concurrency: ARM, POWER, C/C++11, and SC", POPL 2017),
// an object accessed with overlapping accesses of different sizes is cut
// into chunks: the coarsest partition of its bytes in which every access
// to it covers whole chunks. Each chunk is a location (o+k for the chunk
// at byte k, as the engines name that address); an access over several
// chunks becomes one access per chunk, the further ones marked Part (one
// instruction instance, related by sm), its value cut into the chunks'
// bytes (a store) or assembled from them (a load), little-endian. Objects
// whose accesses do not overlap in different sizes keep their cells.
//
// Which object an access touches is found by a flow-insensitive analysis
// of the unrolled threads (sets of possible pointer offsets, integers and
// memory contents per object); an access whose parts would differ among
// the objects it may touch and a pointer cut into parts are refused by
// name, never guessed. A read-modify-write over several chunks (a
// lockref's compare-and-swap of the whole word) becomes an exclusive
// pair over the parts (splitRMWCode), which only AArch64's model, with
// single-copy atomicity across the parts, defines: CheckProgram refuses
// it under the other models.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// sizeTagPrefix marks the size in bytes of an access among its tags from
// the lowering until the mixed-size pass takes it out.
const sizeTagPrefix = "%size="

// withSize adds the size of an access of type t to its tags.
func withSize(tags []string, t types.Type) []string {
	n, err := sizeOf(t)
	if err != nil || n <= 0 {
		return tags
	}
	return append(tags, sizeTagPrefix+strconv.FormatInt(n, 10))
}

// withSizeAlign is withSize for an access whose address is known to be
// a multiple of align bytes (the IR's alignment; 0: not known): the size
// tag carries it after an '@'.
func withSizeAlign(tags []string, t types.Type, align uint64) []string {
	n, err := sizeOf(t)
	if err != nil || n <= 0 {
		return tags
	}
	tag := sizeTagPrefix + strconv.FormatInt(n, 10)
	if align > 0 {
		tag += "@" + strconv.FormatUint(align, 10)
	}
	return append(tags, tag)
}

// takeSize removes the size tag: the tags without it and the size (0:
// none).
func takeSize(tags []string) ([]string, int64) {
	out, n, _ := takeSizeAlign(tags)
	return out, n
}

// takeSizeAlign is takeSize with the access's alignment (0: not known).
func takeSizeAlign(tags []string) ([]string, int64, int64) {
	for i, t := range tags {
		if strings.HasPrefix(t, sizeTagPrefix) {
			v := t[len(sizeTagPrefix):]
			var align int64
			if j := strings.IndexByte(v, '@'); j >= 0 {
				align, _ = strconv.ParseInt(v[j+1:], 10, 64)
				v = v[:j]
			}
			n, _ := strconv.ParseInt(v, 10, 64)
			out := append(append([]string(nil), tags[:i]...), tags[i+1:]...)
			return out, n, align
		}
	}
	return tags, 0, 0
}

// uniformChunk is c when every chunk and every typed cell of x is c
// bytes at a multiple of c from its start (0: not so). An access at an
// offset not known before running whose address is a multiple of c and
// whose size is a multiple of c is then made of whole chunks, the same
// ones relative to its address wherever it falls.
func uniformChunk(x *mixedObject) int64 {
	if x.bytes {
		return 1
	}
	var c int64
	same := func(off, size int64) bool {
		if c == 0 {
			c = size
		}
		return size == c && off%c == 0
	}
	for _, ch := range x.chunks {
		if !same(ch.off, ch.size) {
			return 0
		}
	}
	for i, cell := range x.cells {
		if cell.size <= 0 || i >= len(x.offs) || !same(x.offs[i], cell.size) {
			return 0
		}
	}
	return c
}

// maxAbs bounds the integers and offsets an abstract value lists.
const maxAbs = 64

// anyOff stands for any offset into an object.
const anyOff = math.MinInt64

// aval is what a register or memory may hold: integers and addresses.
type aval struct {
	ints   []int64 // in increasing order
	anyInt bool
	ptrs   map[string]map[int64]bool // object -> offsets (anyOff: any)
}

func (a *aval) hasInt() bool { return a.anyInt || len(a.ints) > 0 }

func (a *aval) addInt(v int64) bool {
	if a.anyInt {
		return false
	}
	i, found := slices.BinarySearch(a.ints, v)
	if found {
		return false
	}
	if len(a.ints) >= maxAbs {
		a.anyInt, a.ints = true, nil
		return true
	}
	a.ints = slices.Insert(a.ints, i, v)
	return true
}

func (a *aval) addAnyInt() bool {
	if a.anyInt {
		return false
	}
	a.anyInt, a.ints = true, nil
	return true
}

func (a *aval) addPtr(o string, off int64) bool {
	if a.ptrs == nil {
		a.ptrs = map[string]map[int64]bool{}
	}
	m := a.ptrs[o]
	if m == nil {
		m = map[int64]bool{}
		a.ptrs[o] = m
	}
	if m[anyOff] || m[off] {
		return false
	}
	if off == anyOff || len(m) >= maxAbs {
		a.ptrs[o] = map[int64]bool{anyOff: true}
		return true
	}
	m[off] = true
	return true
}

// join adds b's values to a; it tells whether a grew.
func (a *aval) join(b *aval) bool {
	if a == b {
		return false
	}
	ch := false
	if b.anyInt {
		ch = a.addAnyInt() || ch
	}
	if !a.anyInt && len(a.ints) == 0 && len(b.ints) > 0 {
		a.ints, ch = slices.Clone(b.ints), true
	} else {
		for _, v := range b.ints {
			ch = a.addInt(v) || ch
		}
	}
	for o, offs := range b.ptrs {
		for off := range offs {
			ch = a.addPtr(o, off) || ch
		}
	}
	return ch
}

// anyPtrs adds the objects of b at any offset.
func (a *aval) anyPtrs(b *aval) {
	for o := range b.ptrs {
		a.addPtr(o, anyOff)
	}
}

// mixedAnalysis is the flow-insensitive analysis of the addresses.
type mixedAnalysis struct {
	env   []map[string]*aval         // per thread
	mem   map[string]map[int64]*aval // per object and offset (anyOff: unknown): what a store put there
	addrs map[[2]int]*aval           // per access (thread, pc): its address
	vals  map[[2]int]*aval           // per store and read-modify-write: the value it writes
	ctx   context.Context            // the check's deadline
	// zeroUnset: a load of a cell no initial value names may read 0
	// (the engines' initial value of memory); set lists the cells that
	// have one.
	zeroUnset bool
	set       map[string]map[int64]bool
	// consts are the values of the constants eval met, made once (eval's
	// values are never changed by its callers); zero is the value 0.
	consts map[prog.Value]*aval
	zero   *aval
	// coarse: a cell that would hold more than coarseInts integers
	// holds any integer (coarseNoMixed).
	coarse bool
}

// mixedCoarseOff turns coarseNoMixed off, and mixedCoarseHits counts
// the lowerings it answered (for tests).
var (
	mixedCoarseOff  bool
	mixedCoarseHits atomic.Int64
)

// coarseInts is how many integers a cell holds in the coarse analysis
// before it holds any integer: enough for a flag, a thread's argument
// or a small index, whose values an address may be computed from.
const coarseInts = 4

func (m *mixedAnalysis) reg(t int, r string) *aval {
	a := m.env[t][r]
	if a == nil {
		a = &aval{}
		m.env[t][r] = a
	}
	return a
}

// eval is what e may evaluate to; the caller must not change it (it
// may be a register's value).
func (m *mixedAnalysis) eval(t int, e prog.Expr, old *aval) *aval {
	switch e := e.(type) {
	case prog.Const:
		if c := m.consts[e.V]; c != nil {
			return c
		}
		c := &aval{}
		if e.V.IsAddr() {
			c.addPtr(e.V.Loc, e.V.Int)
		} else {
			c.addInt(e.V.Int)
		}
		if m.consts == nil {
			m.consts = map[prog.Value]*aval{}
		}
		m.consts[e.V] = c
		return c
	case prog.Reg:
		if a := m.env[t][e.Name]; a != nil {
			// The register's own value: no caller changes what eval
			// returns.
			return a
		}
		if m.zero == nil {
			m.zero = &aval{}
			m.zero.addInt(0)
		}
		return m.zero
	}
	out := &aval{}
	switch e := e.(type) {
	case prog.Old:
		if old != nil {
			return old
		}
	case prog.Un:
		x := m.eval(t, e.X, old)
		if x.anyInt {
			out.addAnyInt()
		}
		for _, v := range x.ints {
			if r, err := prog.ApplyUnary(e.Op, prog.IntValue(v)); err == nil && !r.IsAddr() {
				out.addInt(r.Int)
			} else {
				out.addAnyInt()
			}
		}
		if len(x.ptrs) > 0 {
			out.addAnyInt()
			out.anyPtrs(x)
		}
	case prog.Bin:
		x, y := m.eval(t, e.X, old), m.eval(t, e.Y, old)
		if x.hasInt() && y.hasInt() {
			if m, ok := smallModulus(e.Op, y); ok && x.anyInt {
				// x % m (Go's, truncated, as the engines compute it)
				// lies in (-m, m) whatever x is: an index reduced
				// modulo a ring's size (umod, intarith.go: ((x % m) +
				// m) % m, then 0..m-1). Keeping the values keeps the
				// offsets of ring[pos % N].field known, so an array of
				// structs with fields of different sizes indexed so is
				// not taken for a mixed-size object (cw7/mpmc_ring.c,
				// cw7/thread_pool.c were refused before).
				for k := -m + 1; k < m; k++ {
					out.addInt(k)
				}
			} else if x.anyInt || y.anyInt || len(x.ints)*len(y.ints) > maxAbs {
				out.addAnyInt()
			} else {
				for _, a := range x.ints {
					for _, b := range y.ints {
						if r, err := prog.Apply(e.Op, prog.IntValue(a), prog.IntValue(b)); err == nil && !r.IsAddr() {
							out.addInt(r.Int)
						} else {
							out.addInt(0) // a division by zero gives 0 in the engines
						}
					}
				}
			}
		}
		if len(x.ptrs) == 0 && len(y.ptrs) == 0 {
			break
		}
		shift := func(p, n *aval, sign int64) {
			for o, offs := range p.ptrs {
				for off := range offs {
					if off == anyOff || n.anyInt {
						out.addPtr(o, anyOff)
						continue
					}
					for _, k := range n.ints {
						out.addPtr(o, off+sign*k)
					}
				}
			}
		}
		switch e.Op {
		case prog.OpAdd:
			shift(x, y, 1)
			shift(y, x, 1)
			if len(x.ptrs) > 0 && len(y.ptrs) > 0 {
				out.anyPtrs(x)
				out.anyPtrs(y)
			}
		case prog.OpSub:
			shift(x, y, -1)
			if len(y.ptrs) > 0 {
				out.addAnyInt() // a difference of pointers
			}
		case prog.OpEq, prog.OpNe, prog.OpLt, prog.OpLe, prog.OpGt, prog.OpGe, prog.OpLAnd, prog.OpLOr:
			out.addInt(0)
			out.addInt(1)
		case prog.OpMod:
			// A remainder is an integer, never an address: the low bits
			// of a pointer's value (p & 1, a tag; p % 8, an alignment
			// test: umod) which only the SMT engine computes, as the
			// address's number. Taking it for a pointer into p's
			// object made p - (p & 1), a pointer with its tag bit
			// cleared, look like a difference of two pointers, which
			// ptrcmp.go then checked as undefined behaviour: a FAIL
			// on a correct program (cw7/marked_ptr.c).
			out.addAnyInt()
		default:
			out.addAnyInt()
			out.anyPtrs(x)
			out.anyPtrs(y)
		}
	}
	return out
}

// smallModulus gives m when op is a remainder by the one positive
// integer m that y may be, small enough (2m-1 values within maxAbs) for
// the remainder's values to be listed.
func smallModulus(op prog.Op, y *aval) (int64, bool) {
	if op != prog.OpMod || y.anyInt || len(y.ptrs) > 0 || len(y.ints) != 1 {
		return 0, false
	}
	m := y.ints[0]
	return m, m > 0 && 2*m-1 <= maxAbs
}

// load is what an access of size bytes at addr a may read: what was
// stored at an offset whose store may overlap it (stores have at most 8
// bytes), or anywhere in the object when the offset is not known.
func (m *mixedAnalysis) load(a *aval, size int64) *aval {
	if size <= 0 {
		size = 8
	}
	out := &aval{}
	for o, offs := range a.ptrs {
		cells := m.mem[o]
		for off := range offs {
			if m.zeroUnset && (off == anyOff || !m.set[o][off]) {
				out.addInt(0)
			}
			if off == anyOff {
				for _, v := range cells {
					out.join(v)
				}
				continue
			}
			for k, v := range cells {
				if k == anyOff || k > off-8 && k < off+size {
					out.join(v)
				}
			}
		}
	}
	return out
}

func (m *mixedAnalysis) store(a, v *aval) bool {
	ch := false
	for o, offs := range a.ptrs {
		if m.mem[o] == nil {
			m.mem[o] = map[int64]*aval{}
		}
		for off := range offs {
			x := m.mem[o][off]
			if x == nil {
				x = &aval{}
				m.mem[o][off] = x
			}
			ch = x.join(v) || ch
			if m.coarse && len(x.ints) > coarseInts {
				x.addAnyInt()
			}
		}
	}
	return ch
}

// run iterates over every thread until memory stops growing, and
// records the addresses of the accesses (and the values stored). The
// unrolled code of a thread jumps only forward: one pass in code order
// sees every definition that reaches an instruction before it, so the
// registers are computed afresh at each pass (the copies of an unrolled
// loop's counter then hold the values of the iterations so far, not
// every integer); a thread with a backward jump is iterated as a whole.
// addrOf is the abstract address of an access at addr whose address the
// front-end knows to be one of cells (prog.Load.Cells: narrow's choice),
// when cells is not nil; else addr's value.
func (m *mixedAnalysis) addrOf(ti int, addr prog.Expr, cells []string) *aval {
	if cells == nil {
		return m.eval(ti, addr, nil)
	}
	a := &aval{}
	for _, c := range cells {
		o, off := splitOff(c)
		a.addPtr(o, off)
	}
	return a
}

func (m *mixedAnalysis) run(t *spec.Test, sizes [][]int64) {
	dag := make([]bool, len(t.Threads))
	for ti, th := range t.Threads {
		dag[ti] = forwardOnly(th)
	}
	m.addrs, m.vals = map[[2]int]*aval{}, map[[2]int]*aval{}
	note := func(k [2]int, into map[[2]int]*aval, v *aval) {
		if into[k] == nil {
			into[k] = &aval{}
		}
		into[k].join(v)
	}
	for changed := true; changed; {
		changed = false
		if m.ctx != nil && m.ctx.Err() != nil {
			return
		}
		for ti, th := range t.Threads {
			// In a thread whose jumps all go forward (its loops
			// unrolled), a register is the join of every value it is
			// given, so a loop counter's register holds the value of
			// each iteration and the one that leaves the loop: the
			// address st.a[i] of an exactly unrolled loop would seem to
			// reach past the array, into the next field. The registers
			// of known value at each point (constregs.go, exact: the
			// value on every way into that point) give such an access
			// its one address, as if it had been written out.
			var known *constRegs
			addrOf := m.addrOf
			if dag[ti] {
				m.env[ti] = map[string]*aval{}
				known = newConstRegs(th)
				addrOf = func(ti int, addr prog.Expr, cells []string) *aval {
					if cells == nil && known.cur != nil {
						if v, ok := foldValue(addr, known.cur); ok && v.IsAddr() {
							return m.eval(ti, prog.Const{V: v}, nil)
						}
					}
					return m.addrOf(ti, addr, cells)
				}
			}
			regChanged := false
			for pc, in := range th.Code {
				if pc&255 == 255 && m.ctx != nil && m.ctx.Err() != nil {
					return // (a round over a long thread can take seconds)
				}
				k := [2]int{ti, pc}
				switch in := in.(type) {
				case prog.Assign:
					regChanged = m.reg(ti, in.Dst).join(m.eval(ti, in.Val, nil)) || regChanged
				case prog.Load:
					a := addrOf(ti, in.Addr, in.Cells)
					note(k, m.addrs, a)
					if in.Dst != "" {
						regChanged = m.reg(ti, in.Dst).join(m.load(a, sizes[ti][pc])) || regChanged
					}
				case prog.Store:
					a, v := addrOf(ti, in.Addr, in.Cells), m.eval(ti, in.Val, nil)
					note(k, m.addrs, a)
					note(k, m.vals, v)
					changed = m.store(a, v) || changed
				case prog.RMW:
					a := addrOf(ti, in.Addr, in.Cells)
					note(k, m.addrs, a)
					old := m.load(a, sizes[ti][pc])
					if in.Dst != "" {
						regChanged = m.reg(ti, in.Dst).join(old) || regChanged
					}
					nv := m.eval(ti, in.New, old)
					note(k, m.vals, nv)
					changed = m.store(a, nv) || changed
				case prog.StoreCond:
					a := addrOf(ti, in.Addr, in.Cells)
					note(k, m.addrs, a)
					changed = m.store(a, m.eval(ti, in.Val, nil)) || changed
					if in.Status != "" {
						regChanged = m.reg(ti, in.Status).addAnyInt() || regChanged
					}
				default:
					if a, ok := prog.AddrOf(in); ok {
						note(k, m.addrs, m.eval(ti, a, nil))
					}
					for _, r := range prog.Defs(in) {
						regChanged = m.reg(ti, r).addAnyInt() || regChanged
					}
				}
				if known != nil {
					known.step(in)
				}
			}
			if !dag[ti] && regChanged {
				changed = true
			}
		}
	}
}

// forwardOnly tells whether every jump of th goes forward.
func forwardOnly(th *prog.Thread) bool {
	labels, err := th.Labels()
	if err != nil {
		return false
	}
	for pc, in := range th.Code {
		if j, ok := in.(prog.Jump); ok && labels[j.Target] <= pc {
			return false
		}
	}
	return true
}

// span is a byte range [off, off+size) of an object.
type span struct{ off, size int64 }

// mixedAccess is one access of the program, placed by the analysis.
type mixedAccess struct {
	thread, pc int
	size       int64
	addr       *aval
	val        *aval // a store's value
}

// mixedObject is what the pass knows of one object.
type mixedObject struct {
	cells []initCell
	offs  []int64 // the cells' offsets
	spans []span  // its cells (typed objects) and the accesses at known offsets
	// accSpans are the accesses' spans alone: the chunks are cut at
	// their bounds only (an initialiser's fields are no accesses, and
	// an atomic access over two of them is not torn by them).
	accSpans []span
	anyAcc   bool // an access at an unknown offset
	sizes    map[int64]bool
	mixed    bool
	chunks   []span
	// bytes: character memory cut into its bytes (charChunks).
	bytes bool
}

// splitOff splits a cell name into its object and offset.
func splitOff(name string) (string, int64) {
	if i := strings.LastIndexByte(name, '+'); i > 0 {
		if n, err := strconv.ParseInt(name[i+1:], 10, 64); err == nil {
			return name[:i], n
		}
	}
	return name, 0
}

// mixedSizes takes the size tags out of t's accesses and cuts the
// objects that overlapping accesses of different sizes touch into
// chunks (see the comment at the top of this file).
func (l *lowerer) mixedSizes(t *spec.Test) error {
	mergeInitStores(t)
	sizes := make([][]int64, len(t.Threads))
	aligns := map[[2]int]int64{} // by thread and instruction (moved as sizes are)
	for ti, th := range t.Threads {
		sizes[ti] = make([]int64, len(th.Code))
		for pc, in := range th.Code {
			var n, al int64
			switch x := in.(type) {
			case prog.Load:
				x.Tags, n, al = takeSizeAlign(x.Tags)
				in = x
			case prog.Store:
				x.Tags, n, al = takeSizeAlign(x.Tags)
				in = x
			case prog.RMW:
				x.RTags, n, al = takeSizeAlign(x.RTags)
				in = x
			}
			th.Code[pc], sizes[ti][pc] = in, n
			if al > 0 {
				aligns[[2]int{ti, pc}] = al
			}
		}
	}
	objs := map[string]*mixedObject{}
	obj := func(o string) *mixedObject {
		x := objs[o]
		if x == nil {
			x = &mixedObject{sizes: map[int64]bool{}}
			objs[o] = x
		}
		return x
	}
	for _, c := range l.init {
		o, off := splitOff(c.name)
		x := obj(o)
		x.cells = append(x.cells, c)
		x.offs = append(x.offs, off)
		if c.size > 0 {
			x.spans = append(x.spans, span{off, c.size})
		}
	}
	if !mixedCoarseOff && l.coarseNoMixed(t, sizes, objs) {
		mixedCoarseHits.Add(1)
		return nil
	}
	m := l.newMixedAnalysis(t, false)
	m.run(t, sizes)
	if l.expired() {
		return errDeadline
	}
	objSize := func(o string) int64 {
		x := objs[o]
		if x == nil {
			return 0
		}
		n := int64(0)
		for _, sp := range x.spans {
			n = max(n, sp.off+sp.size)
		}
		for i, c := range x.cells {
			if c.size <= 0 {
				n = max(n, x.offs[i]+4) // a heap object's cell
			}
		}
		return n
	}
	moved, err := l.pointerOrder(t, m, objSize)
	if err != nil {
		return err
	}
	for ti, where := range moved {
		if where == nil {
			continue
		}
		// Checks went in before some instructions: the analysis's
		// facts move with the instructions they are of.
		ns := make([]int64, len(t.Threads[ti].Code))
		na := map[[2]int]int64{}
		for pc, to := range where {
			ns[to] = sizes[ti][pc]
			if al, ok := aligns[[2]int{ti, pc}]; ok {
				na[[2]int{ti, to}] = al
			}
		}
		sizes[ti] = ns
		for k := range aligns {
			if k[0] == ti {
				delete(aligns, k)
			}
		}
		for k, al := range na {
			aligns[k] = al
		}
		for _, facts := range []map[[2]int]*aval{m.addrs, m.vals} {
			mine := map[[2]int]*aval{}
			for k, v := range facts {
				if k[0] == ti {
					mine[k] = v
					delete(facts, k)
				}
			}
			for k, v := range mine {
				facts[[2]int{ti, where[k[1]]}] = v
			}
		}
	}
	var accs []mixedAccess
	for ti, th := range t.Threads {
		for pc, in := range th.Code {
			a, ok := prog.AddrOf(in)
			if !ok {
				continue
			}
			_ = a
			k := [2]int{ti, pc}
			acc := mixedAccess{thread: ti, pc: pc, size: sizes[ti][pc], addr: m.addrs[k], val: m.vals[k]}
			if acc.addr == nil {
				acc.addr = &aval{}
			}
			if acc.val == nil {
				acc.val = &aval{}
			}
			accs = append(accs, acc)
			if acc.size == 0 {
				continue
			}
			for o, offs := range acc.addr.ptrs {
				x := objs[o]
				if x == nil {
					continue
				}
				x.sizes[acc.size] = true
				for off := range offs {
					if off == anyOff {
						x.anyAcc = true
					} else {
						x.spans = append(x.spans, span{off, acc.size})
						x.accSpans = append(x.accSpans, span{off, acc.size})
					}
				}
			}
		}
	}
	any := false
	for _, x := range objs {
		x.mixed = overlapping(x.spans) || x.anyAcc && (len(x.sizes) > 1 || spanSizesDiffer(x.spans, x.sizes))
		any = any || x.mixed
	}
	if !any {
		return nil
	}
	for _, x := range objs {
		if x.mixed {
			// The initial values are cut to the chunks (chunkInit).
			x.chunks = cutSpans(x.spans)
			if len(x.accSpans) > 0 && !x.anyAcc {
				// (An object also accessed at offsets not known before
				// running keeps its cells as chunks: such an access is
				// answered only over whole chunks, uniformChunk.)
				x.chunks = cutSpans(x.accSpans)
			}
		}
	}
	// Character memory read or written at an offset not known before
	// running by an access its chunks do not fit (strcmp(tok, "ab")
	// folded into a 2-byte load of a strdup'ed copy, memcpy's 4-byte
	// units over a char buffer) is cut into its bytes (charChunks).
	for _, a := range accs {
		if a.size <= 0 {
			continue
		}
		for o, offs := range a.addr.ptrs {
			x := objs[o]
			if x == nil || !x.mixed || x.bytes || !offs[anyOff] {
				continue
			}
			if c := uniformChunk(x); c != 0 && a.size%c == 0 && aligns[[2]int{a.thread, a.pc}]%c == 0 {
				continue
			}
			if ch, ok := charChunks(x); ok {
				x.chunks, x.bytes = ch, true
			}
		}
	}
	// A spin site whose reads are cut into parts is not expressible by
	// its locations (liveness skips it).
	for i, s := range l.spins {
		for _, loc := range s.locs {
			if o, _ := splitOff(loc); objs[o] != nil && objs[o].mixed {
				l.spins[i].dyn = true
			}
		}
	}
	posOf := func(a mixedAccess) prog.Pos {
		if th := t.Threads[a.thread]; a.pc < len(th.Pos) {
			return th.Pos[a.pc]
		}
		return prog.Pos{File: l.file}
	}
	// The parts of each access.
	parts := map[[2]int][]span{}
	for _, a := range accs {
		var got []span
		first := true
		for o, offs := range a.addr.ptrs {
			x := objs[o]
			for off := range offs {
				var ps []span
				switch {
				case x == nil || !x.mixed:
					ps = []span{{0, a.size}}
				case a.size == 0:
					return l.errAt(posOf(a), "unsupported mixed-size access: this access of unknown size touches %s, which is accessed with several sizes", o)
				case off == anyOff:
					// Whole chunks wherever it falls, when the object is
					// cut evenly and the access is aligned to the cut.
					c := uniformChunk(x)
					if c == 0 || a.size%c != 0 || aligns[[2]int{a.thread, a.pc}]%c != 0 {
						return l.errAt(posOf(a), "unsupported mixed-size access: %s is accessed with several overlapping sizes, and this access's offset into it is not known before running", o)
					}
					for p := int64(0); p < a.size; p += c {
						ps = append(ps, span{p, c})
					}
				default:
					for _, c := range x.chunks {
						if c.off >= off && c.off+c.size <= off+a.size {
							ps = append(ps, span{c.off - off, c.size})
						}
					}
				}
				if first {
					got, first = ps, false
				} else if !slices.Equal(got, ps) {
					return l.errAt(posOf(a), "unsupported mixed-size access: its parts differ among the objects it may access (%s and others)", o)
				}
			}
		}
		if len(got) <= 1 {
			continue
		}
		in := t.Threads[a.thread].Code[a.pc]
		switch in.(type) {
		case prog.Load:
		case prog.Store:
			if len(a.val.ptrs) > 0 {
				return l.errAt(posOf(a), "unsupported mixed-size access: a pointer stored over %d separately accessed parts", len(got))
			}
		case prog.RMW:
			// Lowered as an exclusive pair over the parts (splitThread);
			// only a model with single-copy atomicity across the parts
			// defines it (CheckProgram refuses it under the others).
			r := in.(prog.RMW)
			if len(a.val.ptrs) > 0 {
				return l.errAt(posOf(a), "unsupported mixed-size access: a pointer written by a read-modify-write over %d separately accessed parts", len(got))
			}
			l.splitRMWs = append(l.splitRMWs, splitRMW{pos: posOf(a), size: a.size, parts: int64(len(got)), cas: r.Cond != nil})
		default:
			return l.errAt(posOf(a), "unsupported mixed-size access: %s over %d parts", prog.InstrString(in), len(got))
		}
		parts[[2]int{a.thread, a.pc}] = got
	}
	for ti, th := range t.Threads {
		l.splitThread(ti, th, parts)
	}
	return l.chunkInit(t, objs)
}

// newMixedAnalysis is an analysis of t whose memory holds the initial
// values of the lowering's cells (coarse: widened, see coarseNoMixed).
func (l *lowerer) newMixedAnalysis(t *spec.Test, coarse bool) *mixedAnalysis {
	m := &mixedAnalysis{mem: map[string]map[int64]*aval{}, coarse: coarse, ctx: l.ctx}
	for _, c := range l.init {
		o, off := splitOff(c.name)
		v := &aval{}
		if c.val.loc != "" {
			v.addPtr(c.val.loc, c.val.n)
		} else {
			v.addInt(c.val.n)
		}
		m.store(&aval{ptrs: map[string]map[int64]bool{o: {off: true}}}, v)
	}
	for range t.Threads {
		m.env = append(m.env, map[string]*aval{})
	}
	return m
}

// coarseNoMixed tells, from a cheaper analysis, that mixedSizes has
// nothing to do on t: no object is touched by overlapping accesses and
// no comparison or difference (pointerOrder) has a pointer operand.
// When it says false, mixedSizes runs the precise analysis.
//
// The precise analysis of a loop that adds to a counter in memory grows
// the counter's set of integers by one value per pass over the whole
// program until it is widened at maxAbs values: tens of passes for a
// program whose every access is to a fixed cell. The coarse analysis
// widens a cell's integers to any integer once it holds more than
// coarseInts of them, so it stops after a few passes. Its facts include
// the precise analysis's: every step of the precise analysis is
// monotone in what memory and the registers hold and each coarse step
// gives at least what the precise one gives from the same facts, so
// the state where a coarse pass changes nothing is one a precise pass
// does not leave either, which is above the precise least fixpoint:
// the objects and offsets a register or an address may hold there are
// supersets of the precise ones. Hence:
//   - a comparison or difference none of whose operands may hold a
//     pointer (or a pointer minus an integer) in the coarse analysis is
//     one in the precise analysis too, which pointerOrder leaves as it
//     is;
//   - an access at a known offset in the coarse analysis is at one of
//     the same offsets (a subset) in the precise one; when the coarse
//     analysis has no access at an unknown offset of an object and no
//     two spans of an object (its cells and its accesses) overlap, the
//     precise spans are a subset, none overlap, and no object is mixed.
//
// Both then give mixedSizes's result without a cut object: t with the
// size tags taken out, as it is.
func (l *lowerer) coarseNoMixed(t *spec.Test, sizes [][]int64, objs map[string]*mixedObject) bool {
	m := l.newMixedAnalysis(t, true)
	m.run(t, sizes)
	if l.expired() {
		return false
	}
	for ti, th := range t.Threads {
		for _, in := range th.Code {
			if !mayOrderPointers(in) {
				continue
			}
			ok := true
			for _, e := range prog.Exprs(in) {
				prog.WalkExpr(e, func(x prog.Expr) {
					b, isBin := x.(prog.Bin)
					if !isBin || !ordersPointers(b.Op) || !ok {
						return
					}
					va, vb := m.eval(ti, b.X, nil), m.eval(ti, b.Y, nil)
					if !(len(va.ptrs) == 0 && len(vb.ptrs) == 0 || b.Op == prog.OpSub && len(vb.ptrs) == 0) {
						ok = false
					}
				})
			}
			if !ok {
				return false
			}
		}
	}
	spans := map[string][]span{}
	for o, x := range objs {
		spans[o] = slices.Clone(x.spans)
	}
	for ti, th := range t.Threads {
		for pc, in := range th.Code {
			if _, ok := prog.AddrOf(in); !ok || sizes[ti][pc] == 0 {
				continue
			}
			a := m.addrs[[2]int{ti, pc}]
			if a == nil {
				continue
			}
			for o, offs := range a.ptrs {
				if objs[o] == nil {
					continue
				}
				for off := range offs {
					if off == anyOff {
						return false
					}
					spans[o] = append(spans[o], span{off, sizes[ti][pc]})
				}
			}
		}
	}
	for _, ss := range spans {
		if overlapping(ss) {
			return false
		}
	}
	return true
}

// overlapping tells whether two different spans overlap.
func overlapping(ss []span) bool {
	u := map[span]bool{}
	for _, s := range ss {
		u[s] = true
	}
	var us []span
	for s := range u {
		us = append(us, s)
	}
	sort.Slice(us, func(i, j int) bool { return us[i].off < us[j].off || us[i].off == us[j].off && us[i].size < us[j].size })
	end := int64(math.MinInt64)
	for _, s := range us {
		if s.off < end {
			return true
		}
		end = max(end, s.off+s.size)
	}
	return false
}

// spanSizesDiffer tells whether some span has a size the accesses at
// unknown offsets do not have.
func spanSizesDiffer(ss []span, sizes map[int64]bool) bool {
	for _, s := range ss {
		if !sizes[s.size] {
			return true
		}
	}
	return false
}

// cutSpans is the coarsest partition of the bytes of the spans in which
// every span covers whole chunks.
func cutSpans(ss []span) []span {
	cuts := map[int64]bool{}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, s := range ss {
		cuts[s.off], cuts[s.off+s.size] = true, true
		lo, hi = min(lo, s.off), max(hi, s.off+s.size)
	}
	var bs []int64
	for b := range cuts {
		bs = append(bs, b)
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i] < bs[j] })
	var out []span
	for i := 0; i+1 < len(bs); i++ {
		out = append(out, span{bs[i], bs[i+1] - bs[i]})
	}
	return out
}

// charChunks cuts x into its bytes when x is character memory: its
// cells are one byte each, at consecutive offsets from 0 (a char array,
// a heap object taken as character memory, heapcells.go). C's object
// representation is bytes (C11 6.2.6.1): an access of n bytes reads or
// writes n bytes, which the cut makes n parts (one instruction instance,
// as every cut access: tearing.go says what a model without single-copy
// atomicity makes of it).
func charChunks(x *mixedObject) ([]span, bool) {
	n := int64(0)
	seen := map[int64]bool{}
	var meta []span // a heap object's freed mark and size (free.go)
	for i, c := range x.cells {
		switch off := x.offs[i]; {
		case off >= maxHeapObject:
			meta = append(meta, span{off, max(c.size, 4)})
		case c.size > 1:
			return nil, false
		default:
			seen[off] = true
			n = max(n, off+1)
		}
	}
	if n == 0 || int64(len(seen)) != n {
		return nil, false
	}
	for _, s := range x.spans {
		if s.off < maxHeapObject && (s.off < 0 || s.off+s.size > n) {
			return nil, false
		}
	}
	out := make([]span, n, int(n)+len(meta))
	for i := range out {
		out[i] = span{int64(i), 1}
	}
	return append(out, meta...), true
}

// addrPlus is the address delta bytes after a.
func addrPlus(a prog.Expr, delta int64) prog.Expr {
	if delta == 0 {
		return a
	}
	if c, ok := a.(prog.Const); ok && c.V.IsAddr() {
		return prog.Const{V: prog.Value{Loc: c.V.Loc, Int: c.V.Int + delta}}
	}
	return prog.Bin{Op: prog.OpAdd, X: a, Y: prog.Int(delta)}
}

// addPart adds to sum (nil for none yet) the part s of a whole value
// read into register r: its bytes, unsigned unless it is the last
// (highest) part, which keeps the whole value's sign, shifted to its
// offset.
func addPart(sum prog.Expr, r string, s span, last bool) prog.Expr {
	var v prog.Expr = prog.Reg{Name: r}
	if !last {
		v = umod(v, int64(1)<<(8*s.size))
	}
	if s.off > 0 {
		v = prog.Bin{Op: prog.OpMul, X: v, Y: prog.Int(int64(1) << (8 * s.off))}
	}
	if sum == nil {
		return v
	}
	return prog.Bin{Op: prog.OpAdd, X: sum, Y: v}
}

// Values are cut and assembled with arithmetic (+, *, / and % by
// constants, which the SMT engine encodes in linear arithmetic), exact on
// negative values in both engines: umod is the non-negative remainder,
// floorDiv the floor division.
func umod(v prog.Expr, m int64) prog.Expr {
	r := prog.Bin{Op: prog.OpMod, X: v, Y: prog.Int(m)}
	return prog.Bin{Op: prog.OpMod, X: prog.Bin{Op: prog.OpAdd, X: r, Y: prog.Int(m)}, Y: prog.Int(m)}
}

func floorDiv(v prog.Expr, d int64) prog.Expr {
	return prog.Bin{Op: prog.OpDiv, X: prog.Bin{Op: prog.OpSub, X: v, Y: umod(v, d)}, Y: prog.Int(d)}
}

// chunkValue is the value a chunk of w bytes at byte rel of the value v
// holds: those bytes, read as a signed number (as the front-end keeps
// every value sign-extended).
func chunkValue(v prog.Expr, rel, w int64) prog.Expr {
	if rel > 0 {
		v = floorDiv(v, int64(1)<<(8*rel))
	}
	if w >= 8 {
		return v
	}
	u := umod(v, int64(1)<<(8*w))
	// u - 2^8w · (u / 2^(8w-1)): u is non-negative, the division exact.
	return prog.Bin{Op: prog.OpSub, X: u, Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpDiv, X: u, Y: prog.Int(int64(1) << (8*w - 1))}, Y: prog.Int(int64(1) << (8 * w))}}
}

// splitThread rewrites the accesses of th that cover several chunks.
func (l *lowerer) splitThread(ti int, th *prog.Thread, parts map[[2]int][]span) {
	var code []prog.Instr
	var pos []prog.Pos
	emit := func(in prog.Instr, p prog.Pos) {
		code = append(code, in)
		pos = append(pos, p)
	}
	for pc, in := range th.Code {
		p := th.Pos[pc]
		ps := parts[[2]int{ti, pc}]
		if len(ps) == 0 {
			emit(in, p)
			continue
		}
		switch in := in.(type) {
		case prog.Load:
			var sum prog.Expr
			for i, s := range ps {
				r := fmt.Sprintf("%s.byte%d", in.Dst, s.off)
				if in.Dst == "" {
					r = ""
				}
				emit(prog.Load{Dst: r, Addr: addrPlus(in.Addr, s.off), Tags: in.Tags, Part: i > 0}, p)
				if r == "" {
					continue
				}
				sum = addPart(sum, r, s, i == len(ps)-1)
			}
			if in.Dst != "" {
				emit(prog.Assign{Dst: in.Dst, Val: sum}, p)
			}
		case prog.Store:
			for i, s := range ps {
				emit(prog.Store{Addr: addrPlus(in.Addr, s.off), Val: chunkValue(in.Val, s.off, s.size), Tags: in.Tags, Part: i > 0}, p)
			}
		case prog.RMW:
			l.splitRMWCode(in, ps, p, emit)
		}
	}
	th.Code, th.Pos = code, pos
}

// splitRMW is a read-modify-write over several parts (see splitRMWCode).
type splitRMW struct {
	pos         prog.Pos
	size, parts int64
	cas         bool // a compare-and-swap (else an atomicrmw)
}

// exclusiveTag marks the exclusive loads and store-conditionals of a
// read-modify-write over parts (AArch64's name for them).
const exclusiveTag = "EX"

// splitRMWCode lowers a read-modify-write over the parts ps as an
// exclusive pair, as clang-14 compiles every atomic read-modify-write for
// AArch64 without the LSE atomics (an LDAXR/STLXR loop):
//
//	old.k = load.EX [a+off_k]            one per part, one instance (sm)
//	old = Σ old.k · 2^(8·off_k)          (little-endian)
//	if !Cond(old) goto skip              (a compare-and-swap that fails)
//	new = New(old)
//	st = storecond.EX [a+off_k] chunk_k(new)   one per part, one instance
//	if st != 0 goto block
//	skip:
//
// The engines pair each store-conditional part with the exclusive load of
// its chunk (an rmw pair per chunk), and the parts succeed or fail
// together. Under AArch64's model the pairs' atomic axiom holds per
// chunk and single-copy atomicity (sm) makes the reads and the writes of
// the parts observed together, so no write of another thread to any part
// comes between the read and the write of the whole. A store-conditional
// that fails (only spuriously, or when another write intervened) stops
// the thread: the retry of the loop is the execution in which the failed
// attempt, reads and no write, is left out, which keeps the execution
// consistent (removing reads only removes edges of the model's
// relations), as a cut spin loop is. A weak compare-and-swap's spurious
// failure is its coin (Cond). The other models give the parts no
// atomicity together: CheckProgram refuses this code under them.
func (l *lowerer) splitRMWCode(in prog.RMW, ps []span, p prog.Pos, emit func(prog.Instr, prog.Pos)) {
	l.nsplit++
	base := in.Dst
	if base == "" {
		base = fmt.Sprintf("%%xrmw.%d", l.nsplit)
	}
	var sum prog.Expr
	for i, s := range ps {
		r := fmt.Sprintf("%s.byte%d", base, s.off)
		emit(prog.Load{Dst: r, Addr: addrPlus(in.Addr, s.off), Tags: append(slices.Clone(in.RTags), exclusiveTag), Part: i > 0}, p)
		sum = addPart(sum, r, s, i == len(ps)-1)
	}
	emit(prog.Assign{Dst: base, Val: sum}, p)
	old := prog.Reg{Name: base}
	skip := fmt.Sprintf("%%xrmw.skip.%d", l.nsplit)
	if in.Cond != nil {
		emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.ReplaceOld(in.Cond, old), Y: prog.Int(0)}, Target: skip}, p)
	}
	nv := base + ".new"
	emit(prog.Assign{Dst: nv, Val: prog.ReplaceOld(in.New, old)}, p)
	st := base + ".st"
	for i, s := range ps {
		sc := prog.StoreCond{Addr: addrPlus(in.Addr, s.off), Val: chunkValue(prog.Reg{Name: nv}, s.off, s.size),
			Tags: append(slices.Clone(in.WTags), exclusiveTag), Part: i > 0}
		if i == 0 {
			sc.Status, sc.OkVal, sc.FailVal = st, prog.IntValue(0), prog.IntValue(1)
		}
		emit(sc, p)
	}
	emit(prog.Jump{Cond: prog.Reg{Name: st}, Target: blockLabel}, p)
	emit(prog.Label{Name: skip}, p)
}

// chunkInit replaces the cells of the cut objects by their chunks, with
// the bytes of the cells' initial values.
func (l *lowerer) chunkInit(t *spec.Test, objs map[string]*mixedObject) error {
	var init []spec.InitEntry
	done := map[string]bool{}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			init = append(init, e)
			continue
		}
		o, _ := splitOff(e.Ref.Name)
		x := objs[o]
		if x == nil || !x.mixed {
			init = append(init, e)
			continue
		}
		if done[o] {
			continue
		}
		done[o] = true
		// The initial bytes, little-endian.
		bytes := map[int64]int64{}
		addrs := map[int64]initCell{}
		for k, c := range x.cells {
			off := x.offs[k]
			if c.val.loc != "" {
				addrs[off] = c
				continue
			}
			n := c.size
			if n == 0 {
				n = 4
			}
			v := uint64(c.val.n)
			for b := int64(0); b < n && b < 8; b++ {
				bytes[off+b] = int64(v >> (8 * b) & 0xff)
			}
		}
		wasNA := false
		for _, c := range x.cells {
			if l.nonAt[c.name] {
				wasNA = true
				delete(l.nonAt, c.name)
			}
		}
		for _, ch := range x.chunks {
			name := locName(o, ch.off)
			var val prog.Value
			if c, ok := addrs[ch.off]; ok && c.size == ch.size {
				val = prog.Value{Loc: c.val.loc, Int: c.val.n}
			} else {
				for off, c := range addrs {
					if off < ch.off+ch.size && ch.off < off+max(c.size, 1) {
						return l.errAt(prog.Pos{File: l.file}, "unsupported mixed-size access: the initial pointer in %s is cut into parts", locName(o, off))
					}
				}
				var u uint64
				for b := ch.size - 1; b >= 0; b-- {
					u = u<<8 | uint64(bytes[ch.off+b])
				}
				n := int64(u)
				if ch.size < 8 && u>>(8*ch.size-1) != 0 {
					n -= int64(1) << (8 * ch.size)
				}
				val = prog.IntValue(n)
			}
			init = append(init, spec.InitEntry{Ref: spec.Ref{Thread: -1, Name: name}, Val: val})
			if wasNA {
				l.nonAt[name] = true
			}
		}
	}
	t.Init = init
	return nil
}
