// Package gen generates litmus tests from cycles of relaxations, in the
// notation of Alglave, Maranget, Sarkar and Sewell, "Fences in Weak Memory
// Models" (CAV 2010), the notation of the diy tool suite (diy7, diyone7):
// a test is a cycle of edges between memory accesses, each edge a
// program-order relation (PodWR: program order, different locations, from
// a write to a read), a fence (MFencedWR, LwSyncdWW, DMB.SYdRR,
// Fence.rw.rwdWW, Fence.idRW: RISC-V's fence.i), a dependency (DpAddrdR, DpDatadW, DpCtrldW) or a
// communication (Rfe, Fre, Wse and their internal forms Rfi, Fri, Wsi;
// Coe/Coi are Wse/Wsi), optionally with acquire/release annotations on its
// ends (PodWRLA on AArch64, PodWRRlAq or PodRWARAR on RISC-V); or an atomic
// read-modify-write (Rmw: XCHG, lwarx/stwcx., LDXR/STXR, LDREX/STREX,
// amoswap.w; Amo.Swp and Amo.Cas on AArch64), two reads of one write in
// two threads (Hat), a detour through another thread's write (DetourR,
// DetourW, XxLeave ... XxBack). The test is the program
// whose threads perform the accesses of the cycle and whose final
// condition holds exactly when every edge of the cycle is observed: on a
// model that orders every edge of the cycle the condition is unreachable.
// On AArch64 an access may have a size and an offset (PosWWw0q0: see
// Mix, in mixed.go).
// Where the reads and final values do not pin the coherence order of a
// location written three times or more, a load appended to a writing
// thread (an observer) does. BuildObs follows diy7's -obs and -obstype
// instead: observer threads, local observers, or none (see Obs, in
// obs.go).
//
// Cycle builds a test from a list of edges (what diyone7 does), Name
// gives it herd's name (SB, MP+lwsync+addr, ...), Write prints it in the
// litmus dialect of an architecture (X86, PPC, AArch64, ARM, RISCV, C
// as diy7 writes C tests, and LKMM: C tests of the Linux kernel's
// primitives, see lkmm.go) and
// Enumerate lists every valid cycle up to a size over a list of edges
// (what diy7 does), once up to rotation.
package gen

import (
	"fmt"
	"strings"
)

// Dir is the direction of an access: 'R' or 'W'.
type Dir byte

// Kind is what an edge is.
type Kind int

// The kinds of edges.
const (
	Po    Kind = iota // program order
	Fence             // program order with a fence between
	Dep               // a dependency from a read
	Rf                // reads-from
	Fr                // from-read
	Ws                // coherence (write serialisation)
	// Rmw relates the read and the write of one atomic read-modify-write
	// instruction (diy's Rmw): same location, one thread, the write
	// immediately after the read in coherence.
	Rmw
	// Hat relates two reads of one location in two threads that return
	// the same write (diy's Hat: a read-read "communication").
	Hat
)

// Edge is one relaxation of a cycle.
type Edge struct {
	Name     string // as written
	Kind     Kind
	Ext      bool // a communication between two threads (Rfe, Fre, Wse)
	SameLoc  bool // both ends access the same location
	Src, Dst Dir
	// SrcAnn and DstAnn annotate the two accesses ("" when not said;
	// "P" plain, "A" acquire, "Q" acquire-PC, "L" release on AArch64;
	// "X" an exclusive access on both, "XA", "XL", "XAL" on AArch64 and
	// "XAqP", "XPRl", "XAqRl", ... on RISC-V with the orders of its load
	// and store (see exclusive.go);
	// "Aq", "Rl" on RISC-V, and "AR" there for an access made by an
	// AMO with both .aq and .rl: amoswap.w.aq.rl x0,v,(a) for a write,
	// amoor.w.aq.rl r,x0,(a) for a read, as diy writes them).
	SrcAnn, DstAnn string
	// SrcMix and DstMix are the sizes and offsets of the two accesses of
	// a mixed-size edge (PosWWw0q0; zero when not said, see Mix).
	SrcMix, DstMix Mix
	Fence          string // Fence: the fence's name in the notation ("MFence", "DMB.SY")
	Dep            string // Dep: Addr, Data, Ctrl, CtrlIsync, CtrlIsb or CtrlFenceI
	// Amo is the instruction of a read-modify-write other than the
	// architecture's default (Rmw): "Swp", "Cas", "LdAdd", "LdEor",
	// "StAdd" or "StEor" on AArch64 (diy's Amo.Swp, Amo.Cas, ... edges).
	Amo string
	// Detour is +1 for diy's XxLeave (a communication to a thread the
	// cycle comes back from), -1 for XxBack (the communication back),
	// 0 otherwise. A DetourR, DetourW, DetourRW or DetourWW is one such
	// pair; Word then holds the name of the pair on its first edge, ""
	// on its second, for printing the cycle as given.
	Detour int
	Word   *string
}

