package cfront

import (
	"context"
	"strings"
)

// Plain accesses kept as written (raceGuard's asWritten mode; see the
// comment at the top of racepipe.go): every plain load and store whose
// address may be shared with another thread becomes volatile before the
// -O1 pipeline. An address is private when it is a function's own stack
// slot (an alloca) or a pointer derived from one (bitcast,
// getelementptr) whose address never leaves the function's loads and
// stores: such accesses stay plain, so that SROA and mem2reg still turn
// them into registers (the lowering needs that, e.g. for the expected
// value a compare-and-swap writes back).

// privateAddrs are the allocas of a function's body, and the pointers
// derived from them, whose address does not escape: every use of them is
// the address of a load or a store, a bitcast or getelementptr deriving
// another such pointer, or an argument of the lifetime, debug and
// memcpy/memmove/memset intrinsics.
func privateAddrs(ctx context.Context, body []string) map[string]bool {
	root := map[string]string{} // a derived pointer -> its alloca
	for k, ln := range body {
		if k%1024 == 0 && ctx.Err() != nil {
			return nil // the caller sees ctx done
		}
		if m := matchDef(allocaDef, ln, " = alloca "); m != nil {
			root[m[1]] = m[1]
		}
	}
	if len(root) == 0 {
		return nil
	}
	// Derived pointers, in the order of the body (a use follows its def
	// except across phis, which count as escapes below).
	for k, ln := range body {
		if k%1024 == 0 && ctx.Err() != nil {
			return nil // the caller sees ctx done
		}
		m := matchDef(valueDef, ln, " = ")
		if m == nil || !(strings.HasPrefix(m[2], "bitcast ") || strings.HasPrefix(m[2], "getelementptr ")) {
			continue
		}
		// The first private name is the operand (type names such as
		// %struct.node are never in root).
		for _, r := range localRef.FindAllString(m[2], -1) {
			if root[r] != "" {
				root[m[1]] = root[r]
				break
			}
		}
	}
	escaped := map[string]bool{}
	for k, ln := range body {
		if k%1024 == 0 && ctx.Err() != nil {
			return nil // the caller sees ctx done
		}
		if strings.IndexByte(ln, '%') < 0 {
			continue
		}
		t := strings.TrimSpace(ln)
		def, rhs := "", t
		if i := strings.Index(t, " = "); i > 0 && strings.HasPrefix(t, "%") {
			def, rhs = t[:i], t[i+3:]
		}
		if def != "" && root[def] == def && strings.HasPrefix(rhs, "alloca ") {
			continue
		}
		refs := localRef.FindAllString(rhs, -1)
		var addr string // the one operand allowed to be a private pointer
		switch {
		case def != "" && root[def] != "" && (strings.HasPrefix(rhs, "bitcast ") || strings.HasPrefix(rhs, "getelementptr ")):
			for _, r := range refs {
				if root[r] != "" {
					addr = r // the operand; any other private name escapes below
					break
				}
			}
		case strings.HasPrefix(rhs, "load ") && !strings.HasPrefix(rhs, "load atomic "):
			if f := topFields(strings.TrimPrefix(strings.TrimPrefix(rhs, "load "), "volatile ")); len(f) >= 2 {
				addr = lastRef(f[1])
			}
		case strings.HasPrefix(t, "store ") && !strings.HasPrefix(t, "store atomic "):
			if f := topFields(strings.TrimPrefix(strings.TrimPrefix(t, "store "), "volatile ")); len(f) >= 2 {
				addr = lastRef(f[1])
			}
		case strings.Contains(t, "@llvm.lifetime.") || strings.Contains(t, "@llvm.dbg.") ||
			strings.Contains(t, "@llvm.memcpy.") || strings.Contains(t, "@llvm.memmove.") || strings.Contains(t, "@llvm.memset."):
			continue
		}
		seenAddr := false
		for _, r := range refs {
			if root[r] == "" {
				continue
			}
			if r == addr && !seenAddr {
				seenAddr = true
				continue
			}
			escaped[root[r]] = true
		}
	}
	private := map[string]bool{}
	for p, r := range root {
		if !escaped[r] {
			private[p] = true
		}
	}
	return private
}

// lastRef is the last local name in an operand ("i32* %p" -> "%p").
func lastRef(op string) string {
	refs := localRef.FindAllString(op, -1)
	if len(refs) == 0 {
		return ""
	}
	return refs[len(refs)-1]
}
