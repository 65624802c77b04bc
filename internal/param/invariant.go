package param

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/lazyre"
)

// This file prints the invariant that a safe verdict rests on: the
// visited cubes of the search (guesses of the approximation included)
// are unreachable, and their negations form an inductive invariant that
// excludes the unsafe states. Cubes without weak events print in
// Cubicle's syntax, "invariant (z1 z2) { cube }" (an invariant declares
// a cube that no reachable state satisfies), so that a user can check
// them or give them back to Cubicle or Musket; cubes with weak events
// (Cubicle-W) have no such syntax and print as comments.

// Invariant is one cube of the invariant of a safe verdict.
type Invariant struct {
	Text  string // "invariant (z1) { ... }" or "(* weak: ... *)"
	Guess bool   // a generalisation made by the approximation
	Weak  bool   // the cube has weak events: no Cubicle syntax
}

// Invariants lists the cubes whose negations form the inductive
// invariant of a safe result (nil otherwise).
func (r *Result) Invariants(sys *System) []Invariant {
	if r.Verdict != Safe {
		return nil
	}
	var out []Invariant
	for _, c := range r.cubes {
		out = append(out, sys.invariant(c))
	}
	return out
}

var slotRE = lazyre.New(`#[0-9]+`)

func (sys *System) invariant(c *Cube) Invariant {
	inv := Invariant{Guess: c.Origin != nil}
	if len(c.Nodes) > 0 {
		inv.Weak = true
		inv.Text = "(* weak: " + sys.CubeString(c) + " *)"
		return inv
	}
	names := map[string]string{}
	var params []string
	for _, s := range c.Slots {
		if s > sys.Pinned {
			n := "z" + strconv.Itoa(len(params)+1)
			names[slotName(s)] = n
			params = append(params, n)
		}
	}
	var lits []string
	for _, l := range c.Lits {
		lits = append(lits, slotRE.ReplaceAllStringFunc(sys.litString(l), func(m string) string {
			if n, ok := names[m]; ok {
				return n
			}
			return m
		}))
	}
	body := strings.Join(lits, " && ")
	if body == "" {
		body = "True"
	}
	inv.Text = fmt.Sprintf("invariant (%s) { %s }", strings.Join(params, " "), body)
	return inv
}

// WriteInvariants prints the invariant of a safe result, one cube a line.
func WriteInvariants(w io.Writer, sys *System, r *Result) {
	invs := r.Invariants(sys)
	if invs == nil {
		if r.Verdict == Safe && r.Forward {
			fmt.Fprintln(w, "(* No inductive invariant: the answer comes from the complete exploration of the instances of up to number_procs processes *)")
		}
		return
	}
	guesses := 0
	for _, inv := range invs {
		if inv.Guess {
			guesses++
		}
	}
	fmt.Fprintf(w, "(* Inductive invariant: no reachable state satisfies any of these %d cubes (%d found by approximation) *)\n", len(invs), guesses)
	for _, inv := range invs {
		if inv.Weak {
			fmt.Fprintln(w, "(* weak cubes: p@X{e} is the value that event e of process p reads of X; e:{p R W F ...} says what p does in e (R reads, W writes, F after a fence), Wr(p,X) and Rd(p,X) its writes and unsatisfied reads; ghb(e,f): e is before f in the global happens-before order *)")
			break
		}
	}
	for _, inv := range invs {
		fmt.Fprintln(w, inv.Text)
	}
}
