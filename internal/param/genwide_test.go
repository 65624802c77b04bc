package param

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genWide writes a random small well-typed .cub system of the shapes
// that Cubicle's and Cubicle-W's published files use and genSystemWith
// does not draw: bool, proc-typed and (now and then) int variables,
// two-dimensional arrays, constant arrays ("const Active[proc] : bool",
// never assigned), copies of one cell into another, process comparisons
// (i < j) in guards and case conditions, forall_other guards over a
// disjunction, exists_other guards, fence() and fence(i), case updates
// whose conditions read other variables, nondeterministic assignments
// (X := .), several unsafe formulas and invariant formulas over a
// constant array (cubes the search and the explorers both leave out).
// Weak variables and arrays
// appear with probability weakProb each.
func genWide(rng *rand.Rand, weakProb float64) string {
	g := &wideGen{rng: rng}
	g.globals(weakProb)
	return g.system()
}

// genWideEarly is genWide written twice from the same draws: in the
// current syntax and in the early Cubicle-W syntax that early.go reads
// (read(i, X), write(i, X, e), "fences (i)", transitions without [i]).
func genWideEarly(seed uint64, weakProb float64) (current, early string) {
	for _, e := range []bool{false, true} {
		g := &wideGen{rng: rand.New(rand.NewPCG(seed, 17)), early: e}
		g.globals(weakProb)
		if e {
			early = g.system()
		} else {
			current = g.system()
		}
	}
	return current, early
}

type wideSort int

const (
	wEnum wideSort = iota
	wBool
	wProc
	wInt
)

type wideGlob struct {
	name  string
	sort  wideSort
	arity int // 0, 1 or 2
	weak  bool
	cnst  bool // a constant array: never assigned, no init
}

type wideGen struct {
	rng   *rand.Rand
	early bool // the early Cubicle-W syntax (genWideEarly)
	gs    []wideGlob
	weak  bool
	b     strings.Builder
	procs int // number_procs, 0 when absent
}

func (g *wideGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *wideGen) globals(weakProb float64) {
	for i := range 2 + g.rng.IntN(3) {
		w := wideGlob{sort: wideSort(g.rng.IntN(3)), arity: g.rng.IntN(2)}
		if g.rng.IntN(10) == 0 {
			w.sort = wInt
		}
		if g.rng.IntN(10) == 0 {
			w.arity = 2
		}
		if g.rng.IntN(8) == 0 && w.arity == 1 {
			w.cnst, w.sort = true, wBool
		} else {
			w.weak = g.rng.Float64() < weakProb
		}
		prefix := []string{"V", "A", "M"}[w.arity]
		w.name = fmt.Sprintf("%s%d", prefix, i)
		g.gs = append(g.gs, w)
		g.weak = g.weak || w.weak
	}
}

// value is a constant of sort s, or a process name of procs.
func (g *wideGen) value(s wideSort, procs []string) string {
	switch s {
	case wEnum:
		return g.pick("A", "B", "C")
	case wBool:
		return g.pick("True", "False")
	case wProc:
		return procs[g.rng.IntN(len(procs))]
	default:
		return g.pick("0", "1", "2")
	}
}

// cell reads g at indices drawn from procs; reader, when not "", is
// the process whose view of a weak cell a formula names (reader@X),
// or that reads it in a transition (read(i, X) in the early syntax).
func (g *wideGen) cell(w wideGlob, procs []string, reader string) string {
	s := w.name
	switch w.arity {
	case 1:
		s += "[" + g.value(wProc, procs) + "]"
	case 2:
		s += "[" + g.value(wProc, procs) + "," + g.value(wProc, procs) + "]"
	}
	return g.view(w, s, reader)
}

// view is the read of cell text s of w by reader (see cell).
func (g *wideGen) view(w wideGlob, s, reader string) string {
	switch {
	case !w.weak || reader == "":
		return s
	case g.early:
		return "read(" + reader + ", " + s + ")"
	default:
		return reader + "@" + s
	}
}

// tr is the reader of weak cells in a transition of i: none in the
// current syntax (i's own view), i in the early one.
func (g *wideGen) tr() string {
	if g.early {
		return "i"
	}
	return ""
}

// atom is a comparison of a cell of a random global with a constant or
// (same sort) another cell.
func (g *wideGen) atom(procs []string, reader func() string) string {
	w := g.gs[g.rng.IntN(len(g.gs))]
	lhs := g.cell(w, procs, reader())
	if w.sort == wInt && g.rng.IntN(2) == 0 {
		return fmt.Sprintf("%s %s %s", lhs, g.pick("<", "<=", ">"), g.value(wInt, nil))
	}
	op := g.pick("=", "=", "<>")
	rhs := g.value(w.sort, procs)
	for _, v := range g.gs {
		if v.sort == w.sort && v.name != w.name && g.rng.IntN(4) == 0 {
			rhs = g.cell(v, procs, reader())
			break
		}
	}
	return fmt.Sprintf("%s %s %s", lhs, op, rhs)
}

