package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/cat"
)

// The values of the symbolic CAT evaluator (model.go): concrete values
// (tags, tuples, sets of values, functions, procedures), symbolic sets and
// relations (rel.go), the environment that binds them, and the errors of
// the evaluation.

type value interface{}

type (
	emptyV   struct{}
	univV    struct{}
	eventV   int
	pairV    [2]int
	tagV     string
	tupleV   []value
	vsetV    struct{ elems []value }
	closureV struct {
		params cat.Pattern
		body   cat.Expr
		env    *env
		name   string
	}
	builtinV struct {
		name string
		fn   func(ev *evaluator, arg value) (value, error)
	}
	procV struct {
		params cat.Pattern
		body   []cat.Stmt
		env    *env
	}
)

// env is a persistent chain of bindings.
type env struct {
	name string
	v    value
	up   *env
}

func (e *env) bind(name string, v value) *env { return &env{name: name, v: v, up: e} }

func (e *env) lookup(name string) (value, bool) {
	for x := e; x != nil; x = x.up {
		if x.name == name {
			return x.v, true
		}
	}
	return nil, false
}

// evalError is an error of the model on this program; try catches it.
type evalError struct{ msg string }

func (e *evalError) Error() string { return e.msg }

// UnsupportedError says the SMT engine cannot encode a construct of the
// model (or, with Program, of the program); try does not catch it.
type UnsupportedError struct {
	What    string
	Program bool
}

func (e *UnsupportedError) Error() string {
	if e.Program {
		return "smt engine: unsupported: " + e.What
	}
	return "smt engine: unsupported in the model: " + e.What
}

func errf(pos cat.Position, format string, args ...interface{}) error {
	return &evalError{msg: fmt.Sprintf("%s: %s", pos, fmt.Sprintf(format, args...))}
}

func unsupported(pos cat.Position, format string, args ...interface{}) error {
	return &UnsupportedError{What: fmt.Sprintf("%s: %s", pos, fmt.Sprintf(format, args...))}
}

// fixProc lets a procedure see itself (procedures may call themselves).
func (e *env) fixProc() *env {
	e.v.(*procV).env = e
	return e
}

func kindName(v value) string {
	switch v.(type) {
	case emptyV:
		return "empty"
	case univV:
		return "universe"
	case *Set, eventV:
		return "event set"
	case *Rel, pairV:
		return "relation"
	case tagV:
		return "tag"
	case tupleV:
		return "tuple"
	case *vsetV, *symSetV:
		return "set of values"
	case *closureV, *builtinV:
		return "function"
	case *procV:
		return "procedure"
	}
	return fmt.Sprintf("%T", v)
}

func (ev *evaluator) asSet(v value) (*Set, bool) {
	switch v := v.(type) {
	case *Set:
		return v, true
	case eventV:
		return &Set{m: map[int]B{int(v): bTrue}}, true
	case emptyV:
		return newSet(), true
	case univV:
		return ev.o.fullSet(), true
	}
	return nil, false
}

func (ev *evaluator) asRel(v value) (*Rel, bool) {
	switch v := v.(type) {
	case *Rel:
		return v, true
	case pairV:
		r := newRel(ev.o.n())
		r.set(v[0], v[1], bTrue)
		return r, true
	case emptyV:
		return newRel(ev.o.n()), true
	case univV:
		return ev.o.fullRel(), true
	}
	return nil, false
}

type class int

const (
	cEmpty class = iota
	cUniv
	cSet
	cRel
	cValSet
	cOther
)

func classOf(v value) class {
	switch v.(type) {
	case emptyV:
		return cEmpty
	case univV:
		return cUniv
	case *Set, eventV:
		return cSet
	case *Rel, pairV:
		return cRel
	case *vsetV:
		return cValSet
	}
	return cOther
}

func (s *vsetV) has(v value) bool {
	for _, x := range s.elems {
		if eq, ok := staticEqual(x, v); ok && eq {
			return true
		}
	}
	return false
}

// staticEqual compares two values when it can be decided statically.
func staticEqual(a, b value) (bool, bool) {
	switch a := a.(type) {
	case tagV:
		b, ok := b.(tagV)
		return ok && a == b, true
	case eventV:
		b, ok := b.(eventV)
		return ok && a == b, true
	case pairV:
		b, ok := b.(pairV)
		return ok && a == b, true
	case tupleV:
		b, ok := b.(tupleV)
		if !ok || len(a) != len(b) {
			return false, true
		}
		for i := range a {
			eq, known := staticEqual(a[i], b[i])
			if !known {
				return false, false
			}
			if !eq {
				return false, true
			}
		}
		return true, true
	case *Set:
		if b, ok := b.(*Set); ok && a.static() && b.static() {
			if len(a.m) != len(b.m) {
				return false, true
			}
			for k := range a.m {
				if _, ok := b.m[k]; !ok {
					return false, true
				}
			}
			return true, true
		}
	case *Rel:
		if b, ok := b.(*Rel); ok && a.static() && b.static() {
			am, _ := a.size()
			bm, _ := b.size()
			if am != bm {
				return false, true
			}
			same := true
			a.each(func(i, j int, _ B) {
				if _, ok := b.get(i, j); !ok {
					same = false
				}
			})
			return same, true
		}
	}
	return a == b, false
}
