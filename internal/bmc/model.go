package bmc

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
)

// The symbolic evaluator of CAT models. It walks the model's syntax (after
// include expansion) with values that are either concrete (tags, tuples,
// sets of values, functions, procedures) or symbolic sets and relations
// (see rel.go). Checks become constraints; flags become formulas asked
// about after the encoding.

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
// model; try does not catch it.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return "smt engine: unsupported in the model: " + e.What }

func errf(pos cat.Position, format string, args ...interface{}) error {
	return &evalError{msg: fmt.Sprintf("%s: %s", pos, fmt.Sprintf(format, args...))}
}

func unsupported(pos cat.Position, format string, args ...interface{}) error {
	return &UnsupportedError{What: fmt.Sprintf("%s: %s", pos, fmt.Sprintf(format, args...))}
}

type evaluator struct {
	e        *encoding
	o        *ops
	f        *fb
	variants map[string]bool
	depth    int
	steps    int
}

const maxEvalSteps = 5_000_000

func (ev *evaluator) step(pos cat.Position) error {
	ev.steps++
	if ev.steps > maxEvalSteps {
		return errf(pos, "evaluation takes too many steps")
	}
	return nil
}

// model encodes the model's checks.
func (e *encoding) model() error {
	e.inputs = e.buildInputs()
	ev := &evaluator{e: e, o: e.o, f: e.f, variants: e.opts.Variants}
	_, err := ev.stmts(e.m.Syntax(), nil, "")
	return err
}

func (ev *evaluator) stmts(ss []cat.Stmt, en *env, as string) (*env, error) {
	var err error
	for _, s := range ss {
		if en, err = ev.stmt(s, en, as); err != nil {
			return en, err
		}
	}
	return en, nil
}

func (ev *evaluator) stmt(s cat.Stmt, en *env, as string) (*env, error) {
	switch s := s.(type) {
	case *cat.LetStmt:
		var err error
		if s.Rec {
			en, err = ev.letRec(s.Binds, en, s.At)
		} else {
			en, err = ev.let(s.Binds, en, true)
		}
		if err != nil {
			return en, err
		}
		if s.When != nil {
			return en, ev.check(cat.Check, s.When, en, as)
		}
		return en, nil
	case *cat.CheckStmt:
		return en, ev.check(s.Kind, s.Test, en, as)
	case *cat.ShowStmt, *cat.DebugStmt, *cat.EventsStmt:
		return en, nil
	case *cat.IncludeStmt:
		return en, errf(s.At, "include %q was not resolved", s.Path)
	case *cat.BlockStmt:
		en, err := ev.stmts(s.Stmts, en, as)
		if _, ok := en.lookup("map"); ok && err == nil && filepath.Base(s.File) == "stdlib.cat" {
			// The library's map, also over sets that depend on the
			// execution (lockco.go).
			en = en.bind("map", nativeMap)
		}
		return en, err
	case *cat.ProcStmt:
		return en.bind(s.Name, &procV{params: s.Params, body: s.Body, env: nil}).fixProc(), nil
	case *cat.CallStmt:
		pv, err := ev.lookup(s.Name, en, s.At)
		if err != nil {
			return en, err
		}
		p, ok := pv.(*procV)
		if !ok {
			return en, errf(s.At, "cannot call %s: not a procedure", s.Name)
		}
		arg, err := ev.expr(s.Arg, en)
		if err != nil {
			return en, err
		}
		pe, err := ev.bindPattern(p.env, p.params, arg, s.At)
		if err != nil {
			return en, err
		}
		name := as
		if s.As != "" {
			name = s.As
		}
		if ev.depth > 2000 {
			return en, errf(s.At, "recursion too deep")
		}
		ev.depth++
		_, err = ev.stmts(p.body, pe, name)
		ev.depth--
		return en, err
	case *cat.ForallStmt:
		v, err := ev.expr(s.Set, en)
		if err != nil {
			return en, err
		}
		elems, err := ev.elements(v, s.At)
		if err != nil {
			return en, err
		}
		for _, x := range elems {
			if _, err := ev.stmts(s.Body, en.bind(s.Var, x), as); err != nil {
				return en, err
			}
		}
		return en, nil
	case *cat.WithStmt:
		if s.Var == "co" {
			// The engine's coherence order is a total order of the writes
			// of each location with the initial write first: what
			// generate_cos and linearisations of the writes per location
			// enumerate (lockco.go when W has other events).
			co, err := ev.withCo(s, en)
			if err != nil {
				return en, err
			}
			return en.bind("co", co), nil
		}
		if x, ok, err := ev.withCross(s, en); err != nil {
			return en, err
		} else if ok {
			return en.bind(s.Var, x), nil
		}
		v, err := ev.expr(s.Set, en)
		if err != nil {
			return en, err
		}
		elems, err := ev.elements(v, s.At)
		if err != nil || len(elems) != 1 {
			return en, unsupported(s.At, "with %s from a set of several values", s.Var)
		}
		return en.bind(s.Var, elems[0]), nil
	case *cat.EnumStmt:
		tags := make([]value, len(s.Tags))
		for i, t := range s.Tags {
			tags[i] = tagV(t)
		}
		return en.bind(s.Name, &vsetV{elems: tags}), nil
	case *cat.IfStmt:
		c, err := ev.cond(s.Cond, en)
		if err != nil {
			return en, err
		}
		if c {
			return ev.stmts(s.Then, en, as)
		}
		return ev.stmts(s.Else, en, as)
	case *cat.MatchStmt:
		v, err := ev.expr(s.X, en)
		if err != nil {
			return en, err
		}
		t, ok := v.(tagV)
		if !ok {
			return en, errf(s.At, "match on tags applied to %s", kindName(v))
		}
		for _, cl := range s.Clauses {
			if cl.Tag == string(t) {
				return ev.stmts(cl.Body, en, as)
			}
		}
		if !s.HasDef {
			return en, errf(s.At, "no clause matches '%s", string(t))
		}
		return ev.stmts(s.Default, en, as)
	}
	return en, errf(s.Pos(), "unknown statement %T", s)
}

