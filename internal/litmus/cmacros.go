package litmus

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
)

// Macros is a table of herd7 C macros, as a .def file gives them (herd7's
// -macros option): one definition per entry,
//
//	NAME(PARAMS) EXPRESSION          READ_ONCE(X) __load{ONCE}(X)
//	NAME(PARAMS) { STATEMENTS }      smp_mb() { __fence{MB}; }
//
// An expression body ends with its line (unless a parenthesis is still
// open); a statement body ends with its closing brace. Comments are C's.
// Bodies use herd's primitives (__load{tag}, __store{tag}, __fence{tag},
// __xchg{tag}, __cmpxchg{tag}, __atomic_op{tag}, ...), C11 atomics, or
// other macros. A call of a macro in a thread is replaced by its body with
// the arguments in place of the parameters.
type Macros struct {
	defs map[string]*cMacro
	tags map[string]bool // herd's set names of every tag the bodies use
}

// cMacro is one macro definition.
type cMacro struct {
	name   string
	params []string
	expr   cExpr   // the body of an expression macro
	stmts  []cStmt // the body of a statement macro
	isStmt bool
	pos    prog.Pos
}

// ReadMacros reads the .def file at path.
func ReadMacros(path string) (*Macros, error) {
	src, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseMacros(path, src)
}

// ParseMacros parses the text of a .def file; file names it in positions.
func ParseMacros(file string, src []byte) (*Macros, error) {
	m := &Macros{defs: map[string]*cMacro{}, tags: map[string]bool{}}
	var errs source.ErrorList
	sc := newScanner(file, src, func(int, string) {})
	pos := sc.pos
	lex := &cLexer{src: src, errs: &errs, pos: pos}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
			}
		}()
		for {
			t := lex.next()
			if t.kind == ctEOF {
				return
			}
			if t.kind != ctIdent {
				lex.errorf(t.off, "expected a macro name, found %s", t.describe())
				panic(bailout{})
			}
			def := &cMacro{name: t.text, pos: pos(t.off)}
			if u := lex.next(); u.kind != ctPunct || u.text != "(" {
				lex.errorf(u.off, "expected '(' after macro %s, found %s", t.text, u.describe())
				panic(bailout{})
			}
			for {
				u := lex.next()
				if u.kind == ctPunct && u.text == ")" && len(def.params) == 0 {
					break
				}
				if u.kind != ctIdent {
					lex.errorf(u.off, "expected a parameter name of macro %s, found %s", t.text, u.describe())
					panic(bailout{})
				}
				def.params = append(def.params, u.text)
				u = lex.next()
				if u.kind == ctPunct && u.text == ")" {
					break
				}
				if u.kind != ctPunct || u.text != "," {
					lex.errorf(u.off, "expected ',' or ')' in the parameters of macro %s, found %s", t.text, u.describe())
					panic(bailout{})
				}
			}
			bodyStart := lex.off
			first := lex.next()
			if first.kind == ctEOF || first.nl {
				lex.errorf(first.off, "missing body of macro %s", t.text)
				panic(bailout{})
			}
			if first.kind == ctPunct && first.text == "{" {
				p := newCParser(src, lex.off, pos, &errs)
				def.stmts = p.stmtsUntil("}")
				def.isStmt = true
				lex.off = p.tok.off + 1
			} else {
				end := exprLineEnd(src, bodyStart, pos, &errs)
				p := newCParser(src[:end], bodyStart, pos, &errs)
				def.expr = p.expr()
				if p.tok.kind != ctEOF {
					p.fail(p.tok.off, "unexpected %s after the body of macro %s", p.tok.describe(), t.text)
				}
				lex.off = end
			}
			m.defs[def.name] = def
		}
	}()
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	// The tags the bodies use, by scanning for primitives.
	lex = &cLexer{src: src, errs: &errs, pos: pos}
	for t := lex.next(); t.kind != ctEOF; t = lex.next() {
		for _, tag := range t.tags {
			m.tags[herdTagSet(tag)] = true
		}
	}
	return m, nil
}

// exprLineEnd returns where an expression body starting at off ends: at
// the first line end outside parentheses.
func exprLineEnd(src []byte, off int, pos func(int) prog.Pos, errs *source.ErrorList) int {
	lex := &cLexer{src: src, off: off, errs: errs, pos: pos}
	depth := 0
	for {
		save := lex.off
		t := lex.next()
		if t.kind == ctEOF || t.nl && depth <= 0 && save != off {
			return save
		}
		if t.kind == ctPunct {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
		}
	}
}

