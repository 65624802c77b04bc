package cfront

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// This file defines rand and srand as C11 7.22.2 and glibc do: rand
// returns the numbers of one fixed sequence, srand(seed) starts the
// sequence of seed again, and a program that never calls srand gets the
// sequence of srand(1). GenMC's library has no rand at all and SV-COMP's
// rules give nondeterminism only through __VERIFIER_nondet_*; a checker
// that took rand as any value in 0..RAND_MAX would report failures no
// run of the program can have (assert(rand() != 0) holds in every run:
// the sequence is fixed), so the values are glibc's: its additive
// generator (random_r's TYPE_3: 31 words seeded by 16807·x mod 2^31-1,
// 310 outputs discarded, then r[i] = r[i-31] + r[i-3], result r[i] >> 1),
// computed when the program is lowered (checked against a native run:
// seeds 1, 42, 0 (glibc takes it as 1)).
//
// glibc's rand takes a lock around the generator: calls in several
// threads take its numbers one after the other, in the order they take
// the lock, each call synchronizing with the one before. So rand is an
// acquire-release fetch-and-add on a hidden counter %rand.n (the lock's
// hand-over: a release, then an acquire that reads it) and the number is
// entry n of a constant table %rand.tab; srand(seed) is an
// acquire-release exchange that sets the counter to randSeeded. The
// table holds randMax numbers of the sequence of 1 and randMax of the
// seed's: a program that takes more stops there (BOUND: no claim
// beyond). The seed must be a constant, the same in every srand call of
// the program; any other srand is refused by name.

const (
	randCounter = "%rand.n"
	randTable   = "%rand.tab"
	randMax     = 64      // numbers of each sequence in the table
	randSeeded  = 1 << 20 // the counter's value after srand
)

func init() {
	knownCalls["rand"] = ownFirst((*lowerer).randCall)
	knownCalls["srand"] = ownFirst((*lowerer).srandCall)
}

// glibcRand is the first n numbers glibc's rand returns after
// srand(seed).
func glibcRand(seed uint32, n int) []int64 {
	if seed == 0 {
		seed = 1
	}
	r := make([]int32, 344+n)
	r[0] = int32(seed)
	for i := 1; i < 31; i++ {
		v := (16807 * int64(r[i-1])) % 2147483647
		if v < 0 {
			v += 2147483647
		}
		r[i] = int32(v)
	}
	for i := 31; i < 34; i++ {
		r[i] = r[i-31]
	}
	for i := 34; i < len(r); i++ {
		r[i] = int32(uint32(r[i-31]) + uint32(r[i-3]))
	}
	out := make([]int64, n)
	for k := range out {
		out[k] = int64(uint32(r[k+344]) >> 1)
	}
	return out
}

// randSeed is the seed of the program's srand calls (1 when it has
// none); ok is false when one is not a constant or two differ.
func (l *lowerer) randSeed() (uint32, bool) {
	seed, seen := uint32(1), false
	for _, f := range l.mod.Funcs {
		for _, blk := range f.Blocks {
			for _, in := range blk.Insts {
				c, ok := in.(*ir.InstCall)
				if !ok || calleeName(c) != "srand" || len(c.Args) != 1 {
					continue
				}
				a := c.Args[0]
				if x, ok := a.(*ir.Arg); ok {
					a = x.Value
				}
				k, ok := a.(*constant.Int)
				if !ok {
					return 0, false
				}
				s := uint32(k.X.Int64())
				if seen && s != seed {
					return 0, false
				}
				seed, seen = s, true
			}
		}
	}
	return seed, true
}

// randObjects declares the counter and the table (once).
func (l *lowerer) randObjects(cs *callSite) error {
	seed, ok := l.randSeed()
	if !ok {
		return l.errAt(cs.pos, "%s: srand with a seed that is not a constant, or two srand calls with different seeds (unsupported: the numbers rand returns would depend on it)", cs.name)
	}
	if l.locs[locName(randCounter, 0)] {
		return nil
	}
	l.declareCell(randCounter, 0, cval{}, 4)
	for k, v := range append(glibcRand(1, randMax), glibcRand(seed, randMax)...) {
		l.declareCell(randTable, int64(4*k), cval{n: v}, 4)
	}
	return nil
}

// randRMW emits the acquire-release read-modify-write of the counter.
func randRMW(b *builder, dst string, nv prog.Expr) {
	tags := []string{tagA, "ACQ_REL", tagRMW, tagX}
	b.emit(prog.RMW{Dst: dst, Addr: prog.Addr(randCounter), New: nv, RTags: withSize(tags, types.I32), WTags: tags})
}

// srandCall lowers srand.
func (l *lowerer) srandCall(cs *callSite) error {
	if err := l.randObjects(cs); err != nil {
		return err
	}
	randRMW(cs.fr.b, l.fresh("srand"), prog.Int(randSeeded))
	return nil
}

// randCall lowers rand.
func (l *lowerer) randCall(cs *callSite) error {
	if err := l.randObjects(cs); err != nil {
		return err
	}
	b := cs.fr.b
	n := l.fresh("randn")
	nv := prog.Reg{Name: n}
	randRMW(b, n, prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)})
	idx := l.fresh("randi")
	iv := prog.Reg{Name: idx}
	ok, seeded := l.label("randok"), l.label("randseeded")
	b.emit(prog.Assign{Dst: idx, Val: nv})
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: nv, Y: prog.Int(randSeeded)}, Target: seeded})
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: nv, Y: prog.Int(randMax)}, Target: ok})
	l.randBeyond(b)
	b.emit(prog.Label{Name: seeded})
	b.emit(prog.Assign{Dst: idx, Val: prog.Bin{Op: prog.OpAdd, X: prog.Bin{Op: prog.OpSub, X: nv, Y: prog.Int(randSeeded)}, Y: prog.Int(randMax)}})
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: nv, Y: prog.Int(randSeeded + randMax)}, Target: ok})
	l.randBeyond(b)
	b.emit(prog.Label{Name: ok})
	r := l.fresh("rand")
	addr := prog.Bin{Op: prog.OpAdd, X: prog.Addr(randTable), Y: prog.Bin{Op: prog.OpMul, X: iv, Y: prog.Int(4)}}
	b.emit(prog.Load{Dst: r, Addr: addr, Tags: withSize([]string{tagNA}, types.I32)})
	cs.result(prog.Reg{Name: r})
	return nil
}

// randBeyond emits a loop that never ends, bounded to no iteration: a
// path that takes more numbers than the table holds stops at the bound
// (BOUND).
func (l *lowerer) randBeyond(b *builder) {
	k := l.fresh("randk")
	b.emit(prog.Assign{Dst: k, Val: prog.Int(0)})
	b.emit(prog.Assign{Dst: loopBoundReg, Val: prog.Int(1)})
	head := l.label("randbeyond")
	b.emit(prog.Label{Name: head})
	b.emit(prog.Assign{Dst: k, Val: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: k}, Y: prog.Int(1)}})
	b.emit(prog.Jump{Target: head})
}
