package param

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genSystem writes a random small well-typed .cub system: one enum
// type, 1 to 3 variables and arrays (weak ones with probability
// weakProb each), sometimes number_procs, 2 to 5 transitions whose
// guards compare cells with constants (over every other process with
// forall_other now and then, and call fence()) and whose updates assign
// constants or case expressions over every process, with and without
// a default branch. The unsafe formula reads weak cells with p@X.
func genSystem(rng *rand.Rand, weakProb float64) string {
	return genSystemWith(rng, weakProb, false)
}

// genSystemWith is genSystem, with process constants when consts is
// set: guards and unsafe formulas compare parameters with #1 and #2,
// and cells indexed by them (A[#1]) are read, written and named in the
// unsafe formula. Without consts it draws the same systems as before.
func genSystemWith(rng *rand.Rand, weakProb float64, consts bool) string {
	konst := func() string { return []string{"#1", "#2"}[rng.IntN(2)] }
	type glob struct {
		name  string
		array bool
		weak  bool
	}
	vals := []string{"A", "B", "C"}
	val := func() string { return vals[rng.IntN(len(vals))] }
	var gs []glob
	for i := range 1 + rng.IntN(3) {
		g := glob{array: rng.IntN(2) == 0, weak: rng.Float64() < weakProb}
		if g.array {
			g.name = fmt.Sprintf("Arr%d", i)
		} else {
			g.name = fmt.Sprintf("Var%d", i)
		}
		gs = append(gs, g)
	}
	weak := false
	for _, g := range gs {
		weak = weak || g.weak
	}
	var b strings.Builder
	if rng.IntN(8) == 0 {
		fmt.Fprintf(&b, "number_procs %d\n", 2+rng.IntN(2))
	}
	b.WriteString("type val = A | B | C\n")
	for _, g := range gs {
		if g.weak {
			b.WriteString("weak ")
		}
		if g.array {
			fmt.Fprintf(&b, "array %s[proc] : val\n", g.name)
		} else {
			fmt.Fprintf(&b, "var %s : val\n", g.name)
		}
	}
	// init
	var inits []string
	for _, g := range gs {
		if g.array {
			inits = append(inits, fmt.Sprintf("%s[p] = A", g.name))
		} else {
			inits = append(inits, fmt.Sprintf("%s = A", g.name))
		}
	}
	fmt.Fprintf(&b, "init (p) { %s }\n", strings.Join(inits, " && "))
	// unsafe: cells of p and q
	cellIn := func(g glob, reader, idx string, formula bool) string {
		s := g.name
		if g.array {
			s += "[" + idx + "]"
		}
		if g.weak && formula {
			s = reader + "@" + s
		}
		return s
	}
	var us []string
	for k := range 1 + rng.IntN(2) {
		g := gs[rng.IntN(len(gs))]
		p := []string{"p", "q"}[k%2]
		idx := p
		if consts && g.array && rng.IntN(3) == 0 {
			idx = konst()
		}
		us = append(us, fmt.Sprintf("%s = %s", cellIn(g, p, idx, true), []string{"B", "C"}[rng.IntN(2)]))
	}
	if consts && rng.IntN(3) == 0 {
		us = append(us, fmt.Sprintf("%s %s %s", []string{"p", "q"}[rng.IntN(2)], []string{"=", "<>"}[rng.IntN(2)], konst()))
	}
	fmt.Fprintf(&b, "unsafe (p q) { %s }\n", strings.Join(us, " && "))
	// transitions
	for t := range 2 + rng.IntN(4) {
		two := rng.IntN(3) == 0
		params := "i"
		if weak {
			params = "[i]"
		}
		if two {
			params += " j"
		}
		var guard []string
		for range rng.IntN(3) {
			g := gs[rng.IntN(len(gs))]
			idx := "i"
			if two && rng.IntN(2) == 0 {
				idx = "j"
			}
			if consts && g.array && rng.IntN(4) == 0 {
				idx = konst()
			}
			op := "="
			if rng.IntN(3) == 0 {
				op = "<>"
			}
			guard = append(guard, fmt.Sprintf("%s %s %s", cellIn(g, "i", idx, false), op, val()))
		}
		if rng.IntN(5) == 0 {
			g := gs[rng.IntN(len(gs))]
			op := []string{"=", "<>"}[rng.IntN(2)]
			guard = append(guard, fmt.Sprintf("forall_other m. %s %s %s", cellIn(g, "i", "m", false), op, val()))
		}
		if consts && rng.IntN(3) == 0 {
			guard = append(guard, fmt.Sprintf("i %s %s", []string{"=", "<>"}[rng.IntN(2)], konst()))
		}
		if weak && rng.IntN(4) == 0 {
			guard = append(guard, "fence()")
		}
		fmt.Fprintf(&b, "transition t%d (%s)\n", t, params)
		if len(guard) > 0 {
			fmt.Fprintf(&b, "requires { %s }\n", strings.Join(guard, " && "))
		}
		var ups []string
		used := map[string]bool{}
		for range 1 + rng.IntN(2) {
			g := gs[rng.IntN(len(gs))]
			if used[g.name] {
				continue
			}
			used[g.name] = true
			switch {
			case g.array && rng.IntN(2) == 0:
				// every process at once
				var cs []string
				cs = append(cs, fmt.Sprintf("k = i : %s", val()))
				if rng.IntN(2) == 0 {
					cs = append(cs, fmt.Sprintf("%s[k] = %s : %s", g.name, val(), val()))
				}
				switch rng.IntN(3) {
				case 0:
					cs = append(cs, "_ : "+val())
				case 1:
					cs = append(cs, fmt.Sprintf("_ : %s[k]", g.name))
				}
				ups = append(ups, fmt.Sprintf("%s[k] := case | %s", g.name, strings.Join(cs, " | ")))
			case g.array:
				idx := "i"
				if two && rng.IntN(2) == 0 {
					idx = "j"
				}
				if consts && rng.IntN(4) == 0 {
					idx = konst()
				}
				ups = append(ups, fmt.Sprintf("%s[%s] := %s", g.name, idx, val()))
			case rng.IntN(3) == 0:
				h := gs[rng.IntN(len(gs))]
				cond := cellIn(h, "i", "i", false) + " = " + val()
				def := ""
				if rng.IntN(2) == 0 {
					def = " | _ : " + val()
				}
				ups = append(ups, fmt.Sprintf("%s := case | %s : %s%s", g.name, cond, val(), def))
			default:
				ups = append(ups, fmt.Sprintf("%s := %s", g.name, val()))
			}
		}
		fmt.Fprintf(&b, "{ %s }\n", strings.Join(ups, "; "))
	}
	return b.String()
}