func (g *wideGen) system() string {
	b := &g.b
	if g.rng.IntN(6) == 0 {
		g.procs = 2 + g.rng.IntN(2)
		fmt.Fprintf(b, "number_procs %d\n", g.procs)
	}
	b.WriteString("type val = A | B | C\n")
	sortName := []string{"val", "bool", "proc", "int"}
	for _, w := range g.gs {
		switch {
		case w.cnst:
			b.WriteString("const ")
		case w.weak:
			b.WriteString("weak ")
		}
		switch w.arity {
		case 0:
			fmt.Fprintf(b, "var %s : %s\n", w.name, sortName[w.sort])
		case 1:
			if !w.cnst {
				b.WriteString("array ")
			}
			fmt.Fprintf(b, "%s[proc] : %s\n", w.name, sortName[w.sort])
		case 2:
			fmt.Fprintf(b, "array %s[proc,proc] : %s\n", w.name, sortName[w.sort])
		}
	}
	g.init()
	for range 1 + g.rng.IntN(2) {
		g.root("unsafe")
	}
	for _, w := range g.gs {
		if w.cnst && g.rng.IntN(2) == 0 {
			// as the published files bound the processes of a kind:
			// never three with the same constant value (an invariant
			// is trusted, as Cubicle trusts it; one that reachable
			// states violate would make the search and the explorers
			// disagree by design)
			v := g.value(wBool, nil)
			fmt.Fprintf(&g.b, "invariant (p q r) { %s[p] = %s && %s[q] = %s && %s[r] = %s }\n", w.name, v, w.name, v, w.name, v)
			break
		}
	}
	for t := range 2 + g.rng.IntN(4) {
		g.transition(t)
	}
	return b.String()
}

func (g *wideGen) init() {
	var lits []string
	for _, w := range g.gs {
		if w.cnst || (w.sort == wProc && g.rng.IntN(2) == 0) || g.rng.IntN(6) == 0 {
			continue // left free
		}
		c := w.name
		switch w.arity {
		case 1:
			c += "[p]"
		case 2:
			c += "[p,q]"
		}
		v := g.value(w.sort, []string{"p"})
		if w.sort == wInt {
			v = "0"
		}
		lits = append(lits, c+" = "+v)
	}
	if len(lits) == 0 {
		lits = append(lits, "p = p")
	}
	fmt.Fprintf(&g.b, "init (p q) { %s }\n", strings.Join(lits, " && "))
}

// root writes an unsafe formula over one or two parameters, naming
// weak cells through a parameter's view.
func (g *wideGen) root(kw string) {
	ps := []string{"p", "q", "r"}[:1+g.rng.IntN(2)]
	var lits []string
	for range 1 + g.rng.IntN(3) {
		lits = append(lits, g.atom(ps, func() string { return g.value(wProc, ps) }))
	}
	if len(ps) > 1 && g.rng.IntN(6) == 0 {
		lits = append(lits, "p < q")
	}
	fmt.Fprintf(&g.b, "%s (%s) { %s }\n", kw, strings.Join(ps, " "), strings.Join(lits, " && "))
}

