package cfront

import (
	"bytes"
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/lazyre"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
)

// The race-preserving compilation. LLVM's optimisation pipeline may
// assume that the program has no data race, and on a racy program it
// removes the racing accesses: GlobalOpt turns an internal (static)
// global that one function uses into a local of that function, or
// deletes one that is never read, and InstCombine and the other passes
// delete a load whose value is not used. Musket then answers PASS where
// the C program has a data race (undefined behaviour, the verdict RACE).
//
// CompileIR therefore compiles in two steps. Clang first emits the IR
// of the front end with LLVM's passes turned off (-Xclang
// -disable-llvm-passes; the IR is that of -O1 before its pipeline).
// raceGuard rewrites it:
//   - every internal global variable (a static one, file scope or in a
//     function) gets external linkage under the same name, so that no
//     interprocedural pass may localise, shrink or delete it; constants
//     keep their linkage (they are never written, so never race), and
//     so does a variable that the IR only loads from (no store, its
//     address taken nowhere: it keeps its initial value and never
//     races, and the optimiser may fold it into a constant, as a loop
//     bound, say);
//   - every plain (not atomic, not volatile) load through a pointer that
//     is not one of the function's own allocas whose address does not
//     escape (localAllocas) gets a use that the
//     optimiser must keep: a call of a declared function that touches
//     only memory the program cannot reach (inaccessiblememonly), so it
//     blocks no optimisation of the program's memory but keeps the load;
//   - a store of the value just loaded from the same address (x = x),
//     which the optimiser deletes as a no-op, stores the value as
//     returned by an opaque call (sameFunc) instead; so does a store,
//     to an address that is not such a local, of a value computed from
//     one loaded there (t = x; x = t + 0, or x * 1, x | 0, ...: the
//     optimiser folds them to x = x and deletes the store).
//
// When the program is not checked for data races (the models without a
// race flag: sc, tso, the hardware targets; or -races=false), a racy
// program's verdict is the model's on its accesses as written, as
// SV-COMP's concurrency tasks and the C11 mappings read it; the
// optimiser's licence to assume no race (forwarding a thread's store to
// its later load, merging two loads, hoisting a load out of a loop)
// would remove executions the model allows: a PASS where the model on
// the source says FAIL. raceGuard then makes every such plain load and
// store volatile instead (asWritten; ClangOptions.RaceFree is false),
// which the lowering reads as the plain access it is. With races
// checked, a race is the verdict whatever the optimiser did, and the
// faster, optimised form is kept.
//
// The rewritten IR then goes through the -O1 pipeline (the same passes
// as one -O1 compilation: on every C file of the repository the IR
// differs only in the numbers of value names when nothing is rewritten)
// and raceUnguard deletes the keeping calls again (and puts each
// sameFunc call's argument in place of its value). Loads may still be
// merged with others of the same location or take the value of a store
// of the thread to the same location: each race of such a load is also
// a race of the access that stands for it.

// keepFunc is the function that keeps a load.
const keepFunc = "@__musket_keep_load"

// sameFunc (with a number per type) returns its argument, as far as
// Musket is concerned; the optimiser does not know it, so a store of a
// value loaded from the same address (x = x) is not a no-op to it.
const sameFunc = "@__musket_same_value"

// raceGuardVersion names the rewriting in the compile cache's key (6:
// the one-step pipe's IR has no attribute group left over from the
// keeping calls' declarations, and numbers the others accordingly).
const raceGuardVersion = "musket-race-guard=6"

var (
	internalGlobal = lazyre.New(`^(@[-\w.$"]+ = )internal ((?:thread_local(?:\([a-z]+\))? )?(?:(?:local_)?unnamed_addr )?(?:addrspace\(\d+\) )?(?:externally_initialized )?global )`)
	allocaDef      = lazyre.New(`^\s+(%[-\w.$]+) = alloca `)
	loadDef        = lazyre.New(`^(\s+)(%[-\w.$]+) = load ([^\n]*)$`)
)

