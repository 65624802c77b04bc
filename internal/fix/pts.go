package fix

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/arch"
	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/pts"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// ptsSubject is a .pts program (the C11-like language of Dartagnan) to
// repair for a compilation target. The language has no fence statement:
// its repairs are stronger memory orders on loads and stores, priced by
// what the C11 mappings compile them to on the target (an acquire load on
// Power costs its lwsync; a release store on x86 is free and so never a
// candidate).
type ptsSubject struct {
	text   *Text
	t      *spec.Test
	target string
	cands  []Cand
	opts   Options
	loopy  []bool

	m     *cat.Model
	mname string
	// cond, when set, replaces the program's condition (an exists):
	// compare -fix asks to forbid the target-only states.
	cond spec.Cond
	// budget, when positive, bounds the candidate executions the
	// explicit engine evaluates in a check: a check that finds no
	// witness within it is decided by the SMT engine (fallbacks counts
	// those). The explicit engine finds many witnesses fast, but
	// proving a condition unreachable means enumerating every
	// execution, which on a program with many loads of many writes
	// (Szymanski's protocol under Power) it cannot do in any time the
	// SMT engine needs.
	budget    int
	fallbacks int
}

// ptsOrder matches a memory order in a .pts statement.
var ptsOrder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(memory_order_)?(_?)(rx|con|acq|rel|sc|relaxed|consume|acquire|release|seq_cst)\b`)
})

var ptsCanon = map[string]string{"rx": pts.Rx, "relaxed": pts.Rx, "con": pts.Con, "consume": pts.Con, "acq": pts.Acq, "acquire": pts.Acq, "rel": pts.Rel, "release": pts.Rel, "sc": pts.SC, "seq_cst": pts.SC}
var ptsLong = map[string]string{pts.Rx: "relaxed", pts.Con: "consume", pts.Acq: "acquire", pts.Rel: "release", pts.SC: "seq_cst"}
var ptsRank = map[string]int{pts.Rx: 0, pts.Con: 1, pts.Acq: 1, pts.Rel: 1, pts.SC: 2}

// NewPts reads a .pts program for repair on opts.Target.
func NewPts(file string, src []byte, opts Options) (Subject, error) {
	if opts.Target == "" {
		return nil, fmt.Errorf("%s: a .pts program is repaired for a compilation target: give -target (%s)", file, strings.Join(compile.Targets(), ", "))
	}
	a, ok := arch.ByTarget(opts.Target)
	if !ok {
		return nil, fmt.Errorf("unknown target %q (want %s)", opts.Target, strings.Join(compile.Targets(), ", "))
	}
	t, err := pts.Parse(file, src)
	if err != nil {
		return nil, err
	}
	if opts.Bound <= 0 {
		return nil, fmt.Errorf("%s: a .pts program needs -bound 1 or more", file)
	}
	if opts.Costs == nil {
		opts.Costs = DefaultCosts()
	}
	model := opts.Model
	if model == "" {
		model = a.Model
	}
	m, name, err := driver.Load(model)
	if err != nil {
		return nil, err
	}
	s := &ptsSubject{text: NewText(file, src), t: t, target: opts.Target, opts: opts, m: m, mname: name}
	for _, th := range t.Threads {
		s.loopy = append(s.loopy, backward(th))
	}
	accs := lineAccesses{}
	for ti, th := range t.Threads {
		for _, l := range accessLines(th) {
			acc := accs.at(th, l)
			ms := ptsOrder().FindAllStringSubmatch(s.text.Lines[l-1], -1)
			if len(acc) != 1 || len(ms) != 1 {
				continue
			}
			var kind compile.Kind
			var tags []string
			switch in := acc[0].(type) {
			case prog.Load:
				kind, tags = compile.Load, in.Tags
			case prog.Store:
				kind, tags = compile.Store, in.Tags
			default:
				continue
			}
			cur := ptsCanon[ms[0][3]]
			if len(tags) != 1 || tags[0] != cur {
				continue
			}
			base, ok := s.price(kind, cur)
			if !ok {
				continue
			}
			want := []string{pts.Acq, pts.SC}
			if kind == compile.Store {
				want = []string{pts.Rel, pts.SC}
			}
			for _, o := range want {
				if ptsRank[o] <= ptsRank[cur] || s.same(kind, cur, o) {
					continue
				}
				p, ok := s.price(kind, o)
				if !ok {
					continue
				}
				cost := p - base
				if cost < 0 {
					cost = 0
				}
				word := o
				if ms[0][1] != "" || len(ms[0][3]) > 3 {
					word = ptsLong[o]
				}
				steps, _ := compile.Mapping(s.target, kind, o)
				s.cands = append(s.cands, Cand{Group: fmt.Sprintf("%d:access:%d", ti, l), Thread: ti, Line: l, Name: ptsLong[o], Cost: cost,
					Text: ms[0][1] + ms[0][2] + word, effects: effectsOf(steps)})
			}
		}
	}
	return s, nil
}

// price is the cost on the target of an access of the kind and order:
// the fences and the access instruction its mapping has, as the cost
// table prices them (false when the table leaves one of its fences out).
func (s *ptsSubject) price(kind compile.Kind, order string) (int, bool) {
	steps, ok := compile.Mapping(s.target, kind, order)
	if !ok {
		return 0, false
	}
	total := 0
	for _, st := range steps {
		c, ok := s.opts.Costs.cost(s.target, strings.ToLower(st.Mnemonic))
		switch {
		case ok:
			total += c
		case !st.Access:
			return 0, false
		}
	}
	return total, true
}

// same tells whether two orders compile to the same instructions.
func (s *ptsSubject) same(kind compile.Kind, a, b string) bool {
	x, _ := compile.Mapping(s.target, kind, a)
	y, _ := compile.Mapping(s.target, kind, b)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Mnemonic != y[i].Mnemonic || x[i].Access != y[i].Access || !slices.Equal(x[i].Tags, y[i].Tags) {
			return false
		}
	}
	return true
}

func (s *ptsSubject) Candidates() []Cand { return s.cands }
func (s *ptsSubject) Name() string       { return s.t.Name }
func (s *ptsSubject) Target() string {
	return fmt.Sprintf("target %s, model %s, bound %d", s.target, s.mname, s.opts.Bound)
}
func (s *ptsSubject) Condition() string {
	if s.t.Quant == spec.Forall {
		return "a state violating forall (" + spec.FormatCond(s.t.Cond) + ")"
	}
	return "exists (" + spec.FormatCond(s.t.Cond) + ")"
}

func (s *ptsSubject) apply(sel []int) *patch {
	repl := map[int]int{}
	for _, c := range sel {
		repl[s.cands[c].Line] = c
	}
	p := &patch{lineOf: []int{0}}
	for i, line := range s.text.Lines {
		if c, ok := repl[i+1]; ok {
			loc := ptsOrder().FindStringIndex(line)
			line = line[:loc[0]] + s.cands[c].Text + line[loc[1]:]
		}
		p.lines = append(p.lines, line)
		p.lineOf = append(p.lineOf, i+1)
	}
	p.src = []byte(strings.Join(p.lines, "\n") + "\n")
	return p
}

// Check unrolls the patched program to the bound, compiles it for the
// target and checks it with the SMT engine, as musket check does (with
// Options.Engine "enum", the explicit engine: faster on small programs).
func (s *ptsSubject) Check(ctx context.Context, sel []int) (bool, *Witness, error) {
	q, tags, p, err := s.prepare(sel)
	if err != nil {
		return false, nil, err
	}
	if s.opts.Engine == "enum" {
		r := enum.Run(ctx, q, s.m, s.mname, enum.Options{TagNames: tags, Bound: s.opts.Bound, Show: "prop", NShow: moreWitnesses, SpeedCheck: enum.SpeedOn, MaxEvaluated: s.budget})
		if errors.Is(r.Err, enum.ErrBudget) {
			if r.Positive == 0 {
				s.fallbacks++
				return s.checkSMT(ctx, q, tags, p)
			}
			// The witnesses found within the budget say enough.
			r.Status, r.Err = result.Done, nil
		}
		if err := finished(s.text.File, r); err != nil {
			return false, nil, err
		}
		if r.Positive == 0 {
			return false, nil, nil
		}
		w := witnessOf(r.Witness, q, p.lineOf)
		for _, y := range r.Shown {
			if y != r.Witness {
				w.More = append(w.More, witnessOf(y, q, p.lineOf))
			}
		}
		// The explicit engine's executions may run past the bound, as
		// its checks count them: their replays may too.
		for _, x := range append([]*Witness{w}, w.More...) {
			if x.pin != nil {
				x.pin.Cut = true
			}
		}
		return true, w, nil
	}
	return s.checkSMT(ctx, q, tags, p)
}

// prepare is the program patched with sel, unrolled to the bound and
// compiled for the target, with its condition the question asked, and
// the tags its model may name.
func (s *ptsSubject) prepare(sel []int) (*spec.Test, []string, *patch, error) {
	p := s.apply(sel)
	t, err := pts.Parse(s.text.File, p.src)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("the patched program does not parse (a bug of musket fix): %v", err)
	}
	u, err := compile.Unroll(t, s.opts.Bound)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := compile.Compile(u, s.target)
	if err != nil {
		return nil, nil, nil, err
	}
	tags := append(compile.Tags(s.target), driver.Tags(c.Arch)...)
	q := *c
	switch {
	case s.cond != nil:
		q.Cond = s.cond
	case c.Quant == spec.Forall:
		q.Cond = spec.Not{C: c.Cond}
	}
	q.Quant = spec.Exists
	return &q, tags, p, nil
}

// replay is the kill test (kill.go) on the program patched with sel.
func (s *ptsSubject) replay(ctx context.Context, sel []int, ws []*Witness) ([]bool, error) {
	q, tags, _, err := s.prepare(sel)
	if err != nil {
		return nil, err
	}
	pins, at := pinsOf(ws)
	got, err := enum.Replay(ctx, q, s.m, s.mname, enum.Options{TagNames: tags, Bound: s.opts.Bound}, pins)
	if err != nil {
		return nil, err
	}
	return spread(len(ws), at, got), nil
}

// checkSMT is Check by the SMT engine, as musket check runs it (Z3's
// linear-arithmetic solver first, its default one if that logic does not
// cover the program).
func (s *ptsSubject) checkSMT(ctx context.Context, q *spec.Test, tags []string, p *patch) (bool, *Witness, error) {
	o := bmc.Options{TagNames: tags, VerdictOnly: true, PositiveOnly: true, Logic: "QF_LIA"}
	r, _ := bmc.RunReport(ctx, q, s.m, s.mname, o)
	if r.Status == result.Failed || r.Status == result.Unsupported {
		o.Logic = ""
		r, _ = bmc.RunReport(ctx, q, s.m, s.mname, o)
	}
	if err := finished(s.text.File, r); err != nil {
		return false, nil, err
	}
	if r.Positive == 0 {
		return false, nil, nil
	}
	return true, witnessOf(r.Witness, q, p.lineOf), nil
}