// Internal tells whether the edge stays in one thread.
func (e Edge) Internal() bool { return !e.Ext }

// Com tells whether the edge is a communication (Rf, Fr, Ws).
func (e Edge) Com() bool { return e.Kind == Rf || e.Kind == Fr || e.Kind == Ws }

// Arch is what the generator knows of an architecture: its name in
// litmus headers, its fences and annotations in the notation.
type Arch struct {
	Name        string
	Fences      []string // as written in edges, longest first where one is a prefix of another
	Annotations []string // longest first
	Deps        []string
}

var arches = []*Arch{
	{Name: "X86", Fences: []string{"MFence"}},
	{Name: "PPC", Fences: []string{"LwSync", "Sync", "ISync", "Eieio"},
		Deps: []string{"Addr", "Data", "CtrlIsync", "Ctrl"}},
	{Name: "AArch64", Fences: []string{"DMB.SY", "DMB.LD", "DMB.ST", "DSB.SY", "ISB"},
		Annotations: append([]string{"P", "A", "Q", "L"}, a64Exclusive...), Deps: []string{"Addr", "Data", "CtrlIsb", "Ctrl"}},
	{Name: "ARM", Fences: []string{"DMB.ST", "DSB.ST", "DMB", "DSB", "ISB"},
		Deps: []string{"Addr", "Data", "CtrlIsb", "Ctrl"}},
	// C11: the annotations are memory orders (Rlx, Acq, Rel, Sc, Con;
	// P or none a plain, non-atomic access), the fences
	// atomic_thread_fence of an order (FenceScdWR).
	{Name: "C", Fences: []string{"FenceRlx", "FenceAcq", "FenceRel", "FenceAR", "FenceSc", "FenceCon"},
		Annotations: []string{"Rlx", "Acq", "Rel", "AR", "Sc", "Con", "P"}, Deps: []string{"Addr", "Data", "Ctrl"}},
	{Name: "RISCV", Fences: []string{"Fence.rw.rw", "Fence.rw.r", "Fence.rw.w", "Fence.r.rw", "Fence.r.r", "Fence.r.w",
		"Fence.w.rw", "Fence.w.r", "Fence.w.w", "Fence.tso", "Fence.i"},
		Annotations: append([]string{"AqRl", "Aq", "AR", "Rl", "P"}, rvExclusive...), Deps: []string{"Addr", "Data", "CtrlFenceI", "Ctrl"}},
	// The Linux kernel's model: C tests of the kernel's primitives (see
	// lkmm.go).
	{Name: "LKMM", Fences: []string{"FenceMb", "FenceWmb", "FenceRmb"},
		Annotations: lkmmKinds, Deps: []string{"Addr", "Data", "Ctrl"}},
}

