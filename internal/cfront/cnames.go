package cfront

import (
	"fmt"
	"github.com/musket-verify/musket/internal/lazyre"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
)

// This file names the program's memory locations in C terms, from the
// debug information clang emits with -g (DIGlobalVariable,
// DILocalVariable and their types): what a user reads in witnesses,
// races and explanations is `nodes[1].next` or `a (in main)`, never the
// lowering's names (`nodes+24`, `main.1.a`, `%start.1`).

// diVar is a variable of the program as its debug information has it.
type diVar struct {
	name string
	typ  metadata.Field
	fn   string // the function of a local (or of a static local); "" for a global
}

// cNames is what the debug information says of the program's objects.
type cNames struct {
	globals map[string]diVar            // LLVM global name -> variable
	locals  map[string]map[string]diVar // function -> alloca name -> variable
	count   map[string]int              // how many variables have each C name
}

// newCNames reads the debug information of module m.
func newCNames(m *ir.Module) *cNames {
	n := &cNames{globals: map[string]diVar{}, locals: map[string]map[string]diVar{}, count: map[string]int{}}
	for _, g := range m.Globals {
		for _, a := range g.Metadata {
			e, ok := a.Node.(*metadata.DIGlobalVariableExpression)
			if a.Name != "dbg" || !ok || e.Var == nil {
				continue
			}
			v := diVar{name: e.Var.Name, typ: e.Var.Type}
			if sp, ok := e.Var.Scope.(*metadata.DISubprogram); ok {
				v.fn = sp.Name
			}
			n.globals[g.Name()] = v
			n.count[v.name]++
		}
	}
	for f, c := range moduleCalls(m) {
		if len(c.Args) < 2 {
			continue
		}
		callee, ok := c.Callee.(*ir.Func)
		if !ok || (callee.Name() != "llvm.dbg.declare" && callee.Name() != "llvm.dbg.value") {
			continue
		}
		al := allocaOf(c.Args[0])
		dv := localVarOf(c.Args[1])
		if al == nil || dv == nil {
			continue
		}
		if n.locals[f.Name()] == nil {
			n.locals[f.Name()] = map[string]diVar{}
		}
		if _, seen := n.locals[f.Name()][al.Name()]; !seen {
			n.locals[f.Name()][al.Name()] = diVar{name: dv.Name, typ: dv.Type, fn: f.Name()}
			n.count[dv.Name]++
		}
	}
	return n
}

// allocaOf is the alloca a debug intrinsic's first argument names.
func allocaOf(v any) *ir.InstAlloca {
	switch v := v.(type) {
	case *ir.InstAlloca:
		return v
	case *metadata.Value:
		return allocaOf(v.Value)
	}
	return nil
}

// localVarOf is the variable a debug intrinsic's second argument names.
func localVarOf(v any) *metadata.DILocalVariable {
	switch v := v.(type) {
	case *metadata.DILocalVariable:
		return v
	case *metadata.Value:
		return localVarOf(v.Value)
	}
	return nil
}

// instanceName splits the name of a stack object, "FUNC.N.VAR" (see
// alloca): the function, the variable.
var instanceName = lazyre.New(`^(.+)\.([0-9]+)\.([^.].*)$`)

// tlsName splits a thread's copy of a thread-local variable, "x.tlsN".
var tlsName = lazyre.New(`^(.+)\.tls([0-9]+)$`)

// threadFlag names the locations the lowering makes for pthread_create
// and pthread_join (threads.go).
var threadFlag = lazyre.New(`^%(start|done|arg|ret)\.([0-9]+)$`)

// CName is location loc in C terms: `x`, `nodes[1].next`, `a (in
// main)` for a local of main whose name another variable also has, `n
// (in worker#3)` for a local of another function (the copy of its third
// inlined call: each thread running it has its own), `heap1+8`
// for a cell of the first object malloc returned, `create(P1)` for the
// flag by which pthread_create starts thread P1 (`join(P1)`: its end,
// which pthread_join waits for; `arg(P1)`, `ret(P1)`: its argument and
// result).
func (p *Program) CName(loc string) string { return p.cName(loc, false) }

// cName is CName; addr names an address (a pointer's value): the path
// stops where the rest of the offset is 0 (&pool[2], not
// &pool[2].val).
func (p *Program) cName(loc string, addr bool) string {
	if m := threadFlag.FindStringSubmatch(loc); m != nil {
		word := map[string]string{"start": "create", "done": "join", "arg": "arg", "ret": "ret"}[m[1]]
		return fmt.Sprintf("%s(P%s)", word, m[2])
	}
	if strings.HasPrefix(loc, "%fn.") {
		return loc[len("%fn."):] // a function's address
	}
	if p == nil || p.names == nil {
		return loc
	}
	base, off := loc, int64(0)
	if i := strings.LastIndexByte(loc, '+'); i > 0 {
		if k, err := strconv.ParseInt(loc[i+1:], 10, 64); err == nil {
			base, off = loc[:i], k
		}
	}
	suffix := ""
	if m := tlsName.FindStringSubmatch(base); m != nil {
		base, suffix = m[1], " (P"+m[2]+"'s copy)"
	}
	v, ok := p.names.globals[base]
	instance := ""
	if !ok {
		if m := instanceName.FindStringSubmatch(base); m != nil {
			if vars := p.names.locals[m[1]]; vars != nil {
				v, ok = vars["%"+m[3]]
				if !ok {
					v, ok = vars[m[3]]
				}
			}
			if !ok {
				v, ok = diVar{name: m[3], fn: m[1]}, true
			}
			if m[1] != "main" {
				// Each call of a function (each thread running it) has
				// its own copy of its locals.
				instance = "#" + m[2]
			}
		}
	}
	if !ok {
		return loc
	}
	name := v.name
	path, exact := fieldPath(v.typ, off, addr)
	if !exact {
		path = fmt.Sprintf("+%d", off)
	}
	name += path
	if v.fn != "" && (p.names.count[v.name] > 1 || instance != "") {
		name += " (in " + v.fn + instance + ")"
	}
	return name + suffix
}