// fixProc lets a procedure see itself (procedures may call themselves).
func (e *env) fixProc() *env {
	e.v.(*procV).env = e
	return e
}

func (ev *evaluator) let(binds []*cat.Binding, en *env, top bool) (*env, error) {
	vals := make([]value, len(binds))
	for i, b := range binds {
		if fe, ok := b.Value.(*cat.FunExpr); ok {
			vals[i] = &closureV{params: fe.Params, body: fe.Body, env: en, name: fe.Name}
			continue
		}
		v, err := ev.expr(b.Value, en)
		if err != nil {
			return en, err
		}
		vals[i] = v
	}
	out := en
	for i, b := range binds {
		v := vals[i]
		if top {
			v = ev.named(b.Pat, v)
		}
		var err error
		if out, err = ev.bindPattern(out, b.Pat, v, b.At); err != nil {
			return en, err
		}
	}
	return out, nil
}

// named records the size of a top-level relation and, without relation
// analysis, turns it into a full matrix of variables.
func (ev *evaluator) named(p cat.Pattern, v value) value {
	r, ok := v.(*Rel)
	if !ok {
		if ev.e.opts.NoAnalysis {
			if _, isU := v.(univV); isU {
				return v
			}
			if _, isE := v.(emptyV); isE && !p.Tuple {
				r = newRel(ev.o.n())
			}
		}
		if r == nil {
			return v
		}
	}
	may, must := r.size()
	ev.f.stats.RelPairs += may
	ev.f.stats.MustPairs += must
	if !ev.e.opts.NoAnalysis {
		return r
	}
	out := newRel(ev.o.n())
	for i := 0; i < ev.o.n(); i++ {
		for j := 0; j < ev.o.n(); j++ {
			x := ev.f.boolVar("r")
			b, _ := r.get(i, j)
			ev.f.assert(ev.f.iff(x, b))
			out.set(i, j, x)
		}
	}
	return out
}

func (ev *evaluator) bindPattern(en *env, p cat.Pattern, v value, pos cat.Position) (*env, error) {
	if !p.Tuple {
		if p.Names[0] != "_" {
			en = en.bind(p.Names[0], v)
		}
		return en, nil
	}
	t, ok := v.(tupleV)
	if !ok || len(t) != len(p.Names) {
		return en, errf(pos, "expected a tuple of %d, got %s", len(p.Names), kindName(v))
	}
	for i, name := range p.Names {
		if name != "_" {
			en = en.bind(name, t[i])
		}
	}
	return en, nil
}

// letRec binds recursive functions, and encodes recursive values with the
// relaxed ("any fixpoint") encoding of seed 003: a variable per may-pair
// of each recursive relation, equivalent to its definition applied to
// the variables. The may-pairs are the least fixpoint of the shapes.
func (ev *evaluator) letRec(binds []*cat.Binding, en *env, pos cat.Position) (*env, error) {
	// Functions first: their environment holds every binding of the let.
	var recEnv *env = en
	var vals []recSlot
	for _, b := range binds {
		if b.Pat.Tuple {
			return en, unsupported(b.At, "let rec of a tuple")
		}
		recEnv = recEnv.bind(b.Pat.Names[0], emptyV{})
		if fe, ok := b.Value.(*cat.FunExpr); ok {
			recEnv.v = &closureV{params: fe.Params, body: fe.Body, name: fe.Name}
		} else {
			vals = append(vals, recSlot{node: recEnv, b: b})
		}
	}
	for x := recEnv; x != en; x = x.up {
		if c, ok := x.v.(*closureV); ok {
			c.env = recEnv
		}
	}
	if len(vals) == 0 {
		return recEnv, nil
	}
	// Shapes: iterate with fresh placeholders until the may-sets settle.
	shapes := make([]value, len(vals))
	for i := range shapes {
		shapes[i] = emptyV{}
	}
	placeholder := func(shape value) value {
		switch s := shape.(type) {
		case *Set:
			out := newSet()
			for k := range s.m {
				out.m[k] = ev.f.boolVar("rec")
			}
			return out
		case *Rel:
			out := newRel(ev.o.n())
			s.each(func(i, j int, _ B) { out.set(i, j, ev.f.boolVar("rec")) })
			return out
		}
		return shape
	}
	for it := 0; ; it++ {
		if it > ev.o.n()*ev.o.n()+10 {
			return en, errf(pos, "recursive definition does not converge")
		}
		for i, s := range vals {
			s.node.v = placeholder(shapes[i])
		}
		changed := false
		next := make([]value, len(vals))
		for i, s := range vals {
			v, err := ev.expr(s.b.Value, recEnv)
			if err != nil {
				return en, err
			}
			next[i] = v
		}
		for i := range vals {
			u, grew, err := ev.shapeUnion(shapes[i], next[i], pos)
			if err != nil {
				return en, err
			}
			shapes[i] = u
			changed = changed || grew
		}
		if !changed {
			break
		}
	}
	if !monotoneGroup(binds) {
		// herd7's iteration from empty, exactly (kleene.go).
		return recEnv, ev.kleene(vals, shapes, recEnv, pos)
	}
	// The final variables and their definitions.
	for i, s := range vals {
		s.node.v = placeholder(shapes[i])
	}
	for _, s := range vals {
		v, err := ev.expr(s.b.Value, recEnv)
		if err != nil {
			return en, err
		}
		switch x := s.node.v.(type) {
		case *Set:
			d, _ := ev.asSet(v)
			for k, b := range x.m {
				ev.f.assert(ev.f.iff(b, d.m[k]))
			}
		case *Rel:
			d, _ := ev.asRel(v)
			x.each(func(i, j int, b B) {
				y, _ := d.get(i, j)
				ev.f.assert(ev.f.iff(b, y))
			})
		}
	}
	if ev.e.incons != nil {
		return recEnv, ev.leastFixpoint(binds, recEnv, en, pos)
	}
	return recEnv, nil
}

