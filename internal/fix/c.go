package fix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/arch"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/prog"
)

// cSubject is a C program (clang-14, package cfront) to repair: its
// assertions must not fail. Candidates are the C11 ones of C litmus
// tests (a stronger memory_order on an atomic_*_explicit call alone on
// its line, atomic_thread_fence after a statement alone on its line),
// priced by the c11 row; a line's change holds for every thread that runs
// it (threads running one function share its lines).
type cSubject struct {
	text  *Text
	cands []Cand
	opts  Options
	copts cfront.CheckOptions
	name  string
	// model is the built-in model's name, "" for a .cat file.
	model string
	// noRaceWitness gives a race no witness (every candidate relevant),
	// as before race.go: the tests compare.
	noRaceWitness bool
	// noKill turns the kill test off (the loop's second run before it
	// says "no fix", loop.go).
	noKill bool
}

// NewC reads a C program for repair: checked under -model (a C11 model,
// or a hardware model with -target's compilation) as musket check does.
func NewC(ctx context.Context, file string, src []byte, opts Options) (Subject, error) {
	if opts.Costs == nil {
		opts.Costs = DefaultCosts()
	}
	if opts.Bound <= 0 {
		return nil, fmt.Errorf("%s: a C program needs -bound 1 or more", file)
	}
	model, target := opts.Model, opts.Target
	if model == "" && target == "" {
		model = "rc11"
	}
	if model == "" {
		a, ok := arch.ByTarget(target)
		if !ok {
			return nil, fmt.Errorf("unknown target %q (want one of %v; -model for a model such as tso)", target, arch.Targets())
		}
		model = a.Model
	}
	if target == "" {
		// A hardware model checks the program compiled for its
		// architecture.
		if a, ok := arch.ByModel(model); ok && a.Target != "" && a.Name != "C" {
			target = a.Target
		}
	}
	var m *cat.Model
	m, name, err := driver.Load(model)
	if err != nil {
		return nil, err
	}
	if a, ok := arch.ByModel(model); opts.Races && ok && a.Target != "" && a.Name != "C" {
		return nil, fmt.Errorf("%s: -races: data races are a C11 notion (c11, rc11, imm: a plain access not ordered by happens-before with a conflicting one); they do not apply to a program compiled for target %s, whose accesses are the machine's", file, a.Target)
	}
	s := &cSubject{text: NewText(file, src), opts: opts, model: builtinModel(model), copts: cfront.CheckOptions{Bound: opts.Bound, Target: target, Model: m, ModelName: name, Engine: opts.Engine, Races: opts.Races}}
	p, err := cfront.Lower(ctx, file, cfront.Options{Bound: opts.Bound})
	if err != nil {
		return nil, err
	}
	s.name = p.Test.Name
	abs, _ := filepath.Abs(file)
	lines := map[int]string{} // line -> kind of its one access ("" when several)
	count := map[int]int{}
	for _, th := range p.Test.Threads {
		for i, in := range th.Code {
			if i >= len(th.Pos) || prog.IsPart(in) {
				continue
			}
			pos := th.Pos[i]
			if pa, _ := filepath.Abs(pos.File); pos.Line <= 0 || pos.Line > len(s.text.Lines) || (pos.File != "" && pa != abs && filepath.Base(pos.File) != filepath.Base(file)) {
				continue
			}
			var k string
			switch in.(type) {
			case prog.Load:
				k = "load"
			case prog.Store:
				k = "store"
			case prog.RMW:
				k = "rmw"
			default:
				continue
			}
			if old, ok := lines[pos.Line]; ok && old != k {
				k = ""
			}
			lines[pos.Line] = k
			count[pos.Line]++
		}
	}
	// atomic_thread_fence needs <stdatomic.h>.
	atomics := strings.Contains(string(src), "stdatomic.h")
	var ls []int
	for l := range lines {
		ls = append(ls, l)
	}
	sort.Ints(ls)
	for _, l := range ls {
		line := codePart(s.text.Lines[l-1])
		ords := memOrder().FindAllStringSubmatchIndex(line, -1)
		kind := lines[l]
		if kind != "" && len(ords) == 1 && strings.Contains(line, "_explicit") {
			cur := line[ords[0][2]:ords[0][3]]
			var want []string
			switch kind {
			case "load":
				want = []string{"acquire", "seq_cst"}
			case "store":
				want = []string{"release", "seq_cst"}
			case "rmw":
				want = []string{"acquire", "release", "acq_rel", "seq_cst"}
			}
			base, _ := opts.Costs.cost("c11", cur)
			for _, o := range want {
				cost, ok := opts.Costs.cost("c11", o)
				if !ok || !stronger(o, cur) || (cur == "acquire" && o == "release") || (cur == "release" && o == "acquire") {
					continue
				}
				if cost -= base; cost < 0 {
					cost = 0
				}
				s.cands = append(s.cands, Cand{Group: fmt.Sprintf("access:%d", l), Thread: -1, Line: l, Name: o, Cost: cost, Text: "memory_order_" + o, Coarse: true})
			}
		}
		if !simpleStatement(line) || !atomics {
			continue
		}
		for _, f := range families["C"].fences {
			cost, ok := opts.Costs.cost("c11", f[0])
			if !ok {
				continue
			}
			s.cands = append(s.cands, Cand{Group: fmt.Sprintf("after:%d", l), Thread: -1, Line: l, Fence: true, Name: f[0], Cost: cost, Text: f[1]})
		}
	}
	return s, nil
}

