package litmus

// The primitives of C litmus tests, each translated into accesses and
// fences: herd's __load, __store, __fence, __xchg, __lock... (what the
// macros of linux-kernel.def, READ_ONCE or spin_lock, expand to) and the
// C11 atomics (atomic_load_explicit, atomic_fetch_add...).

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// herdTags turns the tags of a primitive into herd's set names.
func herdTags(tags []string, extra ...string) []string {
	out := make([]string, 0, len(tags)+len(extra))
	for _, t := range tags {
		out = append(out, herdTagSet(t))
	}
	return append(out, extra...)
}

var cAtomicOps = map[string]prog.Op{
	"+": prog.OpAdd, "-": prog.OpSub, "&": prog.OpAnd, "|": prog.OpOr, "^": prog.OpXor,
}

// cPrimArgs are herd's primitives and their numbers of arguments.
var cPrimArgs = map[string]int{
	"__load": 1, "__store": 2, "__fence": 0, "__xchg": 2, "__cmpxchg": 3,
	"__atomic_op": 3, "__atomic_op_return": 3, "__atomic_fetch_op": 3,
	"__atomic_add_unless": 3, "__lock": 1, "__unlock": 1, "__trylock": 1, "__islocked": 1, "__srcu": 1,
}

// prim translates one of herd's primitives.
func (g *cGen) prim(c *cCall) prog.Expr {
	n, known := cPrimArgs[c.Name]
	if !known {
		g.errorf(c.Off, "unknown herd primitive %s", quote(c.Name))
		return prog.Int(0)
	}
	if len(c.Args) != n && !(c.Name == "__fence" && c.NoParens) {
		g.errorf(c.Off, "%s takes %d arguments, not %d", c.Name, n, len(c.Args))
		return prog.Int(0)
	}
	switch c.Name {
	case "__load":
		a := g.addrOf(c.Args[0])
		r := g.tmp()
		g.emit(prog.Load{Dst: r, Addr: a, Tags: herdTags(c.Tags)})
		return prog.Reg{Name: r}
	case "__store":
		v := g.expr(c.Args[1])
		a := g.addrOf(c.Args[0])
		g.emit(prog.Store{Addr: a, Val: v, Tags: herdTags(c.Tags)})
		return prog.Int(0)
	case "__fence":
		g.emit(prog.Fence{Tags: herdTags(c.Tags)})
		return prog.Int(0)
	case "__xchg":
		a := g.expr(c.Args[0])
		v := g.expr(c.Args[1])
		r := g.tmp()
		g.emit(prog.RMW{Dst: r, Addr: a, New: v, RTags: herdTags(c.Tags, TagRMW, TagX), WTags: herdTags(c.Tags, TagRMW, TagX)})
		return prog.Reg{Name: r}
	case "__cmpxchg":
		a := g.expr(c.Args[0])
		o := g.expr(c.Args[1])
		v := g.expr(c.Args[2])
		r := g.tmp()
		g.emit(prog.RMW{Dst: r, Addr: a, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: o}, New: v,
			RTags: herdTags(c.Tags, TagRMW, TagX), WTags: herdTags(c.Tags, TagRMW, TagX)})
		return prog.Reg{Name: r}
	case "__atomic_op", "__atomic_op_return", "__atomic_fetch_op":
		a := g.expr(c.Args[0])
		opArg, ok := c.Args[1].(*cOpArg)
		if !ok {
			g.errorf(c.Args[1].cOff(), "%s: expected an operator as second argument", c.Name)
			return prog.Int(0)
		}
		v := g.expr(c.Args[2])
		var nv prog.Expr
		if opArg.Op == "&~" {
			nv = prog.Bin{Op: prog.OpAnd, X: prog.Old{}, Y: prog.Un{Op: prog.OpBNot, X: v}}
		} else if op, ok := cAtomicOps[opArg.Op]; ok {
			nv = prog.Bin{Op: op, X: prog.Old{}, Y: v}
		} else {
			g.errorf(opArg.Off, "%s: unknown operator %s", c.Name, opArg.Op)
			return prog.Int(0)
		}
		r := g.tmp()
		g.emit(prog.RMW{Dst: r, Addr: a, New: nv, RTags: herdTags(c.Tags, TagRMW, TagX), WTags: herdTags(c.Tags, TagRMW, TagX)})
		if c.Name == "__atomic_op_return" {
			return prog.ReplaceOld(nv, prog.Reg{Name: r})
		}
		return prog.Reg{Name: r}
	case "__atomic_add_unless":
		a := g.expr(c.Args[0])
		add := g.expr(c.Args[1])
		unless := g.expr(c.Args[2])
		r := g.tmp()
		g.emit(prog.RMW{Dst: r, Addr: a, Cond: prog.Bin{Op: prog.OpNe, X: prog.Old{}, Y: unless},
			New: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: add}, RTags: herdTags(c.Tags, TagRMW, TagX), WTags: herdTags(c.Tags, TagRMW, TagX)})
		return prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: r}, Y: unless}
	case "__lock", "__unlock", "__trylock", "__islocked":
		// herd7's lock events are located but neither reads nor writes
		// until the model (lock.cat) says so; it builds their rf and co.
		op := map[string]prog.LocatedOp{"__lock": prog.LocLock, "__unlock": prog.LocUnlock,
			"__trylock": prog.LocTryLock, "__islocked": prog.LocIsLocked}[c.Name]
		a := g.expr(c.Args[0])
		if op == prog.LocLock || op == prog.LocUnlock {
			g.emit(prog.Located{Op: op, Addr: a})
			return prog.Int(0)
		}
		r := g.tmp()
		g.emit(prog.Located{Op: op, Addr: a, Dst: r})
		return prog.Reg{Name: r}
	case "__srcu":
		// synchronize_srcu: one event at the srcu_struct, tagged
		// Sync-srcu, neither a read nor a write.
		a := g.expr(c.Args[0])
		g.emit(prog.Located{Op: prog.LocEvent, Addr: a, Tags: herdTags(c.Tags)})
	}
	return prog.Int(0)
}