// keepLocalDerived keeps the local addresses in raceGuard's sets (see
// addDerived): the tests compare the rewriting with and without them.
var keepLocalDerived bool

// raceGuard rewrites the front end's IR as the comment above says.
func raceGuard(ll []byte, asWritten bool) []byte {
	out, _ := raceGuardCtx(context.Background(), ll, asWritten)
	return out
}

// raceGuardCtx is raceGuard, stopped with ctx's error when ctx ends.
func raceGuardCtx(ctx context.Context, ll []byte, asWritten bool) ([]byte, error) {
	lines := strings.Split(string(ll), "\n")
	out := make([]string, 0, len(lines)+len(lines)/4)
	readOnly := readOnlyGlobals(lines)
	allocas := map[string]bool{}
	loadedFrom := map[string]string{}       // a load's value -> its address
	derived := map[string]map[string]bool{} // a value -> the addresses of the loads it is computed from
	held := map[string]map[string]bool{}    // a local -> the addresses of the loads its values are computed from
	sameTypes := map[string]int{}           // the types of sameFunc's declarations
	keeps, sames := 0, 0
	var private map[string]bool // asWritten: the function's private addresses (aswritten.go)
	for i, ln := range lines {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if strings.HasPrefix(ln, "define ") {
			ln = keepByName(ln)
			end := i + 1
			for end < len(lines) && lines[end] != "}" {
				end++
			}
			allocas = localAllocas(ctx, lines[i+1:end])
			if asWritten {
				private = privateAddrs(ctx, lines[i+1:end])
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			loadedFrom = map[string]string{}
			derived = map[string]map[string]bool{}
			held = map[string]map[string]bool{}
		}
		if m := matchDef(valueDef, ln, " = "); m != nil && pureOp.MatchString(m[2]) {
			// A value computed from loaded ones (x + 0, x * 1, x | 0,
			// ...): the addresses it was loaded from.
			for _, r := range localRef.FindAllString(m[2], -1) {
				if a, ok := loadedFrom[r]; ok {
					addDerived(derived, m[1], a, allocas)
				}
				for a := range derived[r] {
					addDerived(derived, m[1], a, allocas)
				}
			}
		}
		if t := strings.TrimLeft(ln, " \t"); strings.HasPrefix(t, "store ") && len(t) < len(ln) {
			// A store of the value just loaded from its own address:
			// the optimiser deletes it as a no-op unless the value is
			// hidden behind sameFunc.
			if f := topFields(t[len("store "):]); len(f) >= 2 {
				val, addr := strings.TrimSpace(f[0]), strings.TrimSpace(f[1])
				if j := strings.LastIndex(val, " "); j > 0 && localAddr(addr, allocas) {
					// A local holding a value loaded elsewhere (int t =
					// x): what is loaded from it is computed from x.
					v := val[j+1:]
					if a, ok := loadedFrom[v]; ok {
						addDerived(held, addr, a, allocas)
					}
					for a := range derived[v] {
						addDerived(held, addr, a, allocas)
					}
				} else if j > 0 && (loadedFrom[val[j+1:]] == addr || derived[val[j+1:]][addr]) {
					ty := val[:j]
					k, ok := sameTypes[ty]
					if !ok {
						k = len(sameTypes)
						sameTypes[ty] = k
					}
					name := fmt.Sprintf("%%musket.same.%d", sames)
					sames++
					indent := ln[:len(ln)-len(t)]
					out = append(out, fmt.Sprintf("%s%s = call %s (...) %s.%d(%s)", indent, name, ty, sameFunc, k, val))
					ln = indent + "store " + ty + " " + name + "," + strings.Join(f[1:], ",")
				}
			}
		}
		if asWritten {
			ln = volatileStore(ln, private)
		}
		if strings.HasPrefix(ln, "@") && !readOnly[globalName(ln)] {
			ln = internalGlobal.ReplaceAllString(ln, "${1}dso_local ${2}")
			out = append(out, ln)
			continue
		}
		out = append(out, ln)
		m := matchDef(loadDef, ln, " = load ")
		if m == nil {
			continue
		}
		rest := m[3]
		if strings.HasPrefix(rest, "atomic ") || strings.HasPrefix(rest, "volatile ") {
			continue
		}
		f := topFields(rest)
		if len(f) < 2 {
			continue
		}
		ty, ptr := strings.TrimSpace(f[0]), strings.TrimSpace(f[1])
		loadedFrom[m[2]] = ptr
		for a := range held[ptr] {
			addDerived(derived, m[2], a, allocas)
		}
		if asWritten && !private[lastRef(ptr)] {
			// Kept as written: volatile, neither merged, forwarded,
			// hoisted nor deleted (the lowering reads volatile
			// accesses as plain ones).
			out[len(out)-1] = strings.Replace(ln, " = load ", " = load volatile ", 1)
			continue
		}
		if i := strings.LastIndex(ptr, "* "); i >= 0 && allocas[ptr[i+2:]] {
			continue // the function's own local
		}
		out = append(out, fmt.Sprintf("%scall void (...) %s(%s %s)", m[1], keepFunc, ty, m[2]))
		keeps++
	}
	// (In the order of their numbers: the same text at each run.)
	tys := make([]string, len(sameTypes))
	for ty, k := range sameTypes {
		tys[k] = ty
	}
	for k, ty := range tys {
		out = append(out, fmt.Sprintf("declare %s %s.%d(...) #%s", ty, sameFunc, k, keepAttrs))
	}
	if keeps > 0 || sames > 0 {
		out = append(out, "declare void "+keepFunc+"(...) #"+keepAttrs)
		out = append(out, "attributes #"+keepAttrs+" = { inaccessiblememonly nofree nosync nounwind willreturn }")
	}
	return []byte(strings.Join(out, "\n")), nil
}

var localRef = lazyre.New(`%[-\w.$]+`)

// keepByName keeps the calls of a function that the program defines but
// the lowering treats by its name (knownCalls: reach_error,
// __VERIFIER_assert, ... — SV-COMP's programs define some of them, often
// with an empty body) or inlines as an atomic section (a
// __VERIFIER_atomic_ function): -O1 would inline such a body, or delete
// a call of an empty one, and the failure or the section would be lost.
// The definition def gets noinline, and optnone for a known name (its body
// is never used; without optnone the optimiser infers that an empty
// body touches nothing and deletes the call).
func keepByName(def string) string {
	at := strings.Index(def, " @")
	if at < 0 {
		return def
	}
	open := strings.IndexByte(def[at:], '(')
	if open < 0 {
		return def
	}
	name := strings.Trim(def[at+2:at+open], `"`)
	var attrs string
	switch {
	case knownCalls[name] != nil || strings.HasPrefix(name, nondetPrefix):
		attrs = " noinline optnone"
	case strings.HasPrefix(name, atomicFuncPrefix):
		attrs = " noinline"
	default:
		return def
	}
	depth := 0
	for k := at + open; k < len(def); k++ {
		switch def[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return def[:k+1] + attrs + def[k+1:]
			}
		}
	}
	return def
}

