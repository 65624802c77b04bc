package cfront

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// Single-copy atomicity of mixed-size accesses.
//
// An access cut into parts (mixed.go) is one instruction instance whose
// events herd's sm relates. A model that uses sm (AArch64's sca-class)
// makes an aligned access behave as a whole towards other threads. The
// other models (SC, x86-TSO, Power, RISC-V, RC11, ... as Musket has
// them) say nothing about mixed sizes: under them each part is an access
// of its own, so they allow every execution the hardware allows and
// more, those in which an access is torn. A verdict that no assertion
// fails is then still sound; a failure is reported only when its
// execution tears no access, else the check says it has no verdict.

// modelUses tells whether the model names relation name anywhere.
func modelUses(m *cat.Model, name string) bool {
	if m == nil {
		return false
	}
	found := false
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		if found || !v.IsValid() {
			return
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				if id, ok := v.Interface().(*cat.Ident); ok && id.Name == name {
					found = true
					return
				}
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	for _, st := range m.Syntax() {
		walk(reflect.ValueOf(st))
	}
	return found
}

// hasParts tells whether some access of t is cut into parts.
func hasParts(t *spec.Test) bool {
	for _, th := range t.Threads {
		for _, in := range th.Code {
			if prog.IsPart(in) {
				return true
			}
		}
	}
	return false
}

// tornAccess finds, in an execution of t, a read of several parts that
// is torn: it takes one part from a write instance A and another from an
// instance B that also wrote the first part's location, later in
// coherence than what the read took there (the initial state counts as
// one instance that writes everything first). It returns the read's
// position.
func tornAccess(t *spec.Test, x *result.Execution) (prog.Pos, bool) {
	ts := tornReads(t, x, true)
	if len(ts) == 0 {
		return prog.Pos{}, false
	}
	return ts[0].pos, true
}

// tornRead is a read of several parts that is torn (tornAccess): its
// position, and whether the read or the write instance B it takes a part
// from is plain (non-atomic).
type tornRead struct {
	pos   prog.Pos
	plain bool
}

// tornRaces tells whether the execution x of t tears some read and
// every read it tears races with the write it tears it by. Under a
// C-level model with data races (RC11's hb; eco irreflexive), a read R
// that takes a part from instance B, where B also wrote the location of
// another of R's parts later in coherence than what R took there, cannot
// have B happen before R (R would read a write that B's hb-earlier part
// overwrote); nor R before B, B being rf-before R. So R and B race, a
// data race when either is plain. B is rf-before R and neither depends
// on R's values; the minimal torn read (in po and rf) has a prefix that
// tears nothing: the race is in an execution that tears no access, and a
// data race is a sound verdict whatever the torn read went on to do.
func tornRaces(t *spec.Test, x *result.Execution) bool {
	ts := tornReads(t, x, false)
	if len(ts) == 0 {
		return false
	}
	for _, tr := range ts {
		if !tr.plain {
			return false
		}
	}
	return true
}

// hbCoherent tells whether model is one of the C-level models whose
// coherence is "hb; eco? irreflexive" and whose data races are plain
// accesses unordered by hb (RC11, IMM, C11), which tornRaces's argument
// needs.
func hbCoherent(model string) bool {
	switch strings.TrimSuffix(strings.ToLower(filepath.Base(model)), ".cat") {
	case "rc11", "imm", "c11", "c11_partialsc", "c11_simp", "c11_orig":
		return true
	}
	return false
}

// instrPlain tells whether the access of in (read or write part) is
// plain: not tagged atomic.
func instrPlain(in prog.Instr, read bool) bool {
	var tags []string
	switch in := in.(type) {
	case prog.Load:
		tags = in.Tags
	case prog.Store:
		tags = in.Tags
	case prog.RMW:
		tags = in.WTags
		if read {
			tags = in.RTags
		}
	default:
		return false
	}
	return !slices.Contains(tags, tagA)
}

// tornReads lists the torn reads of x (the first only when first).
func tornReads(t *spec.Test, x *result.Execution, first bool) []tornRead {
	if x == nil {
		return nil
	}
	var out []tornRead
	type inst struct{ thread, head int }
	head := func(th, pc int) inst {
		if th < 0 || th >= len(t.Threads) {
			return inst{-1, -1}
		}
		code := t.Threads[th].Code
		for pc > 0 && pc < len(code) && prog.IsPart(code[pc]) {
			pc--
		}
		return inst{th, pc}
	}
	byID := map[int]*result.Event{}
	for i := range x.Events {
		byID[x.Events[i].ID] = &x.Events[i]
	}
	loc := func(e *result.Event) string {
		i, j := strings.IndexByte(e.Label, '['), strings.IndexByte(e.Label, ']')
		if i < 0 || j < i {
			return ""
		}
		return e.Label[i+1 : j]
	}
	kind := func(e *result.Event) byte { // 'R', 'W', 'F', ...: "v: R.NA[u]=1 @f.c:18"
		s := e.Label
		if i := strings.Index(s, ": "); i >= 0 {
			s = s[i+2:]
		}
		if s == "" || !strings.Contains(s, "[") {
			return 0
		}
		return s[0]
	}
	isWrite := func(e *result.Event) bool { return kind(e) == 'W' }
	src := map[int]int{} // read -> write
	for _, p := range x.Rf {
		src[p[1]] = p[0]
	}
	co := map[int][]int{}
	for _, p := range x.Co {
		co[p[0]] = append(co[p[0]], p[1])
	}
	coBefore := func(a, b int) bool { // a ->co+ b
		seen := map[int]bool{}
		stack := []int{a}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, m := range co[n] {
				if m == b {
					return true
				}
				if !seen[m] {
					seen[m] = true
					stack = append(stack, m)
				}
			}
		}
		return false
	}
	// The writes of each instance, by location.
	writes := map[inst]map[string]int{}
	for i := range x.Events {
		e := &x.Events[i]
		if !isWrite(e) {
			continue
		}
		k := head(e.Thread, e.PC)
		if writes[k] == nil {
			writes[k] = map[string]int{}
		}
		writes[k][loc(e)] = e.ID
	}
	// The reads of each multi-part instance.
	reads := map[inst][]*result.Event{}
	for i := range x.Events {
		e := &x.Events[i]
		if e.Thread < 0 || kind(e) != 'R' {
			continue
		}
		k := head(e.Thread, e.PC)
		reads[k] = append(reads[k], e)
	}
	srcOf := func(r *result.Event) (inst, int, bool) {
		w, ok := src[r.ID]
		if !ok {
			return inst{-1, -1}, -1, true // the initial value
		}
		we := byID[w]
		if we == nil {
			return inst{}, 0, false
		}
		return head(we.Thread, we.PC), w, true
	}
	// torn is the report of a torn read of thread th at position posPC,
	// whose part at readPC reads a part of another write than bw: plain
	// when the read or the write bw is a plain access.
	torn := func(th, posPC, readPC, bw int) tornRead {
		code := t.Threads[th]
		tr := tornRead{}
		if posPC >= 0 && posPC < len(code.Pos) {
			tr.pos = code.Pos[posPC]
		}
		if readPC >= 0 && readPC < len(code.Code) {
			tr.plain = instrPlain(code.Code[readPC], true)
		}
		if we := byID[bw]; we != nil && we.Thread >= 0 && we.Thread < len(t.Threads) {
			if bc := t.Threads[we.Thread].Code; we.PC >= 0 && we.PC < len(bc) {
				tr.plain = tr.plain || instrPlain(bc[we.PC], false)
			}
		}
		return tr
	}
	// A write of several parts seen torn: a thread reads one part from
	// it (r), and later in program order reads another of its parts'
	// locations (r2) from a write before it in coherence (or the initial
	// value). Were the write one access, the later read would see it
	// whole: under SC and TSO this never happens, and under the weaker
	// models it may be a reordering of the two reads, which is no
	// tearing; Musket cannot tell them apart without sm, so it gives no
	// verdict there too (a lost answer, never a wrong one).
	byThread := map[int][]*result.Event{}
	for i := range x.Events {
		e := &x.Events[i]
		if e.Thread >= 0 && kind(e) == 'R' {
			byThread[e.Thread] = append(byThread[e.Thread], e)
		}
	}
	for th, rs := range byThread {
		for _, r := range rs {
			wk, w, ok := srcOf(r)
			if !ok || w < 0 || len(writes[wk]) < 2 {
				continue
			}
			for _, r2 := range rs {
				if r2.PC <= r.PC || loc(r2) == loc(r) {
					continue
				}
				bw, has := writes[wk][loc(r2)]
				if !has {
					continue
				}
				k2, w2, ok := srcOf(r2)
				if !ok || k2 == wk || !(w2 < 0 || coBefore(w2, bw)) {
					continue
				}
				out = append(out, torn(th, r2.PC, r2.PC, bw))
				if first {
					return out
				}
			}
		}
	}
	for k, rs := range reads {
		if len(rs) < 2 {
			continue
		}
		for _, ri := range rs {
			a, wa, ok := srcOf(ri)
			if !ok {
				continue
			}
			for _, rj := range rs {
				b, _, ok := srcOf(rj)
				if !ok || a == b {
					continue
				}
				bw, has := writes[b][loc(ri)]
				if !has {
					continue
				}
				if wa < 0 || coBefore(wa, bw) {
					out = append(out, torn(k.thread, k.head, rj.PC, bw))
					if first {
						return out
					}
				}
			}
		}
	}
	return out
}

