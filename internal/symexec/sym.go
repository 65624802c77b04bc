// Package symexec runs one thread of a program symbolically, for the
// explicit engines (package enum, and package gharachorloo's second
// semantics of SC, TSO and PSO): a read's value is an unknown, a branch on
// an unknown forks the path under a constraint, and a symbolic address
// forks over the locations. The result is the thread's control-flow paths
// up to a bound on backward jumps: their events (of a type each engine
// builds with its own emitter), their constraints, their divisions and
// their final registers.
package symexec

import (
	"slices"
	"sort"

	"github.com/musket-verify/musket/internal/prog"
)

// Sym is a symbolic value of one thread: a constant, the value of one of
// the thread's reads, or an operation on symbolic values. Deps lists the
// reads (indices into the path's events) it depends on syntactically, as
// herd's dependencies do: x^x depends on x even though it is always 0.
type Sym struct {
	Known bool
	V     prog.Value // the value, when Known
	Read  int        // >= 0: the value of this read event; -1 otherwise
	Op    prog.Op
	Unary bool
	X, Y  *Sym
	Deps  []int
	// Pick lists the further reads that reach the value only through a
	// pick (prog.OpPick: a condition choosing it, herd7's iico_ctrl):
	// its pick dependencies are Deps and Pick.
	Pick []int
}

// Const is the constant v.
func Const(v prog.Value) *Sym { return &Sym{Known: true, V: v, Read: -1} }

// ReadOf is the value event ev of the path reads.
func ReadOf(ev int) *Sym { return &Sym{Read: ev, Deps: []int{ev}} }

// Bin is x op y, computed when both are known.
func Bin(op prog.Op, x, y *Sym) (*Sym, error) {
	if op == prog.OpPick {
		// x itself, y's reads reaching it as a pick only.
		s := *x
		s.Pick = pickOnly(x.Deps, MergeDeps(x.Pick, MergeDeps(y.Deps, y.Pick)))
		return &s, nil
	}
	pick := MergeDeps(x.Pick, y.Pick)
	if x.Known && y.Known {
		v, err := prog.ApplyTotal(op, x.V, y.V)
		if err != nil {
			return nil, err
		}
		return &Sym{Known: true, V: v, Read: -1, Deps: MergeDeps(x.Deps, y.Deps), Pick: pick}, nil
	}
	return &Sym{Read: -1, Op: op, X: x, Y: y, Deps: MergeDeps(x.Deps, y.Deps), Pick: pick}, nil
}

// PickDeps is every read s depends on, fully or by a pick.
func (s *Sym) PickDeps() []int { return MergeDeps(s.Deps, s.Pick) }

// pickOnly is pick without the reads of deps (sorted sets).
func pickOnly(deps, pick []int) []int {
	if len(deps) == 0 || len(pick) == 0 {
		return pick
	}
	var out []int
	for _, p := range pick {
		if !slices.Contains(deps, p) {
			out = append(out, p)
		}
	}
	return out
}

// Un is op x, computed when x is known.
func Un(op prog.Op, x *Sym) (*Sym, error) {
	if x.Known {
		v, err := prog.ApplyUnary(op, x.V)
		if err != nil {
			return nil, err
		}
		return &Sym{Known: true, V: v, Read: -1, Deps: x.Deps, Pick: x.Pick}, nil
	}
	return &Sym{Read: -1, Op: op, Unary: true, X: x, Deps: x.Deps, Pick: x.Pick}, nil
}

// Eval computes s given the values of the reads; false when a read has no
// value or an operation fails (EvalErr tells the two apart).
func (s *Sym) Eval(readVal func(int) (prog.Value, bool)) (prog.Value, bool) {
	v, ok, err := s.EvalErr(readVal)
	return v, ok && err == nil
}

// EvalErr computes s given the values of the reads: ok is false when a
// read has no value (the candidate has no such execution), err is set
// when an operation fails (prog.Apply refuses it, e.g. an address
// multiplied): the execution exists but the engine cannot compute it.
func (s *Sym) EvalErr(readVal func(int) (prog.Value, bool)) (v prog.Value, ok bool, err error) {
	switch {
	case s.Known:
		return s.V, true, nil
	case s.Read >= 0:
		v, ok := readVal(s.Read)
		return v, ok, nil
	}
	x, ok, err := s.X.EvalErr(readVal)
	if !ok || err != nil {
		return prog.Value{}, ok, err
	}
	if s.Unary {
		v, err := prog.ApplyUnary(s.Op, x)
		return v, true, err
	}
	y, ok, err := s.Y.EvalErr(readVal)
	if !ok || err != nil {
		return prog.Value{}, ok, err
	}
	v, err = prog.ApplyTotal(s.Op, x, y)
	return v, true, err
}

// MergeDeps is the sorted union of two sets of reads (either may be
// returned as it is).
func MergeDeps(a, b []int) []int {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	m := map[int]bool{}
	for _, x := range a {
		m[x] = true
	}
	for _, x := range b {
		m[x] = true
	}
	out := make([]int, 0, len(m))
	for x := range m {
		out = append(out, x)
	}
	sort.Ints(out)
	return out
}

func withoutRead(deps []int, r int) []int {
	var out []int
	for _, d := range deps {
		if d != r {
			out = append(out, d)
		}
	}
	return out
}