// stripQualifiers follows typedefs, const, volatile and _Atomic.
func stripQualifiers(t metadata.Field) metadata.Field {
	for i := 0; i < 32; i++ {
		d, ok := t.(*metadata.DIDerivedType)
		if !ok || d.Tag == enum.DwarfTagPointerType || d.Tag == enum.DwarfTagMember {
			return t
		}
		t = d.BaseType
	}
	return t
}

// typeSize is the size of a debug type in bytes (0: unknown).
func typeSize(t metadata.Field) int64 {
	t = stripQualifiers(t)
	switch t := t.(type) {
	case *metadata.DIBasicType:
		return int64(t.Size / 8)
	case *metadata.DIDerivedType:
		if t.Size != 0 {
			return int64(t.Size / 8)
		}
		return 8
	case *metadata.DICompositeType:
		return int64(t.Size / 8)
	}
	return 0
}

// fieldPath is the C access path of byte offset off in an object of
// debug type t ("[2]", ".next", "[1].val"); exact is false when the
// type does not say (no debug type, an offset inside a scalar). addr:
// the path of an address, which stops where the rest of the offset is 0.
func fieldPath(t metadata.Field, off int64, addr bool) (path string, exact bool) {
	if addr && off == 0 {
		return "", true
	}
	t = stripQualifiers(t)
	c, ok := t.(*metadata.DICompositeType)
	if !ok {
		return "", off == 0
	}
	switch c.Tag {
	case enum.DwarfTagArrayType:
		esz := typeSize(c.BaseType)
		if c.Elements != nil && len(c.Elements.Fields) > 1 {
			// A multi-dimensional array: the first dimension's element
			// is the rest of the array.
			if n := subrangeCount(c.Elements.Fields[0]); n > 0 {
				esz = int64(c.Size/8) / n
				inner := &metadata.DICompositeType{Tag: enum.DwarfTagArrayType, BaseType: c.BaseType, Size: uint64(esz * 8),
					Elements: &metadata.Tuple{Fields: c.Elements.Fields[1:]}}
				rest, ok := fieldPath(inner, off%esz, addr)
				return fmt.Sprintf("[%d]%s", off/esz, rest), ok
			}
		}
		if esz <= 0 {
			return "", off == 0
		}
		rest, ok := fieldPath(c.BaseType, off%esz, addr)
		return fmt.Sprintf("[%d]%s", off/esz, rest), ok
	case enum.DwarfTagStructureType, enum.DwarfTagUnionType:
		if c.Elements == nil {
			return "", off == 0
		}
		var best *metadata.DIDerivedType
		for _, f := range c.Elements.Fields {
			m, ok := f.(*metadata.DIDerivedType)
			if !ok || m.Tag != enum.DwarfTagMember {
				continue
			}
			mo := int64(m.Offset / 8)
			if mo > off || (best != nil && int64(best.Offset/8) >= mo) {
				continue
			}
			if sz := typeSize(m.BaseType); sz > 0 && off >= mo+sz {
				continue
			}
			best = m
		}
		if best == nil {
			return "", off == 0
		}
		rest, ok := fieldPath(best.BaseType, off-int64(best.Offset/8), addr)
		if best.Name == "" {
			return rest, ok // an anonymous struct or union
		}
		return "." + best.Name + rest, ok
	}
	return "", off == 0
}

// subrangeCount is the element count of an array dimension (0: unknown).
func subrangeCount(f metadata.Field) int64 {
	s, ok := f.(*metadata.DISubrange)
	if !ok {
		return 0
	}
	if n, ok := s.Count.(metadata.IntLit); ok {
		return int64(n)
	}
	return 0
}

// cLabel rewrites an event label of the engines ("k: W.NA[main.1.a]=1",
// "l: W.A.REL[%start.1]=1") in C terms: the location by CName, a value
// that is an address as &NAME.
func (p *Program) cLabel(label string) string {
	i := strings.IndexByte(label, '[')
	j := strings.LastIndex(label, "]")
	if i < 0 || j < i {
		return label
	}
	out := label[:i+1] + p.CName(label[i+1:j]) + "]"
	rest := label[j+1:]
	if strings.HasPrefix(rest, "=") {
		v := rest[1:]
		if v != "" && (v[0] < '0' || v[0] > '9') && v[0] != '-' {
			v = "&" + p.cName(v, true)
		}
		rest = "=" + v
	}
	return out + rest
}