// tearingError says why a failure found under a model without sm is no
// verdict.
func tearingError(model string, pos prog.Pos) error {
	return fmt.Errorf("%s:%d: no verdict: the failing execution found reads this mixed-size access torn (its parts from different writes, or a part of a wider write and, later, the old value of another of its parts), and model %s says nothing about mixed-size accesses (no single-copy atomicity: only AArch64's model relates the parts of an access, by sm); the hardware never tears an aligned access, and a failing execution that tears nothing may exist: this check asks for one execution and does not look for another", pos.File, pos.Line, model)
}

// splitRMWError refuses a read-modify-write over parts (mixed.go:
// splitRMWCode) unless the program is compiled for AArch64 and checked
// under a model that relates the parts of an access (sm): the others say
// nothing about mixed sizes, so whether the parts of one atomic access
// are updated together is not defined by them, and Musket does not
// guess it.
func (p *Program) splitRMWError(opts CheckOptions) error {
	if len(p.splitRMWs) == 0 || opts.Target == compile.AArch64 && modelUses(opts.Model, "sm") {
		return nil
	}
	s := p.splitRMWs[0]
	what := "an atomic read-modify-write"
	if s.cas {
		what = "a compare-and-swap"
	}
	under := "model " + opts.ModelName
	if opts.Target != "" && opts.Target != compile.AArch64 {
		under = fmt.Sprintf("-target %s (model %s)", opts.Target, opts.ModelName)
	}
	return fmt.Errorf("%s: unsupported mixed-size access: %s of %d bytes over %d parts that other accesses touch separately: %s says nothing about mixed sizes, so it does not say whether the parts are updated as one atomic access (only AArch64's model does, by single-copy atomicity, sm: check it with -target aarch64)",
		s.pos, what, s.size, s.parts, under)
}