// matchDef is re.FindStringSubmatch(ln) for a regexp (valueDef,
// loadDef, allocaDef) every match of which holds lit: a line without
// lit (most lines of the IR) is not given to the regexp.
func matchDef(re *lazyre.Regexp, ln, lit string) []string {
	if !strings.Contains(ln, lit) {
		return nil
	}
	return re.FindStringSubmatch(ln)
}

// pureOp matches the instructions whose value is computed from their
// operands alone (arithmetic, logic, conversions, select, phi): a store
// of such a value may fold to x = x. (Not a cmpxchg's or a call's.)
var pureOp = lazyre.New(`^(?:add|sub|mul|[su]div|[su]rem|and|or|xor|shl|[la]shr|trunc|zext|sext|bitcast|select|freeze|phi) `)

// valueDef matches an instruction that defines a value.
var valueDef = lazyre.New(`^\s+(%[-\w.$]+) = (.*)$`)

// addDerived adds the address addr to the set m[v].
//
// A local address (localAddr) is left out: the sets are only asked about
// the address of a store that is not local (a store to a local goes to
// held instead), and they only grow by unions, so whether a local is in
// one never changes an answer. Without this a chain of locals (each
// atomic_load_explicit at -O0 goes through a temporary of its own; s +=
// atomic_load(&x) ... 20,000 times) made held[s] hold every temporary:
// quadratic, 10 GB for a 1.4 MB C file (keepLocalDerived, for the tests,
// keeps them).
func addDerived(m map[string]map[string]bool, v, addr string, allocas map[string]bool) {
	if !keepLocalDerived && localAddr(addr, allocas) {
		return
	}
	if m[v] == nil {
		m[v] = map[string]bool{}
	}
	m[v][addr] = true
}

