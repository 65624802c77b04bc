package cfront

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/rel"
	"github.com/musket-verify/musket/internal/result"
)

// This file finds the two accesses of a data race. A race is the
// model's: the relation its race flag tests (rc11.cat, c11.cat and
// imm.cat: `flag ~empty race as data-race`, with race the conflicting
// pairs, one access plain, that happens-before orders neither way). The
// witness of the flag, whichever engine found it, is rebuilt as an
// execution, the model is evaluated on it, and a pair of that relation
// is the race reported: the same definition under every engine.

// RaceAccess is one of the two accesses of a data race, in C terms.
type RaceAccess struct {
	Event  int      // the event's id in the witness
	Thread int      // P0 is main
	Var    string   // the location, as the program names it (CName)
	Pos    prog.Pos // the access's source position
	Write  bool
	Order  string // plain, relaxed, acquire, release, acq_rel or seq_cst
}

func (a RaceAccess) String() string {
	verb := "reads"
	if a.Write {
		verb = "writes"
	}
	where := ""
	if a.Pos.Line > 0 {
		where = fmt.Sprintf(" at %s:%d", filepath.Base(a.Pos.File), a.Pos.Line)
	}
	return fmt.Sprintf("P%d %s %s (%s)%s", a.Thread, verb, a.Var, a.Order, where)
}

// accessOrder is the memory order of an access by its tags.
func accessOrder(tags []string) string {
	has := func(t string) bool {
		for _, x := range tags {
			if x == t {
				return true
			}
		}
		return false
	}
	switch {
	case has(tagNA) || has("NAL") || len(tags) == 0:
		return "plain"
	case !has(tagA):
		// The Linux kernel's marked accesses (READ_ONCE: Once, ...).
		for _, t := range tags {
			if t != "RMW" && t != "X" && t != "IW" {
				return strings.ToLower(t)
			}
		}
		return "marked"
	case has("SC"):
		return "seq_cst"
	case has("ACQ_REL") || has("ACQ") && has("REL"):
		return "acq_rel"
	case has("ACQ"):
		return "acquire"
	case has("REL"):
		return "release"
	}
	return "relaxed"
}

// parseLabel reads an event label of the engines ("k: W.A.REL[x]=1",
// "l: F[SC]") back: the kind, the tags and the location.
func parseLabel(label string) (kind event.Kind, tags []string, loc string, ok bool) {
	if i := strings.Index(label, ": "); i >= 0 {
		label = label[i+2:]
	}
	i := strings.IndexByte(label, '[')
	j := strings.LastIndexByte(label, ']')
	if i < 1 || j < i {
		return 0, nil, "", false
	}
	head := strings.Split(label[:i], ".")
	switch head[0] {
	case "R":
		kind = event.Read
	case "W":
		kind = event.Write
	case "F":
		for _, t := range strings.Split(label[i+1:j], ".") {
			if t != "" {
				tags = append(tags, t)
			}
		}
		return event.Fence, tags, "", true
	default:
		return 0, nil, "", false
	}
	return kind, head[1:], label[i+1 : j], true
}

// flagRelations are the names of the relations flag `name` of m tests
// (race in `flag ~empty race as data-race`; the three of the Linux
// kernel's `ww-race | wr-race | rw-race`), nil when it tests another
// expression.
func flagRelations(m *cat.Model, name string) []string {
	var found []string
	var names func(e cat.Expr) ([]string, bool)
	names = func(e cat.Expr) ([]string, bool) {
		switch e := e.(type) {
		case *cat.Ident:
			return []string{e.Name}, true
		case *cat.BinaryExpr:
			if e.Op != cat.OpUnion {
				return nil, false
			}
			a, ok1 := names(e.X)
			b, ok2 := names(e.Y)
			return append(a, b...), ok1 && ok2
		}
		return nil, false
	}
	var walk func([]cat.Stmt)
	walk = func(ss []cat.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *cat.CheckStmt:
				if s.Kind == cat.Flag && s.Test != nil && s.Test.Name == name {
					if ns, ok := names(s.Test.X); ok && found == nil {
						found = ns
					}
				}
			case *cat.BlockStmt:
				walk(s.Stmts)
			case *cat.IfStmt:
				walk(s.Then)
				walk(s.Else)
			}
		}
	}
	walk(m.Syntax())
	return found
}