// plainPartsApart is q with every access cut into parts made of
// independent accesses (Part cleared), when every such access is a plain
// load or store (false: some part is atomic or of a read-modify-write).
// The graph engine runs the result under a C-level model whose data
// races it reports (hbCoherent, -races), which is what the SMT engine
// makes of parts under a model without single-copy atomicity (sm): each
// part an access of its own. A verdict stays sound. An execution that
// tears a read (tornAccess) has a data race in an execution that tears
// nothing (tornRaces: the read is plain), and two plain stores of parts
// whose bytes end in different coherence orders are unordered by hb (a
// C-level model's coherence follows hb per location): a data race too.
// So a race found is a race of the program, and when the exploration
// ends with none (checkGraph explores until both a failure and a race
// are met), no execution tore anything: a failure or a bound reached is
// one of the program's, and PASS is PASS.
func plainPartsApart(q *spec.Test) (*spec.Test, bool) {
	return partsApart(q, true)
}

// partsApart is q with the loads and stores cut into parts made
// independent accesses (false: a part of a read-modify-write or a
// store-conditional, or, when plainOnly, an atomic part). The
// executions of the result are those the SMT engine gives the parts
// under a model without single-copy atomicity (sm): each part an event
// of its own, po-ordered as it is emitted, the whole value assembled
// after the last part as before (the same dependencies). Under such a
// model every verdict of PASS is sound (the program's executions are
// among them); a failure, a race or a bound reached may come from an
// execution that tears an access, which only plainPartsApart's
// argument (RC11 and IMM with their races) or a check of the witness
// (tornAccess) rules out.
func partsApart(q *spec.Test, plainOnly bool) (*spec.Test, bool) {
	out := *q
	out.Threads = make([]*prog.Thread, len(q.Threads))
	for ti, th := range q.Threads {
		code := slices.Clone(th.Code)
		for pc, in := range code {
			if !prog.IsPart(in) {
				continue
			}
			h := pc - 1
			for h > 0 && prog.IsPart(code[h]) {
				h--
			}
			for _, k := range []int{h, pc} {
				switch code[k].(type) {
				case prog.Load, prog.Store:
					if plainOnly && !instrPlain(code[k], true) {
						return nil, false
					}
				default:
					return nil, false
				}
			}
			switch x := in.(type) {
			case prog.Load:
				x.Part = false
				code[pc] = x
			case prog.Store:
				x.Part = false
				code[pc] = x
			}
		}
		nt := *th
		nt.Code = code
		out.Threads[ti] = &nt
	}
	return &out, true
}