// localAddr tells whether a store's address operand ("T* %p") is one of
// the function's own allocas whose address does not escape.
func localAddr(addr string, allocas map[string]bool) bool {
	i := strings.LastIndex(addr, "* ")
	return i >= 0 && allocas[addr[i+2:]]
}

// localAllocas are the allocas of a function's body whose address does
// not escape: it appears only as the address of loads and stores, in
// llvm.dbg.declare, and in bitcasts used only by lifetime markers.
func localAllocas(ctx context.Context, body []string) map[string]bool {
	local := map[string]bool{}
	for k, ln := range body {
		if k%1024 == 0 && ctx.Err() != nil {
			return nil // the caller sees ctx done
		}
		if m := matchDef(allocaDef, ln, " = alloca "); m != nil {
			local[m[1]] = true
		}
	}
	if len(local) == 0 {
		return local
	}
	// The bitcasts of allocas, and whether each is used only by
	// lifetime markers.
	casts := map[string]string{}
	for k, ln := range body {
		if k%1024 == 0 && ctx.Err() != nil {
			return nil // the caller sees ctx done
		}
		t := strings.TrimSpace(ln)
		if i := strings.Index(t, " = bitcast "); i > 0 {
			for _, r := range localRef.FindAllString(t[i:], -1) {
				if local[r] {
					casts[t[:i]] = r
				}
			}
		}
	}
	for k, ln := range body {
		if k%1024 == 0 && ctx.Err() != nil {
			return nil // the caller sees ctx done
		}
		t := strings.TrimSpace(ln)
		def := ""
		if i := strings.Index(t, " = "); i > 0 && strings.HasPrefix(t, "%") {
			def = t[:i]
		}
		if local[def] {
			continue // the alloca itself
		}
		if _, ok := casts[def]; ok {
			continue // the cast; its uses decide
		}
		var refs []string
		if strings.IndexByte(t, '%') >= 0 {
			refs = localRef.FindAllString(t, -1)
		}
		for _, r := range refs {
			if a, ok := casts[r]; ok && !strings.Contains(t, "@llvm.lifetime.") {
				delete(local, a)
			}
		}
		if strings.Contains(t, "@llvm.dbg.declare(") {
			continue
		}
		var addr string
		if m := matchDef(loadDef, ln, " = load "); m != nil {
			if f := topFields(m[3]); len(f) >= 2 {
				addr = strings.TrimSpace(f[1])
			}
		} else if strings.HasPrefix(t, "store ") {
			if f := topFields(strings.TrimPrefix(t, "store ")); len(f) >= 2 {
				addr = strings.TrimSpace(f[1])
			}
		}
		for _, r := range refs {
			if local[r] && !strings.HasSuffix(addr, "* "+r) {
				delete(local, r)
			}
		}
	}
	return local
}

// globalName is the name a line that defines a global defines.
func globalName(ln string) string {
	if i := strings.Index(ln, " = "); i > 0 {
		return ln[:i]
	}
	return ""
}

var globalRef = lazyre.New(`@[-\w.$]+`)

