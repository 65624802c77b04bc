package porthos

import (
	"context"
	"fmt"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/result"
)

// oracle proposes candidate states: final states of executions consistent
// with the target model whose counterpart in the source program violates
// the source model, never the same state twice (Porthos' O1 to O4).
type oracle struct {
	s      *bmc.Session
	target *bmc.Encoded
	notes  []string
}

func newOracle(ctx context.Context, p *Program, src, tgt *Side, bound int, eager bool) (o *oracle, err error) {
	s, err := bmc.TryNewSession(eager)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			closeSession(ctx, s)
		}
	}()
	opts := bmc.Options{Bound: bound, Variants: tgt.Variants, TagNames: p.TargetTags}
	if p.Same {
		opts.TagNames = union(p.SourceTags, p.TargetTags)
	}
	t, err := s.Encode(ctx, p.Target, tgt.Model, bmc.Consistent, opts)
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", tgt, err)
	}
	o = &oracle{s: s, target: t}
	if p.Same {
		if err := t.AlsoInconsistent(src.Model, src.Variants); err != nil {
			return nil, fmt.Errorf("source %s: %w", src, err)
		}
		o.notes = t.Notes
		return o, nil
	}
	so := bmc.Options{Bound: bound, Variants: src.Variants, TagNames: p.SourceTags}
	sx, err := s.Encode(ctx, p.Source, src.Model, bmc.Inconsistent, so)
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", src, err)
	}
	o.notes = sx.Notes
	if err := s.Equate(t, sx, p.Pi); err != nil {
		return nil, err
	}
	return o, nil
}

// next returns the next candidate state and the target execution that
// reaches it; ok is false when there is none left.
func (o *oracle) next(ctx context.Context) (st result.State, w *result.Execution, ok bool, err error) {
	sat, err := o.s.Check(ctx)
	if err != nil || !sat {
		return nil, nil, false, err
	}
	st, w, err = o.target.Read()
	if err != nil {
		return nil, nil, false, err
	}
	return st, w, true, o.target.Block(st)
}

// reach answers whether the source program reaches a state under the
// source model (phi_RCH ∧ phi_s), one solver for all the questions.
type reach struct {
	s      *bmc.Session
	source *bmc.Encoded
}

func newReach(ctx context.Context, p *Program, src *Side, bound int, eager bool) (r *reach, err error) {
	s, err := bmc.TryNewSession(eager)
	if err != nil {
		return nil, err
	}
	x, err := s.Encode(ctx, p.Source, src.Model, bmc.Consistent, bmc.Options{Bound: bound, Variants: src.Variants, TagNames: p.SourceTags})
	if err != nil {
		closeSession(ctx, s)
		return nil, fmt.Errorf("source %s: %w", src, err)
	}
	return &reach{s: s, source: x}, nil
}

func (r *reach) reachable(ctx context.Context, st result.State) (bool, error) {
	eqs, err := r.source.StateIs(st)
	if err != nil {
		return false, err
	}
	return r.s.Check(ctx, eqs...)
}

func union(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range append(append([]string(nil), a...), b...) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
