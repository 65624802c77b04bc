package litmus

// Mixed-size AArch64 tests (herd7's mixed mode; Flur et al., "Mixed-size
// concurrency: ARM, POWER, C/C++11, and SC", POPL 2017).
//
// Memory is bytes, little-endian: an access of n bytes at x+off touches
// bytes off..off+n-1 of x. herd7 splits every access into one event per
// byte; the events of one access are one instruction instance, related by
// sm, and the AArch64 model's single-copy atomicity (sca-class = [M &
// Exp]; sm; [M & Exp], in obs and in the local write successors) makes an
// aligned access behave as a whole towards other threads.
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
// What is refused, by name: accesses whose address is not known before
// running (the chunks are computed statically), misaligned accesses,
// arrays, read-modify-writes and exclusives that span several chunks,
// pair instructions (LDP, STP), and 128-bit locations.

import (
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
	"sort"
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
		set := func(r string, v prog.Value, ok bool) {
			if r != "" {
				env[r], known[r] = v, ok
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
				set(in.Dst, v, ok)
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
	if !a64IsMixed(t, accs) {
		return nil
	}
	var errs source.ErrorList
	posOf := func(a a64Access) prog.Pos {
		if th := t.Threads[a.thread]; a.pc < len(th.Pos) {
			return th.Pos[a.pc]
		}
		return prog.Pos{}
	}
	// Location sizes.
	locSize := map[string]int64{}
	var locs []string
	addLoc := func(l string) {
		if _, ok := locSize[l]; !ok {
			locSize[l] = 0
			locs = append(locs, l)
		}
	}
	initVal := map[string]prog.Value{}
	arrays := map[string]bool{}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			if e.Val.IsAddr() {
				addLoc(e.Val.Loc)
			}
			continue
		}
		addLoc(e.Ref.Name)
		initVal[e.Ref.Name] = e.Val
		if strings.Contains(e.Type, "[") {
			errs.Add(e.Pos, fmt.Sprintf("unsupported mixed-size "+arch+" test: location %s is an array (%s)", e.Ref.Name, e.Type))
			arrays[e.Ref.Name] = true
			continue
		}
		if e.Type != "" {
			n := a64TypeSize(e.Type)
			if n == 0 {
				errs.Add(e.Pos, fmt.Sprintf("unsupported mixed-size "+arch+" test: location %s has type %s", e.Ref.Name, e.Type))
				continue
			}
			locSize[e.Ref.Name] = int64(n)
		}
		if e.Val.IsAddr() {
			errs.Add(e.Pos, fmt.Sprintf("unsupported mixed-size "+arch+" test: location %s holds an address", e.Ref.Name))
		}
	}
	for _, r := range append(append([]spec.Ref(nil), t.Locations...), append(spec.Refs(t.Cond), spec.Refs(t.Filter)...)...) {
		if !r.IsReg() {
			addLoc(r.Name)
		}
	}
	declared := map[string]bool{}
	for l, n := range locSize {
		declared[l] = n > 0
	}
	for _, a := range accs {
		if !a.known {
			errs.Add(posOf(a), "unsupported mixed-size "+arch+" test: the address of this access is not known before running (chunks of locations are computed statically)")
			continue
		}
		if a.off%a.size != 0 {
			errs.Add(posOf(a), fmt.Sprintf("unsupported mixed-size "+arch+" test: misaligned %d-byte access at %s+%d", a.size, a.loc, a.off))
			continue
		}
		addLoc(a.loc)
		if a.off < 0 || declared[a.loc] && a.off+a.size > locSize[a.loc] {
			errs.Add(posOf(a), fmt.Sprintf("unsupported mixed-size "+arch+" test: access to bytes %d..%d of %s, which has %d", a.off, a.off+a.size-1, a.loc, locSize[a.loc]))
			continue
		}
		if !declared[a.loc] && a.off+a.size > locSize[a.loc] {
			locSize[a.loc] = a.off + a.size
		}
	}
	for _, l := range locs {
		if !declared[l] && locSize[l] < 4 {
			locSize[l] = 4 // an untyped location is an int
		}
		if locSize[l] > 8 && !arrays[l] {
			errs.Add(prog.Pos{}, fmt.Sprintf("unsupported mixed-size "+arch+" test: location %s has %d bytes (more than a register)", l, locSize[l]))
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}
	// Chunks: the boundaries of the location and of every access.
	bounds := map[string]map[int64]bool{}
	for _, l := range locs {
		bounds[l] = map[int64]bool{0: true, locSize[l]: true}
	}
	for _, a := range accs {
		bounds[a.loc][a.off] = true
		bounds[a.loc][a.off+a.size] = true
	}
	if splitBytes {
		for _, l := range locs {
			for b := int64(1); b < locSize[l]; b++ {
				bounds[l][b] = true
			}
		}
	}
	chunks := map[string][]a64Chunk{}
	for _, l := range locs {
		var bs []int64
		for b := range bounds[l] {
			bs = append(bs, b)
		}
		sort.Slice(bs, func(i, j int) bool { return bs[i] < bs[j] })
		for i := 0; i+1 < len(bs); i++ {
			chunks[l] = append(chunks[l], a64Chunk{bs[i], bs[i+1] - bs[i]})
		}
	}
	covered := func(a a64Access) []a64Chunk {
		var out []a64Chunk
		for _, c := range chunks[a.loc] {
			if c.off >= a.off && c.off+c.size <= a.off+a.size {
				out = append(out, c)
			}
		}
		return out
	}
	// The code.
	byPC := map[[2]int]a64Access{}
	for _, a := range accs {
		byPC[[2]int{a.thread, a.pc}] = a
	}
	for ti, th := range t.Threads {
		var code []prog.Instr
		var pos []prog.Pos
		for pc, in := range th.Code {
			p := prog.Pos{}
			if pc < len(th.Pos) {
				p = th.Pos[pc]
			}
			emit := func(ins ...prog.Instr) {
				for _, x := range ins {
					code = append(code, x)
					pos = append(pos, p)
				}
			}
			a, ok := byPC[[2]int{ti, pc}]
			if !ok {
				emit(in)
				continue
			}
			parts := covered(a)
			// Values are cut and assembled with arithmetic rather than
			// bitwise operators (the same on the non-negative values
			// below 2^63 that the tests use): the SMT engine encodes
			// + * / % on integers directly, but & | >> << through
			// bit-vectors, which is far slower.
			mod := func(v prog.Expr, m int64) prog.Expr {
				r := prog.Expr(prog.Bin{Op: prog.OpMod, X: v, Y: prog.Int(m)})
				if exact {
					r = prog.Bin{Op: prog.OpMod, X: prog.Bin{Op: prog.OpAdd, X: r, Y: prog.Int(m)}, Y: prog.Int(m)}
				}
				return r
			}
			mask := func(v prog.Expr, shift, size int64) prog.Expr {
				if shift > 0 {
					d := int64(1) << (8 * shift)
					if exact {
						v = prog.Bin{Op: prog.OpSub, X: v, Y: mod(v, d)}
					}
					v = prog.Bin{Op: prog.OpDiv, X: v, Y: prog.Int(d)}
				}
				if size < 8 {
					v = mod(v, int64(1)<<(8*size))
				}
				return v
			}
			// signExtend turns the size-byte value v (0 <= v < 2^8size)
			// into a signed one: v - 2^8size when its top bit is set.
			signExtend := func(dst string) {
				if !a.signed || a.size >= 8 || dst == "" {
					return
				}
				v := prog.Reg{Name: dst}
				top := prog.Bin{Op: prog.OpDiv, X: v, Y: prog.Int(int64(1) << (8*a.size - 1))}
				emit(prog.Assign{Dst: dst, Val: prog.Bin{Op: prog.OpSub, X: v, Y: prog.Bin{Op: prog.OpMul, X: top, Y: prog.Int(int64(1) << (8 * a.size))}}})
			}
			at := func(addr prog.Expr, delta int64) prog.Expr {
				if delta == 0 {
					return addr
				}
				return prog.Bin{Op: prog.OpAdd, X: addr, Y: prog.Int(delta)}
			}
			switch in := in.(type) {
			case prog.Load:
				if len(parts) == 1 {
					emit(in)
					signExtend(in.Dst)
					continue
				}
				if hasStr(in.Tags, TagA64Exclusive) {
					errs.Add(p, fmt.Sprintf("unsupported mixed-size "+arch+" test: exclusive load of %d bytes over %d chunks of %s", a.size, len(parts), a.loc))
					continue
				}
				var val prog.Expr
				for k, c := range parts {
					tmp := fmt.Sprintf("%%chunk%d", k)
					emit(prog.Load{Dst: tmp, Addr: at(in.Addr, c.off-a.off), Tags: in.Tags, Part: k > 0})
					var v prog.Expr = prog.Reg{Name: tmp}
					if exact && a.size == 8 && k == len(parts)-1 {
						// The top chunk of a whole register is signed:
						// the sum stays within 64 bits in both engines.
						n := int64(1) << (8*c.size - 1)
						v = prog.Bin{Op: prog.OpSub, X: v, Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpDiv, X: v, Y: prog.Int(n)}, Y: prog.Int(2 * n)}}
					}
					if d := c.off - a.off; d > 0 {
						v = prog.Bin{Op: prog.OpMul, X: v, Y: prog.Int(int64(1) << (8 * d))}
					}
					if val == nil {
						val = v
					} else {
						val = prog.Bin{Op: prog.OpAdd, X: val, Y: v}
					}
				}
				if in.Dst != "" {
					emit(prog.Assign{Dst: in.Dst, Val: val})
					signExtend(in.Dst)
				}
			case prog.Store:
				for k, c := range parts {
					emit(prog.Store{Addr: at(in.Addr, c.off-a.off), Val: mask(in.Val, c.off-a.off, c.size), Tags: in.Tags, Part: k > 0})
				}
			case prog.RMW:
				if len(parts) != 1 {
					errs.Add(p, fmt.Sprintf("unsupported mixed-size "+arch+" test: atomic read-modify-write of %d bytes over %d chunks of %s", a.size, len(parts), a.loc))
					continue
				}
				in.New = mask(in.New, 0, a.size)
				emit(in)
				signExtend(in.Dst)
			case prog.StoreCond:
				if len(parts) != 1 {
					errs.Add(p, fmt.Sprintf("unsupported mixed-size "+arch+" test: store exclusive of %d bytes over %d chunks of %s", a.size, len(parts), a.loc))
					continue
				}
				in.Val = mask(in.Val, 0, a.size)
				emit(in)
			default:
				emit(in)
			}
		}
		th.Code, th.Pos, th.Sizes = code, pos, nil
	}
	if err := errs.Err(); err != nil {
		return err
	}
	// Initial values: one entry per chunk.
	var init []spec.InitEntry
	done := map[string]bool{}
	initChunks := func(l string, p prog.Pos) {
		if done[l] {
			return
		}
		done[l] = true
		v := initVal[l]
		for _, c := range chunks[l] {
			init = append(init, spec.InitEntry{Ref: spec.Ref{Thread: -1, Name: chunkName(l, c.off)}, Val: prog.IntValue(v.Int >> (8 * c.off) & sizeMask(c.size)), Pos: p})
		}
	}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			init = append(init, e)
			continue
		}
		initChunks(e.Ref.Name, e.Pos)
	}
	for _, l := range locs {
		initChunks(l, prog.Pos{})
	}
	t.Init = init
	// The condition, the filter and the locations list.
	t.CondLine = t.ConditionLine()
	var cerr error
	var rewrite func(c spec.Cond) spec.Cond
	rewrite = func(c spec.Cond) spec.Cond {
		switch c := c.(type) {
		case spec.And:
			return spec.And{L: rewrite(c.L), R: rewrite(c.R)}
		case spec.Or:
			return spec.Or{L: rewrite(c.L), R: rewrite(c.R)}
		case spec.Not:
			return spec.Not{C: rewrite(c.C)}
		case spec.Atom:
			cs := chunks[c.Ref.Name]
			if c.Ref.IsReg() || len(cs) <= 1 {
				return c
			}
			if c.Val.IsAddr() {
				cerr = fmt.Errorf("unsupported mixed-size "+arch+" test: the condition compares location %s, of %d chunks, with an address", c.Ref.Name, len(cs))
				return c
			}
			var out spec.Cond
			for _, ch := range cs {
				a := spec.Atom{Ref: spec.Ref{Thread: -1, Name: chunkName(c.Ref.Name, ch.off)}, Val: prog.IntValue(c.Val.Int >> (8 * ch.off) & sizeMask(ch.size))}
				if out == nil {
					out = a
				} else {
					out = spec.And{L: out, R: a}
				}
			}
			if c.Neq {
				return spec.Not{C: out}
			}
			return out
		case spec.RefEq:
			if !c.L.IsReg() && len(chunks[c.L.Name]) > 1 || !c.R.IsReg() && len(chunks[c.R.Name]) > 1 {
				cerr = errors.New("unsupported mixed-size " + arch + " test: the condition compares two final values, one of a location of several chunks")
			}
		}
		return c
	}
	if t.Cond != nil {
		t.Cond = rewrite(t.Cond)
	}
	if t.Filter != nil {
		t.Filter = rewrite(t.Filter)
	}
	var obs []spec.Ref
	for _, r := range t.Locations {
		if cs := chunks[r.Name]; !r.IsReg() && len(cs) > 1 {
			for _, ch := range cs {
				obs = append(obs, spec.Ref{Thread: -1, Name: chunkName(r.Name, ch.off)})
			}
			continue
		}
		obs = append(obs, r)
	}
	t.Locations = obs
	t.Mixed = true
	t.Chunks = map[string][]spec.Chunk{}
	for _, l := range locs {
		for _, c := range chunks[l] {
			t.Chunks[l] = append(t.Chunks[l], spec.Chunk{Loc: chunkName(l, c.off), Off: c.off, Size: c.size})
		}
	}
	return cerr
}

func hasStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