// readOnlyGlobals are the internal global variables of the IR lines that
// appear nowhere but as the address of loads (not in their definition's
// line).
func readOnlyGlobals(lines []string) map[string]bool {
	cand := map[string]bool{}
	for _, ln := range lines {
		if strings.HasPrefix(ln, "@") && internalGlobal.MatchString(ln) {
			cand[globalName(ln)] = true
		}
	}
	if len(cand) == 0 {
		return cand
	}
	for _, ln := range lines {
		if strings.IndexByte(ln, '@') < 0 {
			continue // no global named
		}
		own := ""
		if strings.HasPrefix(ln, "@") {
			own = globalName(ln)
		}
		var loadPtr string
		if m := matchDef(loadDef, ln, " = load "); m != nil {
			if f := topFields(m[3]); len(f) >= 2 {
				loadPtr = strings.TrimSpace(f[1])
				if i := strings.LastIndex(loadPtr, "* "); i >= 0 {
					loadPtr = loadPtr[i+2:]
				}
			}
		}
		for _, loc := range globalRef.FindAllStringIndex(ln, -1) {
			name := ln[loc[0]:loc[1]]
			if !cand[name] || name == own && loc[0] == 0 {
				continue
			}
			// A use other than the address of a load; loadPtr is the
			// load's address operand, found once per line.
			if name != loadPtr || !strings.Contains(ln, "* "+name+",") || strings.Count(ln, name) != 1 {
				delete(cand, name)
			}
		}
	}
	return cand
}

// keepAttrs is the attribute group of keepFunc's declaration (a number
// clang does not use).
const keepAttrs = "4000000"

// topFields splits s at the commas outside brackets.
func topFields(s string) []string {
	var f []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
		case ',':
			if depth == 0 {
				f = append(f, s[start:i])
				start = i + 1
			}
		case '"':
			if j := strings.IndexByte(s[i+1:], '"'); j >= 0 {
				i += j + 1
			}
		}
	}
	return append(f, s[start:])
}

// raceUnguard deletes the keeping calls (and their declaration) from the
// optimised IR.
func raceUnguard(ll []byte) []byte {
	ll = unguardSame(ll)
	key := []byte(keepFunc + "(")
	if !bytes.Contains(ll, key) {
		return ll
	}
	var out bytes.Buffer
	out.Grow(len(ll))
	for len(ll) > 0 {
		i := bytes.IndexByte(ll, '\n')
		var ln []byte
		if i < 0 {
			ln, ll = ll, nil
		} else {
			ln, ll = ll[:i+1], ll[i+1:]
		}
		if bytes.Contains(ln, key) {
			t := bytes.TrimLeft(ln, " \t")
			if bytes.HasPrefix(t, []byte("declare ")) || bytes.HasPrefix(t, []byte("call ")) || bytes.HasPrefix(t, []byte("tail call ")) || bytes.HasPrefix(t, []byte("notail call ")) {
				continue
			}
		}
		out.Write(ln)
	}
	return out.Bytes()
}

var sameCall = lazyre.New(`(?m)^\s+(%[-\w.$]+) = (?:tail |notail )?call ([^\n]*?) \(\.\.\.\) ` + regexp.QuoteMeta(sameFunc) + `\.\d+\(([^\n]*)\)[^\n]*\n`)

// unguardSame deletes the calls of sameFunc and puts their argument in
// place of their value.
func unguardSame(ll []byte) []byte {
	if !bytes.Contains(ll, []byte(sameFunc)) {
		return ll
	}
	subst := map[string]string{}
	ll = deleteSameCalls(ll, func(m []byte) {
		g := sameCall.FindSubmatch(m)
		arg := strings.TrimSpace(strings.TrimPrefix(string(g[3]), string(g[2])+" "))
		arg = strings.TrimPrefix(arg, "noundef ")
		subst[string(g[1])] = arg
	})
	// Chains (a value of one call as another's argument) resolve here.
	for k, v := range subst {
		for {
			w, ok := subst[v]
			if !ok || w == v {
				break
			}
			v = w
		}
		subst[k] = v
	}
	var out []string
	for _, ln := range strings.Split(string(ll), "\n") {
		t := strings.TrimLeft(ln, " \t")
		if strings.HasPrefix(t, "declare ") && strings.Contains(t, sameFunc) {
			continue
		}
		if len(subst) > 0 && strings.Contains(ln, "%") {
			ln = replaceLocalRefs(ln, subst)
		}
		out = append(out, ln)
	}
	return []byte(strings.Join(out, "\n"))
}

