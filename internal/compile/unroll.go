package compile

import (
	"fmt"
	"strconv"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// The cut marker of unrolled threads. An unrolled thread that has a path
// cut by the bound ends with
//
//	goto %end
//	%cut:
//	%bound = 1
//	%end:
//
// and every cut path jumps to %cut. A path was cut by the bound exactly
// when it executes the instruction at label CutLabel, that is when
// register BoundReg ends with value 1 (it is 0 on every other path, like
// any register never written). Engines discard such paths (or report that
// the bound was too small); they are not executions of the program. The
// names start with '%', which no front-end accepts in a name.
const (
	CutLabel = "%cut"
	EndLabel = "%end"
	BoundReg = "%bound"
)

// Limits that keep Unroll fast on any input: the length of an unrolled
// thread, and how many loops it unrolls (each loop of a structured program
// is unrolled once; only irreducible control flow makes more).
const (
	maxUnrolled = 1 << 18
	maxLoops    = 4096
)

// unrollLimitError is a thread that passes one of these limits: a
// result.ErrLimit (exit status 3), since the program is not wrong, only
// too long to check at this bound.
type unrollLimitError struct{ msg string }

func (e *unrollLimitError) Error() string { return e.msg }
func (e *unrollLimitError) Unwrap() error { return result.ErrLimit }

// Unroll returns t with every thread made loop-free by UnrollThread; the
// rest of t is shared.
func Unroll(t *spec.Test, k int) (*spec.Test, error) {
	out := *t
	out.Threads = make([]*prog.Thread, len(t.Threads))
	for i, th := range t.Threads {
		u, err := UnrollThread(th, k)
		if err != nil {
			return nil, err
		}
		out.Threads[i] = u
	}
	return &out, nil
}

// UnrollThread returns a copy of th without backward jumps, where each
// loop runs at most k times per entry.
//
// A loop is a backward jump J (at index j) to a label at index h < j; its
// body is Code[h..j], J included. Loops are unrolled innermost first (the
// shortest body first): the body is replaced by k copies of itself, in
// order. In copy c < k, J jumps to the start of copy c+1 (when J is
// conditional and not taken, control goes past the last copy, where the
// loop ends); in copy k, J jumps to CutLabel: taking it would start the
// (k+1)-th run of the body. Jumps inside the body go to the same copy;
// jumps from outside into the body go to the first copy, which keeps the
// original label names (the others get fresh ones); a jump's Join (the
// end of its control dependency, prog.Jump) in the body names the label
// of its own copy. With k = 0 entering
// the body is cut. Inner loops are copied with their outer loop, so each
// entry into an inner loop gets its own k runs.
//
// For the while loops of package pts (guarded do-while loops whose body
// ends with the test), the body runs at most k times: paths with at most
// k iterations are kept whole, and a path is cut as soon as its test asks
// for iteration k+1. For a herd-style loop (label; body; conditional back
// branch), herd's "-unroll n" (the branch taken at most n times) is
// UnrollThread(th, n+1).
//
// Positions follow the copied instructions; the jumps Unroll adds have the
// position of the loop's backward jump. It fails on a jump to an undefined
// label, a duplicate label, a result longer than 2^18 instructions, or
// more than 4096 loops to unroll.
func UnrollThread(th *prog.Thread, k int) (*prog.Thread, error) {
	return UnrollThreadCounts(th, k, nil)
}

// UnrollThreadCounts is UnrollThread with a bound per loop: a loop whose
// header label is a key of counts is unrolled counts[label] times (at
// least once), whatever k is; the others k times. TripCounts finds the
// loops whose number of iterations is a constant.
func UnrollThreadCounts(th *prog.Thread, k int, counts map[string]int) (*prog.Thread, error) {
	if k < 0 {
		return nil, fmt.Errorf("%s: negative unrolling bound %d", th.Name, k)
	}
	if _, err := th.Labels(); err != nil {
		return nil, err
	}
	u := &unroller{k: k, counts: counts, used: map[string]bool{}, withPos: len(th.Pos) == len(th.Code)}
	u.code = append(u.code, th.Code...)
	if u.withPos {
		u.pos = append(u.pos, th.Pos...)
	}
	hasCut := false
	for _, in := range th.Code {
		if l, ok := in.(prog.Label); ok {
			u.used[l.Name] = true
			hasCut = hasCut || l.Name == CutLabel
		}
	}
	for n := 0; ; n++ {
		h, j := u.innermost()
		if j < 0 {
			break
		}
		if n == maxLoops {
			return nil, &unrollLimitError{fmt.Sprintf("%s: more than %d loops to unroll", th.Name, maxLoops)}
		}
		// Each of the k copies of the body keeps all of it but maybe
		// its back jump: a thread that would pass the limit is refused
		// before it is built (-bound 1000 on two nested loops built 10^7
		// instructions, 4 GB, before the check below saw them).
		if k, body := u.copies(j), j-h+1; k > maxUnrolled || len(u.code)-body+k*(body-1) > maxUnrolled {
			return nil, &unrollLimitError{fmt.Sprintf("%s: unrolled thread longer than %d instructions (a limit: a lower unrolling bound may fit)", th.Name, maxUnrolled)}
		}
		u.unrollLoop(h, j)
		if len(u.code) > maxUnrolled {
			return nil, &unrollLimitError{fmt.Sprintf("%s: unrolled thread longer than %d instructions (a limit: a lower unrolling bound may fit)", th.Name, maxUnrolled)}
		}
	}
	if u.cut && !hasCut {
		if u.used[EndLabel] {
			return nil, fmt.Errorf("%s: label %s is reserved for the unroller", th.Name, EndLabel)
		}
		var p prog.Pos
		if u.withPos && len(u.pos) > 0 {
			p = u.pos[len(u.pos)-1]
		}
		for _, in := range []prog.Instr{
			prog.Jump{Target: EndLabel},
			prog.Label{Name: CutLabel},
			prog.Assign{Dst: BoundReg, Val: prog.Int(1)},
			prog.Label{Name: EndLabel},
		} {
			u.emit(in, p)
		}
	}
	out := &prog.Thread{ID: th.ID, Name: th.Name, Code: u.code}
	if u.withPos {
		out.Pos = u.pos
	}
	return out, nil
}

type unroller struct {
	k       int
	counts  map[string]int // per-loop bounds, by header label
	code    []prog.Instr
	pos     []prog.Pos
	withPos bool
	used    map[string]bool // every label name in code
	cut     bool            // some jump goes to CutLabel
}

func (u *unroller) emit(in prog.Instr, p prog.Pos) {
	u.code = append(u.code, in)
	if u.withPos {
		u.pos = append(u.pos, p)
	}
}

// innermost returns the label index and the jump index of the shortest
// loop, or -1, -1 when the code has none.
func (u *unroller) innermost() (int, int) {
	labels := map[string]int{}
	for i, in := range u.code {
		if l, ok := in.(prog.Label); ok {
			labels[l.Name] = i
		}
	}
	bh, bj := -1, -1
	for j, in := range u.code {
		jmp, ok := in.(prog.Jump)
		if !ok {
			continue
		}
		h, ok := labels[jmp.Target]
		if !ok || h > j {
			continue
		}
		if bj < 0 || j-h < bj-bh {
			bh, bj = h, j
		}
	}
	return bh, bj
}

// fresh returns a label name not used yet, derived from name.
func (u *unroller) fresh(name, suffix string) string {
	for n := 0; ; n++ {
		cand := name + "%" + suffix
		if n > 0 {
			cand += "." + strconv.Itoa(n)
		}
		if !u.used[cand] {
			u.used[cand] = true
			return cand
		}
	}
}

// unrollLoop replaces the body Code[h..j] of the loop closed by the jump
// at j with k copies.
// copies is how many times the loop whose back jump is at j is unrolled.
func (u *unroller) copies(j int) int {
	if n, ok := u.counts[u.code[j].(prog.Jump).Target]; ok && n >= 1 {
		return n
	}
	return u.k
}

func (u *unroller) unrollLoop(h, j int) {
	body := u.code[h : j+1]
	var bodyPos []prog.Pos
	if u.withPos {
		bodyPos = u.pos[h : j+1]
	}
	back := u.code[j].(prog.Jump)
	k := u.copies(j)
	backPos := prog.Pos{}
	if u.withPos {
		backPos = u.pos[j]
	}
	inBody := map[string]bool{}
	for _, in := range body {
		if l, ok := in.(prog.Label); ok {
			inBody[l.Name] = true
		}
	}

	var code []prog.Instr
	var pos []prog.Pos
	add := func(in prog.Instr, p prog.Pos) {
		code = append(code, in)
		if u.withPos {
			pos = append(pos, p)
		}
	}
	if k == 0 {
		// Entering the body is cut; its labels stay for the jumps into it.
		for _, in := range body {
			if l, ok := in.(prog.Label); ok {
				add(l, backPos)
			}
		}
		add(prog.Jump{Target: CutLabel}, backPos)
		u.cut = true
		u.splice(h, j, code, pos)
		return
	}

	// names[c][l] is the name of body label l in copy c (0-based).
	names := make([]map[string]string, k)
	for c := range names {
		names[c] = map[string]string{}
		for l := range inBody {
			if c == 0 {
				names[c][l] = l
			} else {
				names[c][l] = u.fresh(l, strconv.Itoa(c+1))
			}
		}
	}
	exit := ""
	if back.Cond != nil && k > 1 {
		exit = u.fresh(back.Target, "exit")
	}
	for c := 0; c < k; c++ {
		for i, in := range body {
			var p prog.Pos
			if u.withPos {
				p = bodyPos[i]
			}
			switch in := in.(type) {
			case prog.Label:
				add(prog.Label{Name: names[c][in.Name]}, p)
			case prog.Jump:
				if inBody[in.Join] {
					// The branches of copy c join in copy c.
					in.Join = names[c][in.Join]
				}
				switch {
				case i == len(body)-1 && c == k-1:
					in.Target = CutLabel
					add(in, p)
					u.cut = true
				case i == len(body)-1:
					// Go on with the next copy, which starts here.
					if in.Cond != nil {
						in.Target = names[c+1][in.Target]
						add(in, p)
						add(prog.Jump{Target: exit}, p)
					}
				case inBody[in.Target]:
					in.Target = names[c][in.Target]
					add(in, p)
				default:
					add(in, p)
				}
			default:
				add(in, p)
			}
		}
	}
	if exit != "" {
		add(prog.Label{Name: exit}, backPos)
	}
	u.splice(h, j, code, pos)
}

// splice replaces Code[h..j] with code.
func (u *unroller) splice(h, j int, code []prog.Instr, pos []prog.Pos) {
	rest := append([]prog.Instr(nil), u.code[j+1:]...)
	u.code = append(append(u.code[:h], code...), rest...)
	if u.withPos {
		restPos := append([]prog.Pos(nil), u.pos[j+1:]...)
		u.pos = append(append(u.pos[:h], pos...), restPos...)
	}
}

// HasBackwardJump tells whether a thread has a loop: a jump to a label at
// or before it.
func HasBackwardJump(th *prog.Thread) bool {
	labels, err := th.Labels()
	if err != nil {
		return false
	}
	for pc, in := range th.Code {
		if j, ok := in.(prog.Jump); ok {
			if t, ok := labels[j.Target]; ok && t <= pc {
				return true
			}
		}
	}
	return false
}

// UnrollLoops is the litmus engines' reading of herd7's -unroll: when a
// thread of t has a loop, every thread is unrolled so that a backward
// jump is taken at most bound times on a path (bound 0 means the default,
// 2; a negative bound is herd's -unroll 0, no backward jump taken), and
// unrolled says so: the paths that would take one more end at CutLabel
// with BoundReg set, and the engines drop them (the result is Bounded).
// A test without loops is returned as it is.
func UnrollLoops(t *spec.Test, bound int) (out *spec.Test, unrolled bool, err error) {
	for _, th := range t.Threads {
		if HasBackwardJump(th) {
			switch {
			case bound == 0:
				bound = 2
			case bound < 0:
				bound = 0
			}
			u, err := Unroll(t, bound+1)
			if err != nil {
				return nil, false, err
			}
			return u, true, nil
		}
	}
	return t, false, nil
}

// HasCutLabel tells whether a thread of t has the cut of an unrolling
// (CutLabel): some path of it may need more iterations than the bound.
func HasCutLabel(t *spec.Test) bool {
	for _, th := range t.Threads {
		if labels, err := th.Labels(); err == nil {
			if _, ok := labels[CutLabel]; ok {
				return true
			}
		}
	}
	return false
}