// racePair finds the two racing accesses of the race witness of res
// (flag res.RaceFlag of the model): ok is false when the witness cannot
// be read back or the model's race relation is not a name.
func racePair(res *Result, m *cat.Model, tags []string, variants map[string]bool) (pair [2]RaceAccess, ok bool) {
	w := res.Result.Witness
	if m == nil || w == nil {
		return pair, false
	}
	relNames := flagRelations(m, res.RaceFlag)
	if relNames == nil {
		return pair, false
	}
	n := len(w.Events)
	idx := map[int]int{}
	g := &event.Graph{TagNames: tags}
	for i, we := range w.Events {
		kind, tg, loc, ok := parseLabel(we.Label)
		if !ok {
			return pair, false
		}
		if we.Thread < 0 {
			tg = append(tg, "IW")
		}
		idx[we.ID] = i
		e := event.Event{ID: i, Thread: we.Thread, Kind: kind, Loc: loc, Tags: tg, Instr: i, PC: we.PC}
		if i > 0 && kind == event.Write && we.Thread >= 0 {
			// The write of a read-modify-write: the same instruction
			// as the read before it.
			p := &g.Events[i-1]
			if p.Kind == event.Read && p.Thread == we.Thread && p.PC == we.PC && p.HasTag(tagRMW) && e.HasTag(tagRMW) {
				e.Instr = p.Instr
				g.Rmw = append(g.Rmw, [2]int{i - 1, i})
			}
		}
		if i > 0 && we.Thread >= 0 && g.Events[i-1].Thread > we.Thread {
			return pair, false // not numbered thread by thread
		}
		g.Events = append(g.Events, e)
	}
	pairs := func(ps [][2]int) (rel.Rel, bool) {
		b := rel.NewBuilder(n)
		for _, p := range ps {
			a, ok1 := idx[p[0]]
			c, ok2 := idx[p[1]]
			if !ok1 || !ok2 {
				return rel.Rel{}, false
			}
			b.Add(a, c)
		}
		return b.Rel(), true
	}
	rf, ok1 := pairs(w.Rf)
	co, ok2 := pairs(w.Co)
	if !ok1 || !ok2 {
		return pair, false
	}
	co = co.Plus()
	st := g.Static()
	xe := &cat.Execution{N: n, Sets: st.Sets, Loc: st.Loc, Rels: make(map[string]rel.Rel, len(st.Rels)+10)}
	for k, v := range st.Rels {
		xe.Rels[k] = v
	}
	intl, ext := st.Rels["int"], st.Rels["ext"]
	fr := rf.Inverse().Seq(co).Diff(st.Rels["id"])
	for name, r := range map[string]rel.Rel{"rf": rf, "co": co, "fr": fr} {
		xe.Rels[name] = r
		xe.Rels[name+"i"] = r.Inter(intl)
		xe.Rels[name+"e"] = r.Inter(ext)
	}
	var race rel.Rel
	found := false
	skipAll := func(string) bool { return true }
	_ = m.Check(xe, cat.CheckOptions{Variants: variants, Skip: skipAll}, func(o cat.Outcome) bool {
		u := rel.NewRel(n)
		for _, name := range relNames {
			if r, ok := o.Rel(name); ok {
				u = u.Union(r)
			}
		}
		if !u.IsEmpty() {
			race, found = u, true
			return false
		}
		return true
	})
	if !found {
		return pair, false
	}
	a, b := -1, -1
	race.Each(func(i, j int) {
		if a < 0 && i < j {
			a, b = i, j
		}
	})
	if a < 0 {
		return pair, false
	}
	for k, i := range []int{a, b} {
		e, we := &g.Events[i], w.Events[i]
		acc := RaceAccess{Event: we.ID, Thread: we.Thread, Var: res.Program.CName(e.Loc), Write: e.Kind == event.Write, Order: accessOrder(e.Tags)}
		if we.Thread >= 0 && we.Thread < len(res.Test.Threads) {
			th := res.Test.Threads[we.Thread]
			if we.PC >= 0 && we.PC < len(th.Pos) {
				acc.Pos = th.Pos[we.PC]
			}
		}
		pair[k] = acc
	}
	return pair, true
}

// raceFlag is the first race flag (sorted by name) that r raises when
// opts ask for races, else "".
func raceFlag(opts CheckOptions, r *result.Result) string {
	if !opts.Races {
		return ""
	}
	for _, f := range r.Flags {
		if IsRaceFlag(f) && r.FlagWitnesses[f] != nil {
			return f
		}
	}
	return ""
}

// raceOf makes res a RACE verdict on the race flag raised: its witness
// (the flag's), and the racing pair when it can be found.
func (res *Result) raceOf(r *result.Result, flag string, opts CheckOptions, tags []string) {
	res.Verdict, res.RaceFlag = Race, flag
	r.Witness = r.FlagWitnesses[flag]
	if pair, ok := racePair(res, opts.Model, tags, opts.Variants); ok {
		res.RacePair = &pair
	}
}