// LookupArch finds an architecture by one of its names, without regard
// to case (X86, x86_64, PPC, Power, AArch64, ARM64, ARM, ARMv7, RISCV,
// RISC-V, C, C11, LKMM, LISA, Linux).
func LookupArch(name string) (*Arch, error) {
	n := strings.ToLower(strings.ReplaceAll(name, "-", ""))
	alias := map[string]string{"x86": "X86", "x86_64": "X86", "x8664": "X86", "tso": "X86",
		"ppc": "PPC", "power": "PPC", "powerpc": "PPC",
		"aarch64": "AArch64", "arm64": "AArch64", "armv8": "AArch64",
		"arm": "ARM", "armv7": "ARM", "c": "C", "c11": "C",
		"riscv": "RISCV", "riscv64": "RISCV",
		"lkmm": "LKMM", "lisa": "LKMM", "linux": "LKMM", "linuxkernel": "LKMM"}
	if c, ok := alias[n]; ok {
		for _, a := range arches {
			if a.Name == c {
				return a, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown architecture %q (want X86, PPC, AArch64, ARM, RISCV, C or LKMM)", name)
}

// ParseEdge reads one edge of the notation for the architecture.
func (a *Arch) ParseEdge(s string) (Edge, error) {
	e := Edge{Name: s}
	bad := func(why string) (Edge, error) { return Edge{}, fmt.Errorf("%s: %s", s, why) }
	rest := ""
	switch {
	case hasPrefixAny(s, "RfLeave", "FrLeave", "WsLeave", "RfBack", "FrBack", "WsBack"):
		switch s[:2] {
		case "Rf":
			e.Kind, e.Src, e.Dst = Rf, 'W', 'R'
		case "Fr":
			e.Kind, e.Src, e.Dst = Fr, 'R', 'W'
		default:
			e.Kind, e.Src, e.Dst = Ws, 'W', 'W'
		}
		e.Ext, e.SameLoc, e.Detour = true, true, 1
		if strings.HasPrefix(s[2:], "Back") {
			e.Detour, rest = -1, s[len("RfBack"):]
		} else {
			rest = s[len("RfLeave"):]
		}
	case hasPrefixAny(s, "Rf", "Fr", "Ws", "Co") && len(s) >= 3 && (s[2] == 'e' || s[2] == 'i'):
		switch s[:2] {
		case "Rf":
			e.Kind, e.Src, e.Dst = Rf, 'W', 'R'
		case "Fr":
			e.Kind, e.Src, e.Dst = Fr, 'R', 'W'
		default:
			e.Kind, e.Src, e.Dst = Ws, 'W', 'W'
		}
		e.Ext, e.SameLoc = s[2] == 'e', true
		rest = s[3:]
	case a.Name == "AArch64" && hasPrefixAny(s, "Amo.Swp", "Amo.Cas"):
		e.Kind, e.Src, e.Dst, e.SameLoc, e.Amo = Rmw, 'R', 'W', true, s[4:7]
		rest = s[7:]
	case a.Name == "AArch64" && hasPrefixAny(s, "Amo.LdAdd", "Amo.LdEor", "Amo.StAdd", "Amo.StEor"):
		// LDADD, LDEOR and their forms without a result, STADD and
		// STEOR (whose read no register returns).
		e.Kind, e.Src, e.Dst, e.SameLoc, e.Amo = Rmw, 'R', 'W', true, s[4:9]
		rest = s[9:]
	case a.Name == "AArch64" && strings.HasPrefix(s, "LxSx"):
		// diy's other name of AArch64's Rmw (an LDXR/STXR pair).
		e.Kind, e.Src, e.Dst, e.SameLoc = Rmw, 'R', 'W', true
		rest = s[4:]
	case strings.HasPrefix(s, "Rmw"):
		e.Kind, e.Src, e.Dst, e.SameLoc = Rmw, 'R', 'W', true
		rest = s[3:]
		if !a.HasRmw() {
			return bad(fmt.Sprintf("the generator writes no read-modify-write for %s yet", a.Name))
		}
	case strings.HasPrefix(s, "Hat"):
		e.Kind, e.Src, e.Dst, e.SameLoc, e.Ext = Hat, 'R', 'R', true, true
		rest = s[3:]
	case strings.HasPrefix(s, "Po"):
		e.Kind = Po
		var err error
		if rest, err = e.locDirs(s[2:]); err != nil {
			return bad(err.Error())
		}
	case strings.HasPrefix(s, "Dp"):
		e.Kind, e.Src = Dep, 'R'
		for _, d := range a.Deps {
			if strings.HasPrefix(s[2:], d) {
				e.Dep = d
				break
			}
		}
		if e.Dep == "" {
			if len(a.Deps) == 0 {
				return bad(fmt.Sprintf("%s has no dependencies in the notation", a.Name))
			}
			return bad(fmt.Sprintf("unknown dependency (want Dp followed by one of %s)", strings.Join(a.Deps, ", ")))
		}
		body := s[2+len(e.Dep):]
		if len(body) < 2 || (body[0] != 's' && body[0] != 'd') || (body[1] != 'R' && body[1] != 'W') {
			return bad("a dependency is Dp<kind>{s,d}{R,W}, e.g. DpAddrdR")
		}
		e.SameLoc, e.Dst = body[0] == 's', Dir(body[1])
		rest = body[2:]
		if e.Dep == "Data" && e.Dst != 'W' {
			return bad("a data dependency ends on a write")
		}
	default:
		var dirErr error
		for _, f := range a.Fences {
			if strings.HasPrefix(s, f) {
				r, err := e.locDirs(s[len(f):])
				if err != nil {
					// Another fence may fit; the directions are wrong
					// only when {s,d} follows the fence (ARM's DMB is
					// not the fence of an AArch64 DMB.SYdWW).
					if k := s[len(f):]; k != "" && (k[0] == 's' || k[0] == 'd') {
						dirErr = err
					}
					continue
				}
				e.Kind, e.Fence, rest = Fence, f, r
				break
			}
		}
		if e.Kind != Fence && dirErr != nil {
			return bad(dirErr.Error())
		}
		if e.Kind != Fence {
			return bad(fmt.Sprintf("not an edge of %s: want Po{s,d}{R,W}{R,W}, Rfe, Rfi, Fre, Fri, Wse, Wsi, Coe, Coi, Hat, Rmw, a fence (%s)%s", a.Name,
				strings.Join(a.Fences, ", "), depsHint(a)))
		}
	}
	if rest != "" {
		src, dst, ok := a.splitAnnotations(rest)
		if !ok && a.Name == "AArch64" {
			var sm, dm Mix
			if src, sm, dst, dm, ok = a.splitMixed(rest); ok {
				for _, m := range []Mix{sm, dm} {
					if err := checkMix(m); err != nil {
						return bad(err.Error())
					}
				}
				e.SrcMix, e.DstMix = sm, dm
			}
		}
		if !ok && looksMixed(rest) {
			if a.Name == "AArch64" {
				return bad(fmt.Sprintf("%q is not two accesses, each a size and offset (b0, h2, w4, q0), an annotation among %s, or both (L.w0)", rest, strings.Join(a.Annotations, ", ")))
			}
			return bad(fmt.Sprintf("mixed-size accesses (%q: sizes and offsets) are generated for AArch64 only", rest))
		}
		if !ok {
			if len(a.Annotations) == 0 {
				return bad(fmt.Sprintf("%s has no annotated accesses (%q)", a.Name, rest))
			}
			return bad(fmt.Sprintf("%q is not two annotations among %s", rest, strings.Join(a.Annotations, ", ")))
		}
		e.SrcAnn, e.DstAnn = src, dst
		if a.Name == "LKMM" {
			if err := checkLKMM(e); err != nil {
				return bad(err.Error())
			}
		} else if a.Name == "C" && e.Kind == Rmw {
			// One atomic exchange: its memory order is the read's, as
			// diy writes it; the write's annotation says the same.
			if !cAtomic(src) || dst != src {
				return bad("a C read-modify-write is one atomic exchange: give its memory order twice (RmwRlxRlx, RmwAcqAcq, RmwRelRel, RmwARAR, RmwScSc)")
			}
		} else if err := checkAnn(e.Src, src); err != nil {
			return bad(err.Error())
		} else if err := checkAnn(e.Dst, dst); err != nil {
			return bad(err.Error())
		}
	}
	if a.Name == "C" && e.Kind == Rmw && e.SrcAnn == "" {
		return bad("a C read-modify-write is one atomic exchange: give its memory order twice (RmwRlxRlx, RmwAcqAcq, RmwRelRel, RmwARAR, RmwScSc)")
	}
	return e, nil
}

// HasRmw tells whether the generator writes diy's Rmw edge for a.
func (a *Arch) HasRmw() bool {
	switch a.Name {
	case "X86", "PPC", "AArch64", "ARM", "RISCV", "C", "LKMM":
		return true
	}
	return false
}

func depsHint(a *Arch) string {
	if len(a.Deps) == 0 {
		return ""
	}
	return " or a dependency (Dp" + strings.Join(a.Deps, ", Dp") + " followed by {s,d}{R,W})"
}

// locDirs reads "{s,d}{R,W}{R,W}" at the start of s.
func (e *Edge) locDirs(s string) (string, error) {
	if len(s) < 3 || (s[0] != 's' && s[0] != 'd') || (s[1] != 'R' && s[1] != 'W') || (s[2] != 'R' && s[2] != 'W') {
		return "", fmt.Errorf("want {s,d}{R,W}{R,W} after the kind, e.g. PodWR")
	}
	e.SameLoc, e.Src, e.Dst = s[0] == 's', Dir(s[1]), Dir(s[2])
	return s[3:], nil
}

// splitAnnotations splits s into two annotations of the architecture.
func (a *Arch) splitAnnotations(s string) (string, string, bool) {
	for _, x := range a.Annotations {
		if !strings.HasPrefix(s, x) {
			continue
		}
		for _, y := range a.Annotations {
			if s[len(x):] == y {
				return x, y, true
			}
		}
	}
	return "", "", false
}

// checkAnn tells whether an annotation fits an access.
func checkAnn(d Dir, ann string) error {
	switch {
	case (ann == "A" || ann == "Q" || ann == "Aq") && d != 'R':
		return fmt.Errorf("annotation %s (acquire) is for reads, here on a write", ann)
	case (ann == "L" || ann == "Rl") && d != 'W':
		return fmt.Errorf("annotation %s (release) is for writes, here on a read", ann)
	case (ann == "Acq" || ann == "Con") && d != 'R':
		return fmt.Errorf("annotation %s (memory_order_%s) is for reads, here on a write", ann, map[string]string{"Acq": "acquire", "Con": "consume"}[ann])
	case ann == "Rel" && d != 'W':
		return fmt.Errorf("annotation Rel (memory_order_release) is for writes, here on a read")
	case ann == "AqRl":
		return fmt.Errorf("annotation %s is for atomic read-modify-writes, which the generator does not make", ann)
	}
	return nil
}

func hasPrefixAny(s string, ps ...string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// detours are diy's detour edges as the pair of communications they
// stand for: DetourR (a read, another thread's write it reads before,
// a read of that write), DetourW (a write, another thread's write after
// it in coherence, a read of that write), DetourRW and DetourWW.
var detours = map[string][2]string{
	"DetourR": {"FrLeave", "RfBack"}, "DetourW": {"WsLeave", "RfBack"},
	"DetourRW": {"FrLeave", "WsBack"}, "DetourWW": {"WsLeave", "WsBack"},
}

// ParseCycle reads a cycle: edges separated by blanks (one argument may
// hold several).
func (a *Arch) ParseCycle(words []string) ([]Edge, error) {
	var es []Edge
	for _, w := range words {
		for _, f := range strings.Fields(w) {
			if pair, ok := detours[f]; ok {
				// diy's detours: an internal edge on one location that
				// goes through another thread's write.
				word, none := f, ""
				for k, p := range pair {
					e, err := a.ParseEdge(p)
					if err != nil {
						return nil, err
					}
					e.Word = &none
					if k == 0 {
						e.Word = &word
					}
					es = append(es, e)
				}
				continue
			}
			e, err := a.ParseEdge(f)
			if err != nil {
				return nil, err
			}
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		return nil, fmt.Errorf("empty cycle")
	}
	return es, nil
}
