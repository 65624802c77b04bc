package porthos

import (
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"reflect"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/pts"
)

// Program is what the two sides run: the source side's test and the
// target side's, and how their memory events correspond.
type Program struct {
	File, Name string
	Source     *spec.Test
	Target     *spec.Test
	// Same: both sides run one program (π is the identity).
	Same bool
	// Pi maps a memory event of the target program to its counterpart in
	// the source program.
	Pi func(bmc.EventKey) (bmc.EventKey, bool)
	// SourceTags and TargetTags are the event tags each side's events may
	// carry (so that a model can bind every tag set).
	SourceTags, TargetTags []string
	// Unrolled: a .pts program, unrolled to the bound by Load (its cut
	// paths stop at the bound).
	Unrolled bool
}

// Load reads a .pts program (unrolled to bound and compiled for both
// sides' targets) or a litmus test (run as it is by both sides). The
// sides' targets are resolved for .pts programs.
func Load(path string, src, tgt *Side, bound int) (*Program, error) {
	return LoadContext(context.Background(), path, src, tgt, bound)
}

// LoadContext is Load, with a litmus test parsed under ctx (its error is
// then ctx.Err()): a test of megabytes takes seconds to parse on a
// loaded machine, past compare's -timeout (robust5).
func LoadContext(ctx context.Context, path string, src, tgt *Side, bound int) (*Program, error) {
	if strings.HasSuffix(path, ".pts") {
		return loadPTS(path, src, tgt, bound)
	}
	t, err := litmus.ParseFileContext(ctx, path)
	if err != nil {
		return nil, err
	}
	var tags []string
	if fe, err := litmus.Lookup(t.Arch); err == nil {
		tags = fe.Tags()
	}
	return &Program{File: path, Name: t.Name, Source: t, Target: t, Same: true, SourceTags: tags, TargetTags: tags,
		Pi: func(k bmc.EventKey) (bmc.EventKey, bool) { return k, true }}, nil
}

func loadPTS(path string, src, tgt *Side, bound int) (*Program, error) {
	t, err := pts.ParseFile(path)
	if err != nil {
		return nil, err
	}
	return LoadPTSPair(path, t, t, src, tgt, bound)
}

// LoadPTSPair is Load on a .pts program whose target side runs another
// version of it, tt, with the same accesses (their memory orders may
// differ): musket compare -fix asks whether the states of a patched
// target program are states of the source program.
func LoadPTSPair(path string, t, tt *spec.Test, src, tgt *Side, bound int) (*Program, error) {
	resolveTargets(src, tgt)
	u, err := compile.Unroll(t, bound)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// A state is the final value of every variable.
	v := *u
	v.Locations = allVariables(u)
	sc, err := compile.CompileMap(&v, src.Target)
	if err != nil {
		return nil, err
	}
	w := &v
	if tt != t {
		ut, err := compile.Unroll(tt, bound)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		x := *ut
		x.Locations = v.Locations
		w = &x
	}
	tc, err := compile.CompileMap(w, tgt.Target)
	if err != nil {
		return nil, err
	}
	m, err := compile.AccessMap(sc, tc)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	p := &Program{File: path, Name: t.Name, Source: sc.Test, Target: tc.Test, Unrolled: true,
		SourceTags: targetTags(src.Target), TargetTags: targetTags(tgt.Target)}
	p.Same = reflect.DeepEqual(sc.Test.Threads, tc.Test.Threads)
	p.Pi = func(k bmc.EventKey) (bmc.EventKey, bool) {
		if k.Thread < 0 || k.Thread >= len(m) || k.Node < 0 || k.Node >= len(m[k.Thread]) {
			return k, false
		}
		n := m[k.Thread][k.Node]
		if n < 0 {
			return k, false
		}
		return bmc.EventKey{Thread: k.Thread, Node: n, Loc: k.Loc}, true
	}
	return p, nil
}

func targetTags(target string) []string {
	tags := compile.Tags(target)
	if w, ok := compile.ArchWord(target); ok {
		if fe, err := litmus.Lookup(w); err == nil {
			tags = append(tags, fe.Tags()...)
		}
	}
	sort.Strings(tags)
	return tags
}

// allVariables lists the shared locations (declared, or accessed at a
// constant address) and the registers every thread writes, except the
// unroller's own (names starting with %).
func allVariables(t *spec.Test) []spec.Ref {
	seen := map[spec.Ref]bool{}
	var out []spec.Ref
	add := func(r spec.Ref) {
		if !seen[r] && !strings.HasPrefix(r.Name, "%") {
			seen[r] = true
			out = append(out, r)
		}
	}
	for _, e := range t.Init {
		if !e.Ref.IsReg() {
			add(e.Ref)
		}
	}
	loc := func(e prog.Expr) {
		if c, ok := e.(prog.Const); ok && c.V.IsAddr() && c.V.Int == 0 {
			add(spec.Ref{Thread: -1, Name: c.V.Loc})
		}
	}
	for i, th := range t.Threads {
		for _, in := range th.Code {
			if a, ok := prog.AddrOf(in); ok {
				loc(a)
			}
			for _, r := range prog.Defs(in) {
				add(spec.Ref{Thread: i, Name: r})
			}
		}
	}
	for _, r := range t.Locations {
		add(r)
	}
	return out
}
