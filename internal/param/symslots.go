package param

import "slices"

// This file finds the interchangeable processes of a cube, for the
// semantic fixpoint test (subsumedByPermutations, subsume.go).
//
// Two slots a and b of a cube c are interchangeable when swapping them
// maps c's literals onto themselves (the transposition (a b) is an
// automorphism of c). The relation is transitive ((a b) and (b d) make
// (a d) = (a b)(b d)(a b)), so it splits c's slots into classes, and
// every permutation within the classes is an automorphism of c.
//
// The test enumerates the injective renamings of a visited cube v into
// c. When it maps a slot of v and two unused slots b1, b2 of c are
// interchangeable, every renaming that maps it to b2 is τ∘σ for a
// renaming σ that maps it to b1, τ = (b1 b2): both are unused, so τ
// fixes what is mapped already, and it permutes the unused slots. And
// the literals of v that c implies, contradicts or leaves under τ∘σ are
// the images by τ of those under σ, because τ(c) = c: the residual of
// τ∘σ is τ applied to the residual of σ. So the test maps the slot to
// the first unused slot of each class only, and then adds the images of
// the residuals it found by the transpositions of the classes, until no
// new one comes: the set it ends with is the one the whole enumeration
// gives. (Soundness does not even rest on that: τ(R) with R the
// residual of σ satisfies c ∧ τ(R) ⇒ (τ∘σ)(v), because c = τ(c) and
// c ∧ R ⇒ σ(v); any such residual may stand in the disjunction.)

// symNone marks a slot in no class (a pinned process, or a slot of no
// literal's kind that symClasses renames).
const symNone int32 = -1

// symClasses returns, for each slot s of c (indexed by slot number), the
// first slot of its class in c.Slots, or symNone; nil when c has no two
// interchangeable slots. Pinned slots (process constants) are in no
// class: a renaming maps them to themselves.
func symClasses(c *Cube, pinned int32) []int32 {
	var free []int32
	for _, s := range c.Slots {
		if s > pinned {
			free = append(free, s)
		}
	}
	if len(free) < 2 {
		return nil
	}
	for i := range c.Lits {
		if !symRenamable(c.Lits[i].L) || !symRenamable(c.Lits[i].R) {
			return nil
		}
	}
	base := slices.Clone(c.Lits)
	slices.SortFunc(base, cmpLit)
	base = slices.Compact(base)
	maxSlot := slices.Max(c.Slots)
	class := make([]int32, maxSlot+1)
	for i := range class {
		class[i] = symNone
	}
	var reps []int32
	buf := make([]Lit, 0, len(base))
	found := false
	for _, s := range free {
		class[s] = s
		for _, r := range reps {
			if swapFixes(base, r, s, buf) {
				class[s] = r
				found = true
				break
			}
		}
		if class[s] == s {
			reps = append(reps, s)
		}
	}
	if !found {
		return nil
	}
	return class
}

// symRenamable reports whether swapSlots renames every slot of t (the
// kinds renamedSlots knows, and constants).
func symRenamable(t Term) bool {
	switch t.Kind {
	case KBool, KEnum, KNum, KSlot, KVar:
		return true
	case KLin:
		for _, p := range linSum(t) {
			if !symRenamable(p.Atom) {
				return false
			}
		}
		return true
	}
	return false
}

// swapFixes reports whether swapping slots a and b maps base (sorted,
// without repeats) onto itself.
func swapFixes(base []Lit, a, b int32, buf []Lit) bool {
	buf = buf[:0]
	for _, l := range base {
		nl, ok := swapLit(l, a, b)
		if !ok {
			return false
		}
		buf = append(buf, nl)
	}
	slices.SortFunc(buf, cmpLit)
	return slices.Equal(slices.Compact(buf), base)
}

// swapLit is l with slots a and b swapped, in normal form; ok is false
// when the result is no open literal.
func swapLit(l Lit, a, b int32) (Lit, bool) {
	nl, r := mkLit(l.Op, swapSlots(l.L, a, b), swapSlots(l.R, a, b))
	return nl, r == litOpen
}

// swapSlots is t with slots a and b swapped.
func swapSlots(t Term, a, b int32) Term {
	sw := func(s int32) int32 {
		switch s {
		case a:
			return b
		case b:
			return a
		}
		return s
	}
	switch t.Kind {
	case KLin:
		r, _ := mapAtoms(t, func(x Term) (Term, bool) { return swapSlots(x, a, b), true })
		return r
	case KSlot:
		t.Sym = sw(t.Sym)
	case KVar:
		for i := 0; i < int(t.NArgs); i++ {
			t.Args[i] = sw(t.Args[i])
		}
	}
	return t
}
