package gen

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ExpandList reads a list of edges (blanks or commas between them) where
// a '*' in a direction stands for both R and W (Pod** is PodRR, PodRW,
// PodWR, PodWW), without repeats.
func (a *Arch) ExpandList(s string) ([]Edge, error) {
	var out []Edge
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		for _, name := range expandStars(w) {
			if seen[name] {
				continue
			}
			seen[name] = true
			e, err := a.ParseEdge(name)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
	}
	return out, nil
}

func expandStars(w string) []string {
	i := strings.IndexByte(w, '*')
	if i < 0 {
		return []string{w}
	}
	var out []string
	for _, d := range []string{"R", "W"} {
		out = append(out, expandStars(w[:i]+d+w[i+1:])...)
	}
	return out
}

// Options bound an enumeration.
type Options struct {
	Relax []Edge // edges a cycle may use
	// Safe, when not empty, are edges a cycle may use too; a cycle then
	// has one edge of Relax at least (diy7's -relax and -safe).
	Safe  []Edge
	Size  int // edges in a cycle, at most
	Procs int // threads, at most (0: no bound)
	Obs   Obs // how observers pin coherence orders (diy7's -obs)
	// Stop, when not nil, is polled as the enumeration goes: once it
	// returns true the enumeration ends early with the tests found so
	// far and Stats.Stopped set. The number of cycles grows
	// exponentially with Size, so a large Size never ends without it
	// (a time limit or an interrupt).
	Stop func() bool
}

// Generated is one test of an enumeration.
type Generated struct {
	Test *Test
	Name string // unique in the enumeration: herd's name, with 001, 002, ... for a repeated one
}

// Stats count the cycles an enumeration looked at.
type Stats struct {
	Cycles      int  // valid cycles, once up to rotation
	Unsupported int  // valid cycles the generator declines (see ErrUnsupported)
	Stopped     bool // Options.Stop ended the enumeration: the tests are a part of the whole
}

// Enumerate lists, once up to rotation, every cycle of at most
// opt.Size edges over the edges of opt, that is a test (Build accepts
// it) of at most opt.Procs threads, in a deterministic order (by
// size, then by the canonical spelling of the cycle).
func (a *Arch) Enumerate(opt Options) ([]Generated, Stats, error) {
	var st Stats
	if opt.Size < 2 {
		return nil, st, fmt.Errorf("a cycle has two edges at least (size %d)", opt.Size)
	}
	all := append(append([]Edge(nil), opt.Relax...), opt.Safe...)
	relax := map[string]bool{}
	for _, e := range opt.Relax {
		relax[e.Name] = true
	}
	if len(all) == 0 {
		return nil, st, fmt.Errorf("no edges to build cycles from")
	}
	seen := map[string]bool{}
	type found struct {
		key string
		t   *Test
	}
	var tests []found
	cur := make([]Edge, 0, opt.Size)
	var rec func()
	rec = func() {
		if st.Stopped || (opt.Stop != nil && opt.Stop()) {
			st.Stopped = true
			return
		}
		if len(cur) >= 2 && cur[len(cur)-1].Dst == cur[0].Src {
			try(cur, opt, relax, seen, &st, func(k string, t *Test) { tests = append(tests, found{k, t}) }, a)
		}
		if len(cur) == opt.Size {
			return
		}
		for _, e := range all {
			if len(cur) > 0 && cur[len(cur)-1].Dst != e.Src {
				continue
			}
			cur = append(cur, e)
			rec()
			cur = cur[:len(cur)-1]
		}
	}
	rec()
	sort.Slice(tests, func(i, j int) bool {
		a, b := tests[i], tests[j]
		if len(a.t.Edges) != len(b.t.Edges) {
			return len(a.t.Edges) < len(b.t.Edges)
		}
		return a.key < b.key
	})
	out := make([]Generated, len(tests))
	names := map[string]int{}
	for i, f := range tests {
		name := f.t.Name()
		if c := names[name]; c > 0 {
			names[name]++
			name = fmt.Sprintf("%s%03d", name, c)
		} else {
			names[name] = 1
		}
		out[i] = Generated{Test: f.t, Name: name}
	}
	return out, st, nil
}

func try(cur []Edge, opt Options, relax, seen map[string]bool, st *Stats, add func(string, *Test), a *Arch) {
	if len(opt.Safe) > 0 {
		has := false
		for _, e := range cur {
			has = has || relax[e.Name]
		}
		if !has {
			return
		}
	}
	ext := 0
	for _, e := range cur {
		if e.Ext {
			ext++
		}
	}
	if ext < 2 || (opt.Procs > 0 && ext > opt.Procs) {
		return
	}
	key := Canonical(cur)
	if seen[key] {
		return
	}
	seen[key] = true
	t, err := BuildObs(a, append([]Edge(nil), cur...), opt.Obs)
	var unsup *ErrUnsupported
	switch {
	case errors.As(err, &unsup):
		st.Unsupported++
		return
	case err != nil:
		return
	}
	st.Cycles++
	add(key, t)
}