// deleteSameCalls deletes from ll what sameCall.ReplaceAllFunc with an
// empty replacement deletes, calling found on each match, without
// running the expression over the whole text: only a line that names
// sameFunc can match. A match begins at the start of a line and ends
// with its newline; since \s matches newlines, it also takes the lines
// of blanks just before the call's line (back to the end of the last
// match), as the expression does.
func deleteSameCalls(ll []byte, found func(m []byte)) []byte {
	key := []byte(sameFunc)
	var out []byte
	done := 0 // ll[:done] is in out, or deleted
	for start := 0; start < len(ll); {
		end := bytes.IndexByte(ll[start:], '\n')
		if end < 0 {
			break
		}
		end += start + 1
		line := ll[start:end]
		if bytes.Contains(line, key) {
			if loc := sameCall.FindIndex(line); loc != nil && loc[0] == 0 && loc[1] == len(line) {
				// The blank lines before it, back to done.
				from := start
				for from > done {
					prev := bytes.LastIndexByte(ll[done:from-1], '\n') + done + 1
					if !onlySpace(ll[prev : from-1]) {
						break
					}
					from = prev
				}
				if out == nil {
					out = make([]byte, 0, len(ll))
				}
				out = append(out, ll[done:from]...)
				found(ll[from:end])
				done = end
			}
		}
		start = end
	}
	if out == nil {
		return ll
	}
	return append(out, ll[done:]...)
}

// onlySpace says whether b is made of the blanks \s matches but the
// newline.
func onlySpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\f' {
			return false
		}
	}
	return true
}

// replaceLocalRefs is localRef.ReplaceAllStringFunc(ln, ...) with the
// values of subst: each %name (the longest run of letters, digits and
// -_.$ after a %) that subst has is replaced.
func replaceLocalRefs(ln string, subst map[string]string) string {
	var b strings.Builder
	done := 0
	for i := 0; i < len(ln); i++ {
		if ln[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(ln) && isLocalNameByte(ln[j]) {
			j++
		}
		if j == i+1 {
			continue
		}
		if v, ok := subst[ln[i:j]]; ok {
			b.WriteString(ln[done:i])
			b.WriteString(v)
			done = j
		}
		i = j - 1
	}
	if done == 0 {
		return ln
	}
	b.WriteString(ln[done:])
	return b.String()
}

// isLocalNameByte says whether c may be in a local name as localRef
// reads it: [-\w.$].
func isLocalNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '$'
}

// optimizeRaceGuarded runs the -O1 pipeline on the front end's IR fe of
// path, guarded as raceGuard says (in the fast front's session s when
// there is one).
func optimizeRaceGuarded(ctx context.Context, s *fastSession, path string, fe []byte, co ClangOptions) ([]byte, error) {
	f, err := os.CreateTemp("", "musket-fe-*.ll")
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	defer os.Remove(f.Name())
	guarded, err := raceGuardCtx(ctx, fe, !co.RaceFree)
	if err != nil {
		f.Close()
		return nil, err
	}
	_, werr := f.Write(guarded)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("%s: %v", path, werr)
	}
	out, errb, err := runClangIn(ctx, s, optimizeArgs(f.Name(), co))
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: clang could not optimise its own IR (a bug of Musket's race-preserving compilation): %v: %s", path, err, bytes.TrimSpace(errb))
	}
	return sameModuleID(raceUnguard(out), fe), nil
}

// optimizeArgs are clang's arguments for the -O1 pipeline on the IR in
// the file ll: the flags the user gave too (those of the front end are
// not used on IR; -mllvm options of the optimiser are).
func optimizeArgs(ll string, co ClangOptions) []string {
	args := []string{"-S", "-emit-llvm", "-O1", "-fno-discard-value-names", "-Wno-everything"}
	args = append(args, co.Extra...)
	return append(args, "-x", "ir", "-o", "-", ll)
}