// CRacesByDefault tells whether a repair of a C program under opts
// repairs its data races too when -races is not given: as musket check
// reports them, when the model (rc11 by default) has a race flag and the
// program is not compiled for a hardware target. A fix that musket check
// then finds racy would be no fix.
func CRacesByDefault(opts Options) bool {
	model := opts.Model
	if model == "" {
		if opts.Target != "" {
			return false
		}
		model = "rc11"
	}
	if a, ok := arch.ByModel(model); ok && a.Target != "" && a.Name != "C" {
		return false
	}
	m, _, err := driver.Load(model)
	if err != nil {
		return false
	}
	for _, f := range cat.FlagNames(m) {
		if cfront.IsRaceFlag(f) {
			return true
		}
	}
	return false
}

func (s *cSubject) Candidates() []Cand { return s.cands }
func (s *cSubject) Name() string       { return s.name }
func (s *cSubject) Target() string {
	if s.copts.Target != "" {
		return fmt.Sprintf("target %s, model %s, bound %d", s.copts.Target, s.copts.ModelName, s.opts.Bound)
	}
	return fmt.Sprintf("model %s, bound %d", s.copts.ModelName, s.opts.Bound)
}
func (s *cSubject) Condition() string {
	if s.copts.Races {
		return "a failing assertion or a data race"
	}
	return "a failing assertion"
}

func (s *cSubject) apply(sel []int) *patch {
	repl := map[int]int{}
	insert := map[int][]int{}
	for _, c := range sel {
		if s.cands[c].Fence {
			insert[s.cands[c].Line] = append(insert[s.cands[c].Line], c)
		} else {
			repl[s.cands[c].Line] = c
		}
	}
	p := &patch{lineOf: []int{0}}
	for i, line := range s.text.Lines {
		l := i + 1
		if c, ok := repl[l]; ok {
			code := codePart(line)
			line = memOrder().ReplaceAllString(code, s.cands[c].Text) + line[len(code):]
		}
		p.lines = append(p.lines, line)
		p.lineOf = append(p.lineOf, l)
		for _, c := range insert[l] {
			indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			p.lines = append(p.lines, indent+s.cands[c].Text)
			p.lineOf = append(p.lineOf, 0)
		}
	}
	p.src = []byte(strings.Join(p.lines, "\n") + "\n")
	return p
}

// Check writes the patched program beside a temporary copy's name and
// checks it as musket check does.
func (s *cSubject) Check(ctx context.Context, sel []int) (bool, *Witness, error) {
	p := s.apply(sel)
	dir, err := os.MkdirTemp("", "musket-fix-")
	if err != nil {
		return false, nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, filepath.Base(s.text.File))
	if err := os.WriteFile(path, p.src, 0o644); err != nil {
		return false, nil, err
	}
	r, err := cfront.Check(ctx, path, s.copts)
	if err != nil {
		return false, nil, err
	}
	switch r.Verdict {
	case cfront.Violation:
		return true, witnessOf(r.Result.Witness, r.Test, p.lineOf), nil
	case cfront.Race:
		// A racy execution need not have a cycle of po and
		// communication (the racy read may read from the write): its
		// witness says which two accesses race (race.go); without
		// them, no witness, so that every candidate counts as able to
		// order the two accesses.
		if s.noRaceWitness {
			return true, nil, nil
		}
		return true, raceWitness(s.model, r, r.Test, p.lineOf), nil
	case cfront.Unknown:
		return false, nil, finished(s.text.File, r.Result)
	}
	return false, nil, nil
}

// codePart is a line of C without its comment.
func codePart(line string) string {
	for _, mark := range []string{"//", "/*"} {
		if i := strings.Index(line, mark); i >= 0 {
			line = line[:i]
		}
	}
	return line
}

// replay is the kill test (kill.go) on the C program patched with sel:
// the witnesses met so far run again on the patched program, compiled
// and prepared as a check prepares it (cfront.Replay). A witness alive
// there is an execution of the patched program with a failed assertion,
// so the patched program is wrong; one that is not alive says nothing
// (clang may have compiled the patched program to other accesses), which
// only keeps a candidate in a constraint or a check to make.
func (s *cSubject) replay(ctx context.Context, sel []int, ws []*Witness) ([]bool, error) {
	p := s.apply(sel)
	dir, err := os.MkdirTemp("", "musket-fix-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, filepath.Base(s.text.File))
	if err := os.WriteFile(path, p.src, 0o644); err != nil {
		return nil, err
	}
	pins, at := pinsOf(ws)
	if len(pins) == 0 {
		return make([]bool, len(ws)), nil
	}
	got, err := cfront.Replay(ctx, path, s.copts, pins)
	if err != nil {
		return nil, err
	}
	return spread(len(ws), at, got), nil
}
