package param

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// genOutsidePair writes a random small system with a proc variable Home
// that holds no process (init (p) { Home <> p && ... }) and indexes its
// arrays (procoutside.go), and, written side by side, the same system
// with each cell A[Home] a variable A_home of its own, which every
// update of all cells writes too, with Home for the index (what
// Cubicle's pre-image does to A[Home]). Guards and unsafe formulas read
// cells of parameters and of Home, forall_other ranges over the
// processes only.
func genOutsidePair(rng *rand.Rand) (home, explicit string) {
	vals := []string{"A", "B", "C"}
	val := func() string { return vals[rng.IntN(3)] }
	op := func() string { return []string{"=", "<>"}[rng.IntN(2)] }
	n := 1 + rng.IntN(3)
	arr := func() int { return rng.IntN(n) }
	var h, e strings.Builder
	both := func(format string, args ...any) {
		fmt.Fprintf(&h, format, args...)
		fmt.Fprintf(&e, format, args...)
	}
	// each writes a piece in its form: cell k of Home
	hc := func(k int) string { return fmt.Sprintf("Arr%d[Home]", k) }
	ec := func(k int) string { return fmt.Sprintf("Arr%d_home", k) }
	pair := func(f func(cell func(int) string) string) {
		h.WriteString(f(hc))
		e.WriteString(f(ec))
	}
	both("type val = A | B | C\nvar Home : proc\nvar X : val\n")
	for k := range n {
		both("array Arr%d[proc] : val\n", k)
		fmt.Fprintf(&e, "var Arr%d_home : val\n", k)
	}
	initHome := make([]string, n)
	for k := range n {
		if rng.IntN(2) == 0 {
			initHome[k] = val()
		}
	}
	pair(func(cell func(int) string) string {
		parts := []string{"Home <> p", "X = A"}
		for k := range n {
			parts = append(parts, fmt.Sprintf("Arr%d[p] = A", k))
			if initHome[k] != "" {
				parts = append(parts, fmt.Sprintf("%s = %s", cell(k), initHome[k]))
			}
		}
		return fmt.Sprintf("init (p) { %s }\n", strings.Join(parts, " && "))
	})
	// unsafe
	type atom struct {
		kind, k int
		op, v   string
	}
	var us []atom
	for range 1 + rng.IntN(2) {
		us = append(us, atom{kind: rng.IntN(3), k: arr(), op: "=", v: []string{"B", "C"}[rng.IntN(2)]})
	}
	pair(func(cell func(int) string) string {
		var parts []string
		for _, a := range us {
			switch a.kind {
			case 0:
				parts = append(parts, fmt.Sprintf("Arr%d[p] = %s", a.k, a.v))
			case 1:
				parts = append(parts, fmt.Sprintf("%s = %s", cell(a.k), a.v))
			default:
				parts = append(parts, fmt.Sprintf("X = %s", a.v))
			}
		}
		return fmt.Sprintf("unsafe (p) { %s }\n", strings.Join(parts, " && "))
	})
	for t := range 2 + rng.IntN(4) {
		var gs []atom
		forall := false // one forall_other a guard, last (it takes the rest)
		for range rng.IntN(3) {
			a := atom{kind: rng.IntN(4), k: arr(), op: op(), v: val()}
			if a.kind == 2 {
				if forall {
					a.kind = 0
				}
				forall = true
			}
			gs = append(gs, a)
		}
		slices.SortStableFunc(gs, func(a, b atom) int { return boolInt(a.kind == 2) - boolInt(b.kind == 2) })
		type upd struct {
			kind, k, k2     int
			v, v2, v3, dflt string
		}
		var ups []upd
		used := map[int]bool{}
		for range 1 + rng.IntN(2) {
			u := upd{kind: rng.IntN(4), k: arr(), k2: arr(), v: val(), v2: val(), v3: val()}
			if u.kind == 3 {
				u.k = -1 // X
			}
			if used[u.k] {
				continue
			}
			used[u.k] = true
			switch rng.IntN(3) {
			case 0:
				u.dflt = val()
			case 1:
				u.dflt = "self"
			}
			ups = append(ups, u)
		}
		both("transition t%d (i)\n", t)
		pair(func(cell func(int) string) string {
			var parts []string
			for _, g := range gs {
				switch g.kind {
				case 0:
					parts = append(parts, fmt.Sprintf("Arr%d[i] %s %s", g.k, g.op, g.v))
				case 1:
					parts = append(parts, fmt.Sprintf("%s %s %s", cell(g.k), g.op, g.v))
				case 2:
					parts = append(parts, fmt.Sprintf("forall_other m. Arr%d[m] %s %s", g.k, g.op, g.v))
				default:
					parts = append(parts, fmt.Sprintf("X %s %s", g.op, g.v))
				}
			}
			if len(parts) == 0 {
				return ""
			}
			return fmt.Sprintf("requires { %s }\n", strings.Join(parts, " && "))
		})
		pair(func(cell func(int) string) string {
			var parts []string
			for _, u := range ups {
				switch u.kind {
				case 0:
					parts = append(parts, fmt.Sprintf("Arr%d[i] := %s", u.k, u.v))
				case 1:
					parts = append(parts, fmt.Sprintf("%s := %s", cell(u.k), u.v))
				case 2:
					// every cell, and in the explicit form Home's
					// variable with Home for k
					c := func(idx string, self string, other string) string {
						s := fmt.Sprintf("case | %s = i : %s | %s = %s : %s", idx, u.v, other, u.v2, u.v3)
						switch u.dflt {
						case "":
						case "self":
							s += " | _ : " + self
						default:
							s += " | _ : " + u.dflt
						}
						return s
					}
					parts = append(parts, fmt.Sprintf("Arr%d[k] := %s", u.k, c("k", fmt.Sprintf("Arr%d[k]", u.k), fmt.Sprintf("Arr%d[k]", u.k2))))
					if cell(0) == ec(0) {
						parts = append(parts, fmt.Sprintf("%s := %s", ec(u.k), c("Home", ec(u.k), ec(u.k2))))
					}
				default:
					parts = append(parts, fmt.Sprintf("X := %s", cell(u.k2)))
				}
			}
			return fmt.Sprintf("{ %s }\n", strings.Join(parts, "; "))
		})
	}
	return h.String(), e.String()
}