// herdTagSet is the name of the set of events carrying tag t, as herd7
// names it: the tag with its first letter in upper case ('mb is Mb,
// 'rcu-lock is Rcu-lock, 'ONCE is ONCE).
func herdTagSet(t string) string {
	if t == "" {
		return t
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

// Names lists the macros, sorted.
func (m *Macros) Names() []string {
	out := make([]string, 0, len(m.defs))
	for n := range m.defs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Tags lists herd's set names of the tags the macro bodies use, sorted.
func (m *Macros) Tags() []string {
	out := make([]string, 0, len(m.tags))
	for t := range m.tags {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// over returns the macros of m with those of top in front (top's win).
func (m *Macros) over(top *Macros) *Macros {
	if top == nil {
		return m
	}
	out := &Macros{defs: map[string]*cMacro{}, tags: map[string]bool{}}
	for _, src := range []*Macros{m, top} {
		for k, v := range src.defs {
			out.defs[k] = v
		}
		for k := range src.tags {
			out.tags[k] = true
		}
	}
	return out
}

// builtinMacroText is the macro table the C front-end knows without a .def
// file: the Linux-kernel primitives of the common litmus tests, with the
// tags of the kernel's current model. A .def file given by the user is
// layered over it.
const builtinMacroText = `
// Marked accesses
READ_ONCE(X) __load{ONCE}(X)
WRITE_ONCE(X,V) { __store{ONCE}(X,V); }
smp_load_acquire(X) __load{ACQUIRE}(*X)
smp_store_release(X,V) { __store{RELEASE}(*X,V); }
rcu_dereference(X) __load{ONCE}(X)
rcu_assign_pointer(X,V) { __store{RELEASE}(X,V); }
smp_store_mb(X,V) { __store{ONCE}(X,V); __fence{MB}; }
// Barriers
smp_mb() { __fence{MB}; }
smp_rmb() { __fence{rmb}; }
smp_wmb() { __fence{wmb}; }
barrier() { __fence{barrier}; }
smp_mb__before_atomic() { __fence{before-atomic}; }
smp_mb__after_atomic() { __fence{after-atomic}; }
smp_mb__after_spinlock() { __fence{after-spinlock}; }
smp_mb__after_unlock_lock() { __fence{after-unlock-lock}; }
// Exchanges
xchg(X,V) __xchg{MB}(X,V)
xchg_relaxed(X,V) __xchg{ONCE}(X,V)
xchg_acquire(X,V) __xchg{ACQUIRE}(X,V)
xchg_release(X,V) __xchg{RELEASE}(X,V)
cmpxchg(X,V,W) __cmpxchg{MB}(X,V,W)
cmpxchg_relaxed(X,V,W) __cmpxchg{ONCE}(X,V,W)
cmpxchg_acquire(X,V,W) __cmpxchg{ACQUIRE}(X,V,W)
cmpxchg_release(X,V,W) __cmpxchg{RELEASE}(X,V,W)
// Locks
spin_lock(X) { __lock(X); }
spin_unlock(X) { __unlock(X); }
spin_trylock(X) __trylock(X)
spin_is_locked(X) __islocked(X)
// RCU
rcu_read_lock() { __fence{rcu-lock}; }
rcu_read_unlock() { __fence{rcu-unlock}; }
synchronize_rcu() { __fence{sync-rcu}; }
// SRCU
srcu_read_lock(X) __load{srcu-lock}(*X)
srcu_read_unlock(X,Y) { __store{srcu-unlock}(*X,Y); }
synchronize_srcu(X) { __srcu{sync-srcu}(X); }
// atomic_t
atomic_read(X) READ_ONCE(*X)
atomic_set(X,V) { WRITE_ONCE(*X,V); }
atomic_inc(X) { __atomic_op{NORETURN}(X,+,1); }
atomic_dec(X) { __atomic_op{NORETURN}(X,-,1); }
atomic_add(V,X) { __atomic_op{NORETURN}(X,+,V); }
atomic_sub(V,X) { __atomic_op{NORETURN}(X,-,V); }
`

// builtinMacros parses the built-in macros on first use.
var builtinMacros = sync.OnceValue(func() *Macros {
	m, err := ParseMacros("builtin.def", []byte(builtinMacroText))
	if err != nil {
		panic(fmt.Sprintf("built-in macros: %v", err))
	}
	return m
})

// builtinMacroTags are the tags of builtinMacroText's primitives, as
// builtinMacros().Tags() gives them (TestBuiltinMacroTags compares the
// two): the C front-end's Tags use this list, so that the check of a C
// program, which asks for the tags only, does not parse the macros.
var builtinMacroTags = []string{"ACQUIRE", "After-atomic", "After-spinlock", "After-unlock-lock", "Barrier",
	"Before-atomic", "MB", "NORETURN", "ONCE", "RELEASE", "Rcu-lock", "Rcu-unlock", "Rmb", "Srcu-lock",
	"Srcu-unlock", "Sync-rcu", "Sync-srcu", "Wmb"}