// sameModuleID gives the optimised IR out the module identifier of the
// front end's IR fe (out's names the temporary file), so that the IR of
// a program is the same at each compilation.
func sameModuleID(out, fe []byte) []byte {
	const id = "; ModuleID = "
	if !bytes.HasPrefix(out, []byte(id)) || !bytes.HasPrefix(fe, []byte(id)) {
		return out
	}
	i, j := bytes.IndexByte(out, '\n'), bytes.IndexByte(fe, '\n')
	if i < 0 || j < 0 {
		return out
	}
	return append(append([]byte{}, fe[:j]...), out[i:]...)
}

// volatileStore makes a plain store to an address that is not private
// (privateAddrs) volatile (raceGuard's asWritten):
// the optimiser then neither deletes, merges nor sinks it.
func volatileStore(ln string, private map[string]bool) string {
	t := strings.TrimLeft(ln, " \t")
	if len(t) == len(ln) || !strings.HasPrefix(t, "store ") || strings.HasPrefix(t, "store atomic ") || strings.HasPrefix(t, "store volatile ") {
		return ln
	}
	f := topFields(t[len("store "):])
	if len(f) < 2 || private[lastRef(f[1])] {
		return ln
	}
	return ln[:len(ln)-len(t)] + "store volatile " + t[len("store "):]
}

// The race pipe in one step. musket-cc (tools/musket-cc) does what
// CompileIR's two steps do in one compilation: given
// --musket-race-pipe=MODE before clang's arguments of the front end's
// IR, it rewrites the module in memory as raceGuard rewrites its text
// (the same rules, instruction by instruction in the order of the
// text), runs the -O1 pipeline on it with the same code generation
// options, deletes the keeping calls as raceUnguard does and prints the
// IR. The front end's IR is then neither printed, written to a file,
// rewritten by Go, nor parsed and compiled again by a second request.
// The names raceGuard's keepByName treats come with the request, so
// that knownCalls stays the only list. A musket-cc built before it
// knows no --musket-race-pipe (the request fails, and no later one is
// sent); any failure (an error in the program too) runs the two steps,
// so what the caller sees is what they give.
// TestRacePipeOneStep compares the two on every C file of the
// repository.

// racePipeOneOff turns the one-step pipe off (tests compare both ways).
var racePipeOneOff bool

// racePipeOneNone is set when musket-cc does not know the one-step pipe.
var racePipeOneNone atomic.Bool

// racePipeOneRuns counts the compilations the one-step pipe answered
// (for tests).
var racePipeOneRuns atomic.Int64

// racePipeOneFlag is the request's first argument.
const racePipeOneFlag = "--musket-race-pipe="

// racePipeOneArgs are the session request of the one-step pipe for
// clang's arguments args of the front end's IR.
func racePipeOneArgs(args []string, co ClangOptions) []string {
	mode := "as-written"
	if co.RaceFree {
		mode = "race-free"
	}
	names := make([]string, 0, len(knownCalls))
	for n := range knownCalls {
		names = append(names, n)
	}
	sort.Strings(names)
	pre := []string{racePipeOneFlag + mode, "--musket-keep=" + strings.Join(names, ","),
		"--musket-keep-prefix=" + nondetPrefix, "--musket-noinline-prefix=" + atomicFuncPrefix}
	return append(pre, args...)
}

// compileRacePipeOne compiles in one step in the session s (see above);
// false when it did not.
func compileRacePipeOne(ctx context.Context, s *fastSession, args []string, co ClangOptions) ([]byte, bool) {
	if s == nil || racePipeOneOff || racePipeOneNone.Load() {
		return nil, false
	}
	out, errb, status, ok := s.runStatus(ctx, racePipeOneArgs(args, co))
	if !ok || status != 0 {
		if ok && bytes.Contains(errb, []byte(racePipeOneFlag)) {
			racePipeOneNone.Store(true) // an unknown argument to this musket-cc
		}
		return nil, false
	}
	racePipeOneRuns.Add(1)
	fastRuns.Add(1)
	return out, true
}
