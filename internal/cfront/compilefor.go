package cfront

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// ptsOrder is the order of a C-level access in package compile's terms.
// The Linux kernel's kinds (musket/lkmm.h) map as the kernel compiles
// them: smp_load_acquire an acquire load, smp_store_release a release
// store, READ_ONCE and WRITE_ONCE relaxed ones.
func ptsOrder(tags []string) string {
	for _, t := range tags {
		switch t {
		case "ACQ", "CON", "ACQUIRE":
			return "acq"
		case "REL", "RELEASE":
			return "rel"
		case "SC", "ACQ_REL":
			return "sc"
		}
	}
	return "rx"
}

func orderOf(tags []string) string {
	for _, t := range tags {
		switch t {
		case "RLX", "ACQ", "CON", "REL", "ACQ_REL", "SC":
			return t
		case "ACQUIRE": // the kernel's kinds (lkmm.h)
			return "ACQ"
		case "RELEASE":
			return "REL"
		case "MB":
			return "SC"
		}
	}
	return "RLX"
}

// lkmmFenceFor is the fence a Linux-kernel fence of kind k compiles to
// on target, as the kernel's own headers for the architecture do
// (smp_mb a full fence; smp_rmb and smp_wmb the target's read and write
// fences, none on x86; barrier() none; the smp_mb__* ones a full fence,
// which is at least what they promise); ok is false when k is no
// kernel fence kind.
func lkmmFenceFor(target, k string) (fence []string, ok bool) {
	switch k {
	case "MB", "Before-atomic", "After-atomic", "After-spinlock", "After-unlock-lock":
		return fenceFor(target, "SC"), true
	case "Barrier":
		return nil, true
	case "Rmb", "Wmb":
		switch target {
		case compile.X86:
			return nil, true
		case compile.Power:
			return []string{"LWSYNC"}, true
		case compile.ARMv7:
			return []string{"DMB.ISH"}, true
		case compile.AArch64:
			if k == "Rmb" {
				return []string{"DMB.ISHLD"}, true
			}
			return []string{"DMB.ISHST"}, true
		case compile.RISCV:
			if k == "Rmb" {
				return []string{"Fence.r.r"}, true
			}
			return []string{"Fence.w.w"}, true
		}
		return fenceFor(target, "SC"), true
	}
	return nil, false
}

func isAcq(o string) bool { return o == "ACQ" || o == "CON" || o == "ACQ_REL" || o == "SC" }
func isRel(o string) bool { return o == "REL" || o == "ACQ_REL" || o == "SC" }

// fenceFor is the fence a C11 fence of order o compiles to on target
// (nil: none). The table follows the C/C++11 mappings (Sewell et al.,
// "C/C++11 mappings to processors"; the RISC-V manual's Table A.6).
func fenceFor(target, o string) []string {
	switch target {
	case compile.X86:
		if o == "SC" {
			return []string{"MFENCE"}
		}
	case compile.Power:
		if o == "SC" {
			return []string{"SYNC"}
		}
		return []string{"LWSYNC"}
	case compile.ARMv7:
		return []string{"DMB.ISH"}
	case compile.AArch64:
		if o == "ACQ" || o == "CON" {
			return []string{"DMB.ISHLD"}
		}
		return []string{"DMB.ISH"}
	case compile.RISCV:
		// Table A.6 and clang-14 (llc -mtriple=riscv64): an acq_rel
		// fence is fence.tso, which orders all but a store before a
		// later load; only seq_cst gets fence rw,rw.
		switch o {
		case "ACQ", "CON":
			return []string{"Fence.r.rw"}
		case "REL":
			return []string{"Fence.rw.w"}
		case "ACQ_REL":
			return []string{"Fence.tso"}
		}
		return []string{"Fence.rw.rw"}
	}
	return nil
}

// CompileFor maps the C11 events of t to a hardware target: loads and
// stores by package compile's tables (Table I of Ponce-de-León et al.,
// "BMC with Memory Models as Modules", FMCAD 2018, and the standard
// AArch64 and RISC-V mappings), read-modify-writes and fences by the
// same mappings' rows for them:
//
//	           RMW (order o)                          fence
//	x86        locked instruction (X)                 sc: MFENCE
//	Power      sync/lwsync before if o releases,       sc: SYNC, else LWSYNC
//	           lwsync after if o acquires
//	ARMv7      DMB.ISH before / after                 DMB.ISH
//	AArch64    LDAXR/STLXR: read A if o acquires,      acq: DMB.ISHLD, else DMB.ISH
//	           write L if o releases (both EX: an
//	           exclusive pair, not an LSE atomic)
//	RISC-V     clang-14's: an AMO (amo<op>.aq/.rl/    acq: fence r,rw; rel: fence rw,w;
//	           .aqrl) or an lr/sc pair (rvRMW)          acq_rel: fence.tso; sc: fence rw,rw
func CompileFor(t *spec.Test, target string) (*spec.Test, error) {
	word, ok := compile.ArchWord(target)
	if !ok {
		return nil, fmt.Errorf("unknown target %q (want one of %v)", target, compile.Targets())
	}
	out := *t
	out.Arch = word
	out.Threads = make([]*prog.Thread, len(t.Threads))
	for i, th := range t.Threads {
		c, err := compileThread(th, target)
		if err != nil {
			return nil, err
		}
		out.Threads[i] = c
	}
	return &out, nil
}

