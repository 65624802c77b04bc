package bmc

import (
	"context"
	"github.com/musket-verify/musket/internal/spec"
	"sort"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/smt"
)

// BuiltinNames lists the functions the SMT engine's evaluator defines.
func BuiltinNames() []string {
	var out []string
	for name := range builtins {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// InputNames lists the sets and relations the SMT engine gives a model
// on test t.
func InputNames(t *spec.Test, m *cat.Model, opts Options) ([]string, error) {
	zc := smt.NewContext()
	defer zc.Close()
	sol := zc.NewSolver()
	e := &encoding{f: newFB(zc, sol), ctx: zc, sol: sol, t: t, m: m, opts: opts}
	if err := e.build(context.Background()); err != nil {
		return nil, err
	}
	var out []string
	for name := range e.inputs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out, nil
}