func (g *wideGen) transition(t int) {
	two := g.rng.IntN(3) == 0
	procs := []string{"i"}
	params := "i"
	if g.weak && !g.early {
		params = "[i]"
	}
	if two {
		procs = append(procs, "j")
		params += " j"
	}
	noReader := g.tr
	var guard []string
	for range g.rng.IntN(3) {
		guard = append(guard, g.atom(procs, noReader))
	}
	if two && g.rng.IntN(4) == 0 {
		guard = append(guard, g.pick("i < j", "j < i", "i <> j"))
	}
	switch g.rng.IntN(8) {
	case 0:
		// forall_other over a disjunction, a process comparison in it
		w := g.gs[g.rng.IntN(len(g.gs))]
		a := g.cell(w, []string{"m"}, g.tr())
		if w.arity == 2 {
			a = g.view(w, fmt.Sprintf("%s[m,i]", w.name), g.tr())
		}
		guard = append(guard, fmt.Sprintf("forall_other m. (%s || %s %s %s)",
			g.pick("m < i", "i < m"), a, g.pick("=", "<>"), g.value(w.sort, []string{"i", "m"})))
	case 1:
		w := g.gs[g.rng.IntN(len(g.gs))]
		a := g.cell(w, []string{"m"}, g.tr())
		guard = append(guard, fmt.Sprintf("%s m. %s %s %s", g.pick("forall_other", "exists_other"),
			a, g.pick("=", "<>"), g.value(w.sort, []string{"i", "m"})))
	}
	fences := ""
	if g.weak && g.rng.IntN(4) == 0 {
		f := g.pick("fence()", "fence(i)")
		if g.early {
			fences = "fences (i)\n"
		} else {
			guard = append(guard, f)
		}
	}
	fmt.Fprintf(&g.b, "transition t%d (%s)\n%s", t, params, fences)
	if len(guard) > 0 {
		fmt.Fprintf(&g.b, "requires { %s }\n", strings.Join(guard, " && "))
	}
	var ups []string
	used := map[string]bool{}
	for range 1 + g.rng.IntN(3) {
		w := g.gs[g.rng.IntN(len(g.gs))]
		if w.cnst || used[w.name] {
			continue
		}
		used[w.name] = true
		ups = append(ups, g.update(w, procs))
	}
	fmt.Fprintf(&g.b, "{ %s }\n", strings.Join(ups, "; "))
}

// rhs is a value for a cell of sort s: a constant, a copy of a cell of
// the same sort, an increment of an int, or (rarely) any value.
func (g *wideGen) rhs(w wideGlob, procs []string, self string) string {
	if w.sort == wInt && g.rng.IntN(2) == 0 {
		return self + " + 1"
	}
	if g.rng.IntN(12) == 0 {
		return "."
	}
	for _, v := range g.gs {
		if v.sort == w.sort && g.rng.IntN(5) == 0 {
			return g.cell(v, procs, g.tr())
		}
	}
	return g.value(w.sort, procs)
}

// assign is the update of cell lhs of w by value v.
func (g *wideGen) assign(w wideGlob, lhs, v string) string {
	if g.early && w.weak {
		return fmt.Sprintf("write(i, %s, %s)", lhs, v)
	}
	return lhs + " := " + v
}

func (g *wideGen) update(w wideGlob, procs []string) string {
	switch {
	case w.arity == 0 && g.rng.IntN(4) == 0:
		// case over the other variables and the processes
		var cs []string
		for range 1 + g.rng.IntN(2) {
			cond := g.atom(procs, g.tr)
			if len(procs) == 2 && g.rng.IntN(3) == 0 {
				cond = g.pick("i < j", "j < i")
			}
			cs = append(cs, fmt.Sprintf("%s : %s", cond, g.rhs(w, procs, w.name)))
		}
		if g.rng.IntN(3) != 0 {
			cs = append(cs, "_ : "+g.rhs(w, procs, w.name))
		}
		return g.assign(w, w.name, "case | "+strings.Join(cs, " | "))
	case w.arity == 0:
		return g.assign(w, w.name, g.rhs(w, procs, g.view(w, w.name, g.tr())))
	case w.arity == 1 && g.rng.IntN(2) == 0:
		// every cell at once
		ks := append([]string{"k"}, procs...)
		var cs []string
		self := g.view(w, w.name+"[k]", g.tr())
		cs = append(cs, fmt.Sprintf("%s : %s", g.pick("k = i", "k < i", "i < k"), g.rhs(w, ks, self)))
		if g.rng.IntN(2) == 0 {
			cond := g.atom(ks, g.tr)
			cs = append(cs, fmt.Sprintf("%s : %s", cond, g.rhs(w, ks, self)))
		}
		switch g.rng.IntN(3) {
		case 0:
			cs = append(cs, "_ : "+g.rhs(w, ks, self))
		case 1:
			cs = append(cs, "_ : "+self)
		}
		return g.assign(w, w.name+"[k]", "case | "+strings.Join(cs, " | "))
	case w.arity == 1:
		c := fmt.Sprintf("%s[%s]", w.name, g.value(wProc, procs))
		return g.assign(w, c, g.rhs(w, procs, g.view(w, c, g.tr())))
	case g.rng.IntN(2) == 0:
		// a row at once
		return g.assign(w, w.name+"[x,y]", fmt.Sprintf("case | x = i : %s | _ : %s",
			g.value(w.sort, append([]string{"x", "y"}, procs...)), g.view(w, w.name+"[x,y]", g.tr())))
	default:
		c := fmt.Sprintf("%s[%s,%s]", w.name, g.value(wProc, procs), g.value(wProc, procs))
		return g.assign(w, c, g.rhs(w, procs, g.view(w, c, g.tr())))
	}
}