func compileThread(th *prog.Thread, target string) (*prog.Thread, error) {
	out := &prog.Thread{ID: th.ID, Name: th.Name, NonAtomic: th.NonAtomic}
	for i, in := range th.Code {
		if prog.IsPart(in) {
			continue // compiled with the access it is a part of
		}
		p := th.Pos[i]
		// The further parts of a mixed-size access (see mixed.go) are
		// compiled with it: one instruction, its fences around them all.
		group := []prog.Instr{in}
		for j := i + 1; j < len(th.Code) && prog.IsPart(th.Code[j]); j++ {
			group = append(group, th.Code[j])
		}
		add := func(in prog.Instr) {
			out.Code = append(out.Code, in)
			out.Pos = append(out.Pos, p)
		}
		fence := func(tags []string) {
			if tags != nil {
				add(prog.Fence{Tags: slices.Clone(tags)})
			}
		}
		mapped := func(kind compile.Kind, order string, access func(tags []string)) error {
			steps, ok := compile.Mapping(target, kind, order)
			if !ok {
				return fmt.Errorf("%s: no %s mapping for a %s with order %s", p, target, kind, order)
			}
			for _, s := range steps {
				if s.Access {
					access(s.Tags)
				} else {
					fence(s.Tags)
				}
			}
			return nil
		}
		var err error
		switch in := in.(type) {
		case prog.Load:
			if target == compile.X86 && isWeakCASCoin(in) {
				// clang compiles a weak compare-and-swap for x86 to
				// LOCK CMPXCHG, as a strong one: it fails only when
				// the value differs (Intel's manual, CMPXCHG), so the
				// coin that lets it fail spuriously is set.
				add(prog.Assign{Dst: in.Dst, Val: prog.Int(1)})
				break
			}
			if slices.Contains(in.Tags, exclusiveTag) {
				// The exclusive loads of a read-modify-write over parts
				// (mixed.go: splitRMWCode): LDXR, LDAXR if it acquires.
				if err = exclusive(target, p, group, in.Tags, isAcq, "A"); err == nil {
					for _, g := range group {
						add(g)
					}
				}
				break
			}
			err = mapped(compile.Load, ptsOrder(in.Tags), func(tags []string) {
				for _, g := range group {
					ld := g.(prog.Load)
					ld.Tags = tags
					add(ld)
				}
			})
		case prog.Store:
			err = mapped(compile.Store, ptsOrder(in.Tags), func(tags []string) {
				for _, g := range group {
					st := g.(prog.Store)
					st.Tags = tags
					add(st)
				}
			})
		case prog.StoreCond:
			// Their store-conditionals: STXR, STLXR if it releases.
			if err = exclusive(target, p, group, in.Tags, isRel, "L"); err == nil {
				for _, g := range group {
					add(g)
				}
			}
		case prog.Fence:
			done := false
			for _, k := range in.Tags {
				if f, ok := lkmmFenceFor(target, k); ok {
					fence(f)
					done = true
					break
				}
			}
			if !done {
				fence(fenceFor(target, orderOf(in.Tags)))
			}
		case prog.RMW:
			o := orderOf(in.RTags)
			var rt, wt []string
			var pre, post []string
			switch target {
			case compile.X86:
				rt, wt = []string{litmus.TagX}, []string{litmus.TagX}
			case compile.Power:
				if o == "SC" {
					pre = []string{"SYNC"}
				} else if isRel(o) {
					pre = []string{"LWSYNC"}
				}
				if isAcq(o) {
					post = []string{"LWSYNC"}
				}
			case compile.ARMv7:
				if isRel(o) {
					pre = []string{"DMB.ISH"}
				}
				if isAcq(o) {
					post = []string{"DMB.ISH"}
				}
			case compile.AArch64:
				// An exclusive pair (LDXR/STXR, LDAXR/STLXR), not a
				// single-instruction atomic (LDADDAL, SWPAL, CASAL): the
				// AArch64 model orders every later access after the write
				// of an acquire-release atomic instruction (bob's
				// [range([A]; amo; [L])]; po), but not after an exclusive
				// pair's. Armv8.0 has only the pair; compilers emit it
				// unless told the core has LSE (and -moutline-atomics picks
				// it at run time on cores without), so a program must be
				// right under it: an acq_rel RMW between two relaxed stores
				// does not order them.
				rt, wt = []string{exclusiveTag}, []string{exclusiveTag}
				if isAcq(o) {
					rt = append(rt, "A")
				}
				if isRel(o) {
					wt = append(wt, "L")
				}
			case compile.RISCV:
				n := rmwSize(in.RTags)
				rt, wt, in.Single = rvRMW(o, in.Cond != nil || n > 0 && n < 4)
			}
			if slices.Contains(in.RTags, "MB") {
				// A fully ordered kernel RMW (xchg, cmpxchg,
				// atomic_*_return): as if smp_mb() came before and after.
				pre, post = fenceFor(target, "SC"), fenceFor(target, "SC")
			}
			fence(pre)
			in.RTags, in.WTags, in.FailRTags = rt, wt, nil
			add(in)
			fence(post)
		case prog.Located:
			err = fmt.Errorf("%s: %s has no %s mapping (Linux-kernel primitives run under the LKMM only)", p, prog.InstrString(in), target)
		default:
			add(in)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rvRMW gives the RISC-V tags of a read-modify-write of C11 order o as
// clang-14 compiles it (llc -mtriple=riscv64 -mattr=+a): a compare-and-
// swap, and any read-modify-write of fewer than 4 bytes (a masked loop on
// the word), is an lr/sc pair (pair set), the lr annotated .aq when o
// acquires, the sc .rl when o releases, both .aqrl under seq_cst; any
// other is one AMO instruction (single: one event for RVWMO, as the
// RISC-V front-end's), .aq, .rl, or .aqrl for acq_rel and seq_cst. Both
// carry "X" (RVWMO's rules 3 and 7: a load reading an sc's or AMO's
// store from its own thread, and the RCsc order of annotated atomics).
// Before, fences stood around a plain pair (fence rw,w before a release
// one): stronger than the annotations (a failed release CAS ordered the
// accesses before it with every later store), and without "X" rule 3
// was lost.
func rvRMW(o string, pair bool) (rt, wt []string, single bool) {
	if pair {
		rt, wt = []string{litmus.TagRVAtomic, litmus.TagRVExclusive}, []string{litmus.TagRVAtomic, litmus.TagRVExclusive}
		switch {
		case o == "SC":
			rt, wt = append(rt, litmus.TagRVAcqRel), append(wt, litmus.TagRVAcqRel)
		default:
			if isAcq(o) {
				rt = append(rt, litmus.TagRVAcq)
			}
			if isRel(o) {
				wt = append(wt, litmus.TagRVRel)
			}
		}
		return rt, wt, false
	}
	tags := []string{litmus.TagRVAtomic, litmus.TagRVAMO}
	switch {
	case o == "SC" || o == "ACQ_REL":
		tags = append(tags, litmus.TagRVAcqRel)
	case isAcq(o):
		tags = append(tags, litmus.TagRVAcq)
	case isRel(o):
		tags = append(tags, litmus.TagRVRel)
	}
	return tags, slices.Clone(tags), true
}

// rmwSize is the size in bytes of a read-modify-write's access, from its
// read's size tag (withSize), or 0 when it has none (a kernel RMW of
// lkmm.h: an AMO).
func rmwSize(tags []string) int64 {
	for _, t := range tags {
		if rest, ok := strings.CutPrefix(t, sizeTagPrefix); ok {
			if i := strings.IndexByte(rest, '@'); i >= 0 {
				rest = rest[:i]
			}
			n, _ := strconv.ParseInt(rest, 10, 64)
			return n
		}
	}
	return 0
}

// exclusive gives the instructions of group, the parts of an exclusive
// access of a read-modify-write over parts, AArch64's tags: EX, and tag
// when the access's C11 order has the property ordered. Only AArch64 has
// them (CheckProgram refuses them under the other targets).
func exclusive(target string, p prog.Pos, group []prog.Instr, tags []string, ordered func(string) bool, tag string) error {
	if target != compile.AArch64 {
		return fmt.Errorf("%s: a read-modify-write over mixed-size parts has no %s mapping (only AArch64's model defines it)", p, target)
	}
	nt := []string{exclusiveTag}
	if ordered(orderOf(tags)) {
		nt = append(nt, tag)
	}
	for i, g := range group {
		switch x := g.(type) {
		case prog.Load:
			x.Tags = slices.Clone(nt)
			group[i] = x
		case prog.StoreCond:
			x.Tags = slices.Clone(nt)
			group[i] = x
		}
	}
	return nil
}