// memOrder reads a memory order argument.
func (g *cGen) memOrder(e cExpr) string {
	if id, ok := e.(*cIdent); ok {
		if t, ok := cMemOrders[id.Name]; ok {
			return t
		}
	}
	g.errorf(e.cOff(), "expected a memory order (memory_order_relaxed, ...)")
	return "SC"
}

var cFetchOps = map[string]prog.Op{
	"add": prog.OpAdd, "sub": prog.OpSub, "and": prog.OpAnd, "or": prog.OpOr, "xor": prog.OpXor,
}

// c11 translates the C11 atomics; it reports false for other names.
func (g *cGen) c11(c *cCall) (prog.Expr, bool) {
	name := c.Name
	explicit := strings.HasSuffix(name, "_explicit")
	base := strings.TrimSuffix(name, "_explicit")
	want := func(n int) bool {
		if len(c.Args) != n {
			g.errorf(c.Off, "%s takes %d arguments, not %d", name, n, len(c.Args))
			return false
		}
		return true
	}
	order := func(i int) string {
		if !explicit {
			return "SC"
		}
		return g.memOrder(c.Args[i])
	}
	extra := 0
	if explicit {
		extra = 1
	}
	switch {
	case base == "atomic_load":
		if !want(1 + extra) {
			return prog.Int(0), true
		}
		a := g.expr(c.Args[0])
		r := g.tmp()
		g.emit(prog.Load{Dst: r, Addr: a, Tags: []string{TagAtomic, order(1)}})
		return prog.Reg{Name: r}, true
	case base == "atomic_store":
		if !want(2 + extra) {
			return prog.Int(0), true
		}
		a := g.expr(c.Args[0])
		v := g.expr(c.Args[1])
		g.emit(prog.Store{Addr: a, Val: v, Tags: []string{TagAtomic, order(2)}})
		return prog.Int(0), true
	case base == "atomic_exchange":
		if !want(2 + extra) {
			return prog.Int(0), true
		}
		a := g.expr(c.Args[0])
		v := g.expr(c.Args[1])
		mo := order(2)
		r := g.tmp()
		tags := []string{TagAtomic, mo, TagRMW, TagX}
		g.emit(prog.RMW{Dst: r, Addr: a, New: v, RTags: tags, WTags: tags})
		return prog.Reg{Name: r}, true
	case strings.HasPrefix(base, "atomic_fetch_") && cFetchOps[strings.TrimPrefix(base, "atomic_fetch_")] != 0 || base == "atomic_fetch_add":
		if !want(2 + extra) {
			return prog.Int(0), true
		}
		op := cFetchOps[strings.TrimPrefix(base, "atomic_fetch_")]
		a := g.expr(c.Args[0])
		v := g.expr(c.Args[1])
		mo := order(2)
		r := g.tmp()
		tags := []string{TagAtomic, mo, TagRMW, TagX}
		g.emit(prog.RMW{Dst: r, Addr: a, New: prog.Bin{Op: op, X: prog.Old{}, Y: v}, RTags: tags, WTags: tags})
		return prog.Reg{Name: r}, true
	case base == "atomic_compare_exchange_strong" || base == "atomic_compare_exchange_weak":
		if !want(3 + 2*extra) {
			return prog.Int(0), true
		}
		a := g.expr(c.Args[0])
		ea := g.expr(c.Args[1])
		exp := g.tmp()
		g.emit(prog.Load{Dst: exp, Addr: ea, Tags: []string{TagNonAtomic}})
		d := g.expr(c.Args[2])
		mos, mof := order(3), order(4)
		r := g.tmp()
		tags := []string{TagAtomic, mos, TagRMW, TagX}
		var fail []string
		if mos != mof {
			// As in herd7: a failing CAS reads with the failure order, a
			// successful one is an RMW with the success order.
			fail = []string{TagAtomic, mof, TagRMW, TagX}
		}
		g.emit(prog.RMW{Dst: r, Addr: a, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Reg{Name: exp}}, New: d, RTags: tags, WTags: tags, FailRTags: fail})
		ok := g.label()
		// As in herd7, only the write back of a failing CAS depends on
		// its outcome.
		g.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: r}, Y: prog.Reg{Name: exp}}, Target: ok, Join: ok})
		g.emit(prog.Store{Addr: ea, Val: prog.Reg{Name: r}, Tags: []string{TagNonAtomic}})
		g.emit(prog.Label{Name: ok})
		return prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: r}, Y: prog.Reg{Name: exp}}, true
	case name == "atomic_thread_fence":
		if !want(1) {
			return prog.Int(0), true
		}
		g.emit(prog.Fence{Tags: []string{g.memOrder(c.Args[0])}})
		return prog.Int(0), true
	}
	return nil, false
}