// TestSelfCheckRandomOutside cross-checks the reading of a proc variable
// that holds no process as an index (procoutside.go) on random systems
// (genOutsidePair): the verdict of each agrees with its finite
// instances, and with the verdict of the same system written with
// variables for Home's cells. 100 by default, 1500 under MUSKET_LONG
// (MUSKET_SELFCHECK_N, MUSKET_SELFCHECK_SEED override).
func TestSelfCheckRandomOutside(t *testing.T) {
	n := selfCheckCount(100, 1500)
	seed := selfCheckSeed(43)
	rng := rand.New(rand.NewPCG(seed, 13))
	count := map[Verdict]int{}
	var traces traceCount
	for i := range n {
		home, explicit := genOutsidePair(rng)
		opts := Options{MaxNodes: 60, Timeout: 2 * time.Second}
		problem, v, cc := crossCheckTrace(context.Background(), home, opts, 2000)
		count[v]++
		traces.add(cc)
		if problem != "" {
			t.Errorf("system %d:\n%s\n%s", i, home, problem)
			continue
		}
		if v != Safe && v != Unsafe {
			continue
		}
		sys, err := Load("explicit.cub", []byte(explicit))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, explicit)
		}
		res, err := Verify(context.Background(), sys, opts)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		if (res.Verdict == Safe || res.Verdict == Unsafe) && res.Verdict != v {
			t.Errorf("system %d: %s with Home's cells, %s with variables:\n%s\n%s", i, v, res.Verdict, home, explicit)
		}
	}
	t.Logf("%d systems: %d SAFE, %d UNSAFE (%s), %d without verdict", n, count[Safe], count[Unsafe],
		traces, n-count[Safe]-count[Unsafe])
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