// shapeUnion adds the keys of v to the shape s; grew says whether any was
// new.
func (ev *evaluator) shapeUnion(s, v value, pos cat.Position) (value, bool, error) {
	switch v.(type) {
	case emptyV:
		return s, false, nil
	case *Set, eventV:
		vs, _ := ev.asSet(v)
		out, ok := s.(*Set)
		if !ok {
			if _, e := s.(emptyV); !e {
				return nil, false, errf(pos, "recursive value changes kind")
			}
			out = newSet()
		}
		grew := false
		for k := range vs.m {
			if _, have := out.m[k]; !have {
				out.m[k] = bTrue
				grew = true
			}
		}
		return out, grew, nil
	case *Rel, pairV, univV:
		vr, _ := ev.asRel(v)
		out, ok := s.(*Rel)
		if !ok {
			if _, e := s.(emptyV); !e {
				return nil, false, errf(pos, "recursive value changes kind")
			}
			out = newRel(ev.o.n())
		}
		grew := false
		vr.each(func(i, j int, _ B) {
			if _, have := out.get(i, j); !have {
				out.set(i, j, bTrue)
				grew = true
			}
		})
		return out, grew, nil
	}
	return nil, false, unsupported(pos, "recursive definition of a %s", kindName(v))
}

func (ev *evaluator) lookup(name string, en *env, pos cat.Position) (value, error) {
	if v, ok := en.lookup(name); ok {
		return v, nil
	}
	if b, ok := builtins[name]; ok {
		return b, nil
	}
	if v, ok := ev.e.inputs[name]; ok {
		return v, nil
	}
	switch set, rel := cat.EmptyByDefault(name); {
	case set:
		return newSet(), nil
	case rel:
		return newRel(ev.o.n()), nil
	}
	switch name {
	case "co0":
		// herd7's co0: the initial write of each location before its
		// other writes.
		iw, w := ev.e.inputs["IW"].(*Set), ev.e.inputs["W"].(*Set)
		return ev.o.relInter(ev.e.inputs["loc"].(*Rel), ev.o.cross(iw, ev.o.setDiff(w, iw))), nil
	case "pco":
		return nil, unsupported(pos, "pco")
	}
	return nil, errf(pos, "unbound name %s", name)
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

func (ev *evaluator) binary(op cat.Op, a, b value, pos cat.Position) (value, error) {
	if op == cat.OpAdd {
		return ev.add(a, b, pos)
	}
	ca, cb := classOf(a), classOf(b)
	if ca == cOther || cb == cOther {
		return nil, errf(pos, "cannot apply %s to %s and %s", op, kindName(a), kindName(b))
	}
	switch op {
	case cat.OpUnion:
		if ca == cEmpty {
			return b, nil
		}
		if cb == cEmpty {
			return a, nil
		}
		if ca == cUniv && cb != cValSet {
			return a, nil
		}
		if cb == cUniv && ca != cValSet {
			return b, nil
		}
	case cat.OpInter:
		if ca == cEmpty || cb == cEmpty {
			return emptyV{}, nil
		}
		if ca == cUniv && cb != cValSet {
			return b, nil
		}
		if cb == cUniv && ca != cValSet {
			return a, nil
		}
	case cat.OpDiff:
		if ca == cEmpty || cb == cUniv {
			return emptyV{}, nil
		}
		if cb == cEmpty {
			return a, nil
		}
	case cat.OpSeq, cat.OpCross:
		if ca == cEmpty || cb == cEmpty {
			return emptyV{}, nil
		}
	}
	switch op {
	case cat.OpCross:
		s, ok1 := ev.asSet(a)
		t, ok2 := ev.asSet(b)
		if !ok1 || !ok2 {
			return nil, errf(pos, "cannot apply * to %s and %s", kindName(a), kindName(b))
		}
		return ev.o.cross(s, t), nil
	case cat.OpSeq:
		x, ok1 := ev.asRel(a)
		y, ok2 := ev.asRel(b)
		if !ok1 || !ok2 {
			return nil, errf(pos, "cannot apply ; to %s and %s", kindName(a), kindName(b))
		}
		return ev.o.seq(x, y), nil
	}
	kind := ca
	if kind == cUniv {
		kind = cb
	}
	if cb != cUniv && cb != kind {
		return nil, errf(pos, "cannot apply %s to %s and %s", op, kindName(a), kindName(b))
	}
	switch kind {
	case cSet:
		x, _ := ev.asSet(a)
		y, _ := ev.asSet(b)
		switch op {
		case cat.OpUnion:
			return ev.o.setUnion(x, y), nil
		case cat.OpInter:
			return ev.o.setInter(x, y), nil
		}
		return ev.o.setDiff(x, y), nil
	case cRel:
		x, _ := ev.asRel(a)
		y, _ := ev.asRel(b)
		switch op {
		case cat.OpUnion:
			return ev.o.relUnion(x, y), nil
		case cat.OpInter:
			return ev.o.relInter(x, y), nil
		}
		return ev.o.relDiff(x, y), nil
	case cValSet:
		x, ok1 := a.(*vsetV)
		y, ok2 := b.(*vsetV)
		if !ok1 || !ok2 {
			return nil, errf(pos, "cannot apply %s to %s and %s", op, kindName(a), kindName(b))
		}
		out := &vsetV{}
		switch op {
		case cat.OpUnion:
			out.elems = append(out.elems, x.elems...)
			for _, v := range y.elems {
				if !x.has(v) {
					out.elems = append(out.elems, v)
				}
			}
		case cat.OpInter:
			for _, v := range x.elems {
				if y.has(v) {
					out.elems = append(out.elems, v)
				}
			}
		default:
			for _, v := range x.elems {
				if !y.has(v) {
					out.elems = append(out.elems, v)
				}
			}
		}
		return out, nil
	case cUniv:
		if op == cat.OpDiff {
			return emptyV{}, nil
		}
		return univV{}, nil
	}
	return nil, errf(pos, "cannot apply %s to %s and %s", op, kindName(a), kindName(b))
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

func (ev *evaluator) add(x, s value, pos cat.Position) (value, error) {
	switch s := s.(type) {
	case emptyV:
		switch x := x.(type) {
		case eventV:
			return &Set{m: map[int]B{int(x): bTrue}}, nil
		case pairV:
			r := newRel(ev.o.n())
			r.set(x[0], x[1], bTrue)
			return r, nil
		}
		return &vsetV{elems: []value{x}}, nil
	case *vsetV:
		if s.has(x) {
			return s, nil
		}
		return &vsetV{elems: append(append([]value(nil), s.elems...), x)}, nil
	case *Set:
		if e, ok := x.(eventV); ok {
			one, _ := ev.asSet(e)
			return ev.o.setUnion(s, one), nil
		}
		if len(s.m) == 0 {
			return &vsetV{elems: []value{x}}, nil
		}
	case *Rel:
		if p, ok := x.(pairV); ok {
			one, _ := ev.asRel(p)
			return ev.o.relUnion(s, one), nil
		}
		if s.isEmpty() {
			return &vsetV{elems: []value{x}}, nil
		}
	}
	return nil, errf(pos, "cannot apply ++ to %s and %s", kindName(x), kindName(s))
}

func (ev *evaluator) unary(op cat.Op, a value, pos cat.Position) (value, error) {
	o := ev.o
	switch op {
	case cat.OpCompl:
		switch a.(type) {
		case emptyV:
			return univV{}, nil
		case univV:
			return emptyV{}, nil
		case *Set, eventV:
			s, _ := ev.asSet(a)
			return o.setCompl(s), nil
		case *Rel, pairV:
			r, _ := ev.asRel(a)
			return o.relCompl(r), nil
		}
	case cat.OpToID:
		switch a.(type) {
		case emptyV:
			return emptyV{}, nil
		case univV:
			return o.idRel(), nil
		case *Set, eventV:
			s, _ := ev.asSet(a)
			return o.toID(s), nil
		}
	case cat.OpInv:
		switch a := a.(type) {
		case emptyV, univV:
			return a, nil
		case pairV:
			return pairV{a[1], a[0]}, nil
		case *Rel:
			return o.inverse(a), nil
		}
	case cat.OpPlus:
		switch a.(type) {
		case emptyV, univV:
			return a, nil
		case *Rel, pairV:
			r, _ := ev.asRel(a)
			return o.plus(r), nil
		}
	case cat.OpStar, cat.OpOpt:
		switch a.(type) {
		case emptyV:
			return o.idRel(), nil
		case univV:
			return a, nil
		case *Rel, pairV:
			r, _ := ev.asRel(a)
			if op == cat.OpOpt {
				return o.relUnion(r, o.idRel()), nil
			}
			return o.relUnion(o.plus(r), o.idRel()), nil
		}
	}
	return nil, errf(pos, "cannot apply %s to %s", op, kindName(a))
}

// elements lists the elements of a set-like value whose membership is
// known statically.
func (ev *evaluator) elements(v value, pos cat.Position) ([]value, error) {
	switch v := v.(type) {
	case emptyV:
		return nil, nil
	case univV:
		return ev.elements(ev.o.fullSet(), pos)
	case *Set:
		var out []value
		for _, k := range v.elems() {
			if !v.m[k].isTrue() || !ev.o.exec[k].isTrue() {
				return nil, unsupported(pos, "iterating over a set whose elements depend on the execution")
			}
			out = append(out, eventV(k))
		}
		return out, nil
	case *Rel:
		var out []value
		var err error
		v.each(func(i, j int, b B) {
			if !b.isTrue() || !ev.o.exec[i].isTrue() || !ev.o.exec[j].isTrue() {
				err = unsupported(pos, "iterating over a relation whose pairs depend on the execution")
			}
			out = append(out, pairV{i, j})
		})
		return out, err
	case eventV, pairV:
		return []value{v}, nil
	case *vsetV:
		return v.elems, nil
	case *symSetV:
		for _, b := range v.in {
			if !b.isTrue() {
				return nil, unsupported(pos, "iterating over a set whose elements depend on the execution")
			}
		}
		return v.elems, nil
	}
	return nil, errf(pos, "cannot iterate over %s", kindName(v))
}

func (ev *evaluator) expr(x cat.Expr, en *env) (value, error) {
	if err := ev.step(x.Pos()); err != nil {
		return nil, err
	}
	switch x := x.(type) {
	case *cat.Ident:
		return ev.lookup(x.Name, en, x.At)
	case *cat.EmptyLit:
		return emptyV{}, nil
	case *cat.UniverseLit:
		return univV{}, nil
	case *cat.TagLit:
		return tagV(x.Name), nil
	case *cat.SetLit:
		if len(x.Elems) == 0 {
			return emptyV{}, nil
		}
		vals := make([]value, len(x.Elems))
		allE, allP := true, true
		for i, el := range x.Elems {
			v, err := ev.expr(el, en)
			if err != nil {
				return nil, err
			}
			vals[i] = v
			_, isE := v.(eventV)
			_, isP := v.(pairV)
			allE, allP = allE && isE, allP && isP
		}
		switch {
		case allE:
			s := newSet()
			for _, v := range vals {
				s.m[int(v.(eventV))] = bTrue
			}
			return s, nil
		case allP:
			r := newRel(ev.o.n())
			for _, v := range vals {
				p := v.(pairV)
				r.set(p[0], p[1], bTrue)
			}
			return r, nil
		}
		out := &vsetV{}
		for _, v := range vals {
			if !out.has(v) {
				out.elems = append(out.elems, v)
			}
		}
		return out, nil
	case *cat.TupleLit:
		t := make(tupleV, len(x.Elems))
		for i, el := range x.Elems {
			v, err := ev.expr(el, en)
			if err != nil {
				return nil, err
			}
			t[i] = v
		}
		return t, nil
	case *cat.UnaryExpr:
		a, err := ev.expr(x.X, en)
		if err != nil {
			return nil, err
		}
		return ev.unary(x.Op, a, x.At)
	case *cat.BinaryExpr:
		a, err := ev.expr(x.X, en)
		if err != nil {
			return nil, err
		}
		b, err := ev.expr(x.Y, en)
		if err != nil {
			return nil, err
		}
		return ev.binary(x.Op, a, b, x.At)
	case *cat.AppExpr:
		fn, err := ev.expr(x.Fun, en)
		if err != nil {
			return nil, err
		}
		arg, err := ev.expr(x.Arg, en)
		if err != nil {
			return nil, err
		}
		return ev.apply(fn, arg, x.At)
	case *cat.FunExpr:
		return &closureV{params: x.Params, body: x.Body, env: en, name: x.Name}, nil
	case *cat.LetExpr:
		var ne *env
		var err error
		if x.Rec {
			ne, err = ev.letRec(x.Binds, en, x.At)
		} else {
			ne, err = ev.let(x.Binds, en, false)
		}
		if err != nil {
			return nil, err
		}
		return ev.expr(x.Body, ne)
	case *cat.IfExpr:
		c, err := ev.cond(x.Cond, en)
		if err != nil {
			return nil, err
		}
		if c {
			return ev.expr(x.Then, en)
		}
		return ev.expr(x.Else, en)
	case *cat.TryExpr:
		v, err := ev.expr(x.X, en)
		if err != nil {
			var u *UnsupportedError
			if errors.As(err, &u) {
				return nil, err
			}
			return ev.expr(x.Y, en)
		}
		return v, nil
	case *cat.MatchTagExpr:
		v, err := ev.expr(x.X, en)
		if err != nil {
			return nil, err
		}
		t, ok := v.(tagV)
		if !ok {
			return nil, errf(x.At, "match on tags applied to %s", kindName(v))
		}
		for _, cl := range x.Clauses {
			if cl.Tag == string(t) {
				return ev.expr(cl.Body, en)
			}
		}
		if x.Default != nil {
			return ev.expr(x.Default, en)
		}
		return nil, errf(x.At, "no clause matches '%s", string(t))
	case *cat.MatchSetExpr:
		v, err := ev.expr(x.X, en)
		if err != nil {
			return nil, err
		}
		elems, err := ev.elements(v, x.At)
		if err != nil {
			return nil, err
		}
		if len(elems) == 0 {
			return ev.expr(x.Empty, en)
		}
		var rest value
		switch v := v.(type) {
		case *vsetV:
			rest = &vsetV{elems: v.elems[1:]}
		case *Set:
			one, _ := ev.asSet(elems[0])
			rest = ev.o.setDiff(v, one)
		case *Rel:
			one, _ := ev.asRel(elems[0])
			rest = ev.o.relDiff(v, one)
		case univV:
			one, _ := ev.asSet(elems[0])
			rest = ev.o.setDiff(ev.o.fullSet(), one)
		default:
			rest = emptyV{}
		}
		ne := en
		if x.Elem != "_" && x.Elem != "" {
			ne = ne.bind(x.Elem, elems[0])
		}
		if x.Rest != "_" && x.Rest != "" {
			ne = ne.bind(x.Rest, rest)
		}
		return ev.expr(x.NonEmpty, ne)
	}
	return nil, errf(x.Pos(), "unknown expression %T", x)
}

func (ev *evaluator) apply(fn, arg value, pos cat.Position) (value, error) {
	switch fn := fn.(type) {
	case *closureV:
		if ev.depth > 2000 {
			return nil, errf(pos, "recursion too deep")
		}
		ne, err := ev.bindPattern(fn.env, fn.params, arg, pos)
		if err != nil {
			return nil, err
		}
		ev.depth++
		v, err := ev.expr(fn.body, ne)
		ev.depth--
		return v, err
	case *builtinV:
		return fn.fn(ev, arg)
	}
	return nil, errf(pos, "cannot apply %s: not a function", kindName(fn))
}

// cond decides the condition of an if; it must be static.
func (ev *evaluator) cond(c cat.Cond, en *env) (bool, error) {
	switch c := c.(type) {
	case *cat.VariantCond:
		return ev.variants[c.Name], nil
	case *cat.NotCond:
		b, err := ev.cond(c.X, en)
		return !b, err
	case *cat.AndCond:
		b, err := ev.cond(c.X, en)
		if err != nil || !b {
			return false, err
		}
		return ev.cond(c.Y, en)
	case *cat.OrCond:
		b, err := ev.cond(c.X, en)
		if err != nil || b {
			return b, err
		}
		return ev.cond(c.Y, en)
	case *cat.CompareCond:
		a, err := ev.expr(c.X, en)
		if err != nil {
			return false, err
		}
		b, err := ev.expr(c.Y, en)
		if err != nil {
			return false, err
		}
		switch c.Op {
		case cat.IN:
			if s, ok := b.(*vsetV); ok {
				return s.has(a), nil
			}
			return false, unsupported(c.At, "membership test on %s", kindName(b))
		case cat.EQ:
			if eq, known := staticEqual(a, b); known {
				return eq, nil
			}
			ea, ka := ev.staticEmpty(a)
			eb, kb := ev.staticEmpty(b)
			if ka && kb && (ea || eb) {
				return ea == eb, nil
			}
			return false, unsupported(c.At, "comparison of values that depend on the execution")
		default:
			d, err := ev.binary(cat.OpDiff, a, b, c.At)
			if err != nil {
				return false, err
			}
			if e, known := ev.staticEmpty(d); known {
				return e, nil
			}
			return false, unsupported(c.At, "subset test on values that depend on the execution")
		}
	}
	return false, fmt.Errorf("unknown condition %T", c)
}

// staticEmpty tells whether a value is empty, when that is known before
// solving.
func (ev *evaluator) staticEmpty(v value) (bool, bool) {
	switch v := v.(type) {
	case emptyV:
		return true, true
	case *vsetV:
		return len(v.elems) == 0, true
	case *Set:
		if len(v.m) == 0 {
			return true, true
		}
		for k, b := range v.m {
			if b.isTrue() && ev.o.exec[k].isTrue() {
				return false, true
			}
		}
	case *Rel:
		if v.isEmpty() {
			return true, true
		}
		nonEmpty := false
		v.each(func(i, j int, b B) {
			if b.isTrue() && ev.o.exec[i].isTrue() && ev.o.exec[j].isTrue() {
				nonEmpty = true
			}
		})
		if nonEmpty {
			return false, true
		}
	case univV:
		return ev.o.n() == 0, true
	case eventV, pairV:
		return false, true
	}
	return false, false
}

// check encodes one check, flag or undefined_unless.
func (ev *evaluator) check(kind cat.CheckKind, t *cat.Test, en *env, as string) error {
	v, err := ev.expr(t.X, en)
	if err != nil {
		return err
	}
	name := t.Name
	if name == "" {
		name = t.Text
	}
	if as != "" {
		name = as
	}
	switch kind {
	case cat.Flag:
		b, err := ev.testFormula(t.Kind, v, t.At)
		if err != nil {
			return err
		}
		if t.Negate {
			b = ev.f.not(b)
		}
		ev.e.flags = append(ev.e.flags, flagCheck{name: name, b: b})
		return nil
	case cat.UndefinedUnless:
		return nil
	}
	if ev.e.incons != nil {
		return ev.violation(t.Kind, t.Negate, v, t.At)
	}
	if t.Negate {
		b, err := ev.testFormula(t.Kind, v, t.At)
		if err != nil {
			return err
		}
		ev.f.assert(ev.f.not(b))
		return nil
	}
	return ev.assertTest(t.Kind, v, t.At)
}

// entries lists the (absolute) formulas of the elements of a set or the
// pairs of a relation; a set stands for its identity.
func (ev *evaluator) entries(v value, pos cat.Position, diagOnly bool) ([]B, error) {
	f, o := ev.f, ev.o
	var out []B
	switch v.(type) {
	case emptyV:
		return nil, nil
	case *Set, eventV:
		s, _ := ev.asSet(v)
		for _, k := range s.elems() {
			out = append(out, f.and(o.exec[k], s.m[k]))
		}
		return out, nil
	}
	r, ok := ev.asRel(v)
	if !ok {
		return nil, errf(pos, "cannot test %s", kindName(v))
	}
	r.each(func(i, j int, b B) {
		if diagOnly && i != j {
			return
		}
		out = append(out, f.and(o.exec[i], o.exec[j], b))
	})
	return out, nil
}

// testFormula is the formula saying the test holds.
func (ev *evaluator) testFormula(kind cat.TestKind, v value, pos cat.Position) (B, error) {
	f := ev.f
	switch kind {
	case cat.IsEmpty:
		es, err := ev.entries(v, pos, false)
		if err != nil {
			return bFalse, err
		}
		return f.not(f.or(es...)), nil
	case cat.Irreflexive:
		es, err := ev.entries(v, pos, true)
		if err != nil {
			return bFalse, err
		}
		return f.not(f.or(es...)), nil
	}
	switch v.(type) {
	case emptyV:
		return bTrue, nil
	case *Set, eventV:
		return ev.testFormula(cat.IsEmpty, v, pos)
	}
	r, ok := ev.asRel(v)
	if !ok {
		return bFalse, errf(pos, "cannot test %s", kindName(v))
	}
	return ev.testFormula(cat.Irreflexive, ev.o.plus(r), pos)
}

// assertTest asserts that a test holds: empty and irreflexive pair by
// pair, acyclic with integer clocks on the edges inside the strongly
// connected components of the may-graph (edges between components
// cannot close a cycle).
func (ev *evaluator) assertTest(kind cat.TestKind, v value, pos cat.Position) error {
	f, o := ev.f, ev.o
	if kind != cat.Acyclic {
		es, err := ev.entries(v, pos, kind == cat.Irreflexive)
		if err != nil {
			return err
		}
		for _, b := range es {
			f.assert(f.not(b))
		}
		return nil
	}
	switch v.(type) {
	case emptyV:
		return nil
	case *Set, eventV:
		return ev.assertTest(cat.IsEmpty, v, pos)
	}
	r, ok := ev.asRel(v)
	if !ok {
		return errf(pos, "cannot test %s", kindName(v))
	}
	comp := sccs(r)
	clocks := map[int]B{}
	clock := func(i int) B {
		if c, ok := clocks[i]; ok {
			return c
		}
		c := B{t: f.intVar(fmt.Sprintf("clk%d", i))}
		clocks[i] = c
		return c
	}
	full := ev.e.opts.NoAnalysis
	r.each(func(i, j int, b B) {
		edge := f.and(o.exec[i], o.exec[j], b)
		if i == j {
			f.assert(f.not(edge))
			return
		}
		if !full && comp[i] != comp[j] {
			return
		}
		f.assert(f.implies(edge, B{t: ev.e.ctx.Lt(clock(i).t, clock(j).t)}))
	})
	return nil
}

// sccs numbers the strongly connected components of the may-graph of r
// (Tarjan); events in no cycle get components of their own.
func sccs(r *Rel) []int {
	n := r.n()
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	comp := make([]int, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next, ncomp := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range sortedKeys(r.rows[v]) {
			if index[w] < 0 {
				visit(w)
				if low[w] < low[v] {
					low[v] = low[w]
				}
			} else if on[w] && index[w] < low[v] {
				low[v] = index[w]
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for v := 0; v < n; v++ {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp
}

// builtins are the functions the model may call without defining them.
var builtins map[string]*builtinV

func init() {
	builtins = map[string]*builtinV{}
	for _, b := range []*builtinV{
		{name: "domain", fn: func(ev *evaluator, a value) (value, error) {
			r, ok := ev.asRel(a)
			if !ok {
				return nil, &evalError{"domain of " + kindName(a)}
			}
			return ev.o.domain(r), nil
		}},
		{name: "range", fn: func(ev *evaluator, a value) (value, error) {
			r, ok := ev.asRel(a)
			if !ok {
				return nil, &evalError{"range of " + kindName(a)}
			}
			return ev.o.rng(r), nil
		}},
		{name: "fencerel", fn: func(ev *evaluator, a value) (value, error) {
			s, ok := ev.asSet(a)
			if !ok {
				return nil, &evalError{"fencerel of " + kindName(a)}
			}
			po := ev.e.inputs["po"].(*Rel)
			return ev.o.seq(ev.o.relInter(po, ev.o.cross(ev.o.fullSet(), s)), po), nil
		}},
		{name: "classes-loc", fn: biClassesLoc},
		{name: "partition", fn: biClassesLoc},
		{name: "tag2events", fn: biTag2Events},
		{name: "tag2set", fn: biTag2Events},
		{name: "tag2instrs", fn: biTag2Events},
		{name: "different-values", fn: func(ev *evaluator, a value) (value, error) {
			r, ok := ev.asRel(a)
			if !ok {
				return nil, &evalError{"different-values of " + kindName(a)}
			}
			return ev.o.relDiff(r, ev.o.idRel()), nil
		}},
		// cross(F) is encoded where lock.cat uses it, in `with x from
		// cross(F)` over sets the analysis knows (withCross); elsewhere it
		// is refused by name.
		{name: "cross", fn: unsupportedFn("cross outside `with x from cross(F)`")},
		{name: "linearisations", fn: unsupportedFn("linearisations")},
		{name: "linearizations", fn: unsupportedFn("linearizations")},
		{name: "classes", fn: unsupportedFn("classes")},
		{name: "same-oa", fn: vmsaOnly("same-oa")},
		{name: "at-least-one-writable", fn: vmsaOnly("at-least-one-writable")},
		{name: "oa-changes", fn: vmsaOnly("oa-changes")},
	} {
		builtins[b.name] = b
	}
}

// vmsaOnly makes herd7's functions on page-table entries (same-oa(r),
// at-least-one-writable(r), oa-changes(S, r)) as the explicit engine
// does: executions have no virtual memory, so they answer only for
// arguments empty in every execution, with empty.
func vmsaOnly(name string) func(*evaluator, value) (value, error) {
	return func(ev *evaluator, a value) (value, error) {
		args := []value{a}
		if t, ok := a.(tupleV); ok {
			args = t
		}
		empty := false
		if s, ok := ev.asSet(args[0]); ok {
			empty = len(s.m) == 0
		} else if r, ok := ev.asRel(args[0]); ok {
			empty = r.isEmpty()
		}
		if !empty {
			return nil, &UnsupportedError{What: name + " (virtual memory)"}
		}
		if len(args) == 2 {
			return newSet(), nil
		}
		return newRel(ev.o.n()), nil
	}
}

func unsupportedFn(name string) func(*evaluator, value) (value, error) {
	return func(*evaluator, value) (value, error) {
		return nil, &UnsupportedError{What: name}
	}
}

func biClassesLoc(ev *evaluator, a value) (value, error) {
	s, ok := ev.asSet(a)
	if !ok {
		return nil, &evalError{"classes-loc of " + kindName(a)}
	}
	byLoc := map[string]*Set{}
	var locs []string
	for _, k := range s.elems() {
		l := ev.e.p.events[k].loc
		if l == "" {
			continue
		}
		if byLoc[l] == nil {
			byLoc[l] = newSet()
			locs = append(locs, l)
		}
		byLoc[l].m[k] = s.m[k]
	}
	sort.Strings(locs)
	out := &vsetV{}
	for _, l := range locs {
		out.elems = append(out.elems, byLoc[l])
	}
	return out, nil
}

func biTag2Events(ev *evaluator, a value) (value, error) {
	t, ok := a.(tagV)
	if !ok {
		return nil, &evalError{"tag2events of " + kindName(a)}
	}
	if s, ok := ev.e.inputs[string(t)].(*Set); ok {
		return s, nil
	}
	return newSet(), nil
}

// buildInputs gives the sets and relations the engines give every model
// (the same names and meanings as event.Static and the explicit engine).
func (e *encoding) buildInputs() map[string]value {
	p, o, f := e.p, e.o, e.f
	n := e.n
	in := map[string]value{}
	sets := map[string]*Set{}
	get := func(name string) *Set {
		if s, ok := sets[name]; ok {
			return s
		}
		s := newSet()
		sets[name] = s
		return s
	}
	for _, t := range e.opts.TagNames {
		get(t)
	}
	for _, name := range cat.ExecutionSets {
		get(name)
	}
	for i, ev := range p.events {
		switch ev.kind {
		case event.Read:
			get("R").m[i] = bTrue
			get("M").m[i] = bTrue
			get("Exp").m[i] = bTrue
		case event.Write:
			get("W").m[i] = bTrue
			get("M").m[i] = bTrue
			get("Exp").m[i] = bTrue
			if ev.thread < 0 {
				get("IW").m[i] = bTrue
			}
		case event.Fence:
			get("F").m[i] = bTrue
		}
		for _, t := range ev.tags {
			get(t).m[i] = bTrue
		}
		for t, c := range ev.condTags {
			get(t).m[i] = c
		}
	}
	for name, s := range sets {
		in[name] = s
	}
	for alias, tag := range event.TagAliases {
		if _, taken := sets[alias]; !taken {
			if s, ok := sets[tag]; ok {
				in[alias] = s
			}
		}
	}
	po, loc, intl, ext, same, sm := newRel(n), newRel(n), newRel(n), newRel(n), newRel(n), newRel(n)
	for i, a := range p.events {
		for j, b := range p.events {
			sameThread := a.thread == b.thread && (a.thread >= 0 || i == j)
			if sameThread {
				intl.set(i, j, bTrue)
				parts := sameAccess(a, b)
				if a.thread >= 0 && i < j && !e.exclusive(a, b) && !parts {
					po.set(i, j, bTrue)
				}
				if a.inst == b.inst && !e.exclusive(a, b) {
					same.set(i, j, bTrue)
					if parts {
						sm.set(i, j, bTrue)
					}
				}
			} else {
				ext.set(i, j, bTrue)
			}
			if a.loc != "" && a.loc == b.loc && !e.exclusive(a, b) {
				loc.set(i, j, bTrue)
			}
		}
	}
	// Exclusive events of a thread are never both executed: drop their
	// pairs from int too.
	for i, a := range p.events {
		for j, b := range p.events {
			if e.exclusive(a, b) {
				intl.set(i, j, bFalse)
			}
		}
	}
	fromPairs := func(m map[[2]int]B) *Rel {
		r := newRel(n)
		keys := make([][2]int, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
		})
		for _, k := range keys {
			r.set(k[0], k[1], m[k])
		}
		return r
	}
	in["po"] = po
	in["loc"] = loc
	in["int"] = intl
	in["ext"] = ext
	in["id"] = o.idRel()
	in["same-instance"] = same
	for i := range p.events {
		sm.set(i, i, bTrue)
	}
	in["sm"] = sm // herd's sm, Dat3M's si: see event.SameAccess
	in["si"] = sm
	in["addr"] = fromPairs(p.addr)
	in["data"] = fromPairs(p.data)
	in["ctrl"] = fromPairs(p.ctrl)
	in["iico_data"] = fromPairs(p.iico)
	in["iico_ctrl"] = newRel(n)
	rmw := fromPairs(p.rmw)
	in["rmw"] = rmw
	in["amo"] = o.relInter(rmw, o.cross(sets["X"], sets["X"]))
	in["lxsx"] = o.relInter(rmw, o.cross(sets["EX"], sets["EX"]))
	rf := fromPairs(e.rf)
	in["rf"] = rf
	in["rfi"] = o.relInter(rf, intl)
	in["rfe"] = o.relInter(rf, ext)
	co := e.co
	in["co"] = co
	in["coi"] = o.relInter(co, intl)
	in["coe"] = o.relInter(co, ext)
	fr := o.relDiff(o.seq(o.inverse(rf), co), o.idRel())
	in["fr"] = fr
	in["fri"] = o.relInter(fr, intl)
	in["fre"] = o.relInter(fr, ext)
	_ = f
	return in
}

// sameAccess tells whether a and b are two distinct chunks of one
// mixed-size access (as event.SameAccess).
func sameAccess(a, b *evt) bool {
	return a != b && a.thread >= 0 && a.thread == b.thread && a.inst == b.inst &&
		(a.kind == event.Read || a.kind == event.Write) && a.kind == b.kind
}
