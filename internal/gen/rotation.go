package gen

// The rotation of diy's Cycle= line. diy7 (version 7.47 and later)
// prints on that line the least rotation of the cycle, edges compared
// one after the other as its edge type orders them: first the source's
// annotation (none first: P, then acquire, acquire-PC, release, ...,
// then sizes by size and offset), then the target's, then the edge
// itself: Hat and Rmw first, then Rf, Fr, Ws (internal before external),
// Po, fences, dependencies, Leave, Back; within one kind the same
// location before different ones, W before R, then the fence (AArch64:
// ISB, DMB.LD, DMB.ST, DMB.SY, DSB...; RISC-V: fence.i, fence.tso, then
// fence r.r ... rw.rw, r before w before rw) or the dependency (addr,
// data, ctrl, ctrl with a barrier). Every corpus test diy 7.47 or later
// wrote (its Generator= line) has that rotation on its Cycle= line
// (TestCycleRotation), and so has every corpus LKMM test diy wrote from
// the kernel's bell file, whose kinds (acquire, mb, once, release) it
// compares as strings (TestCorpusLKMMCycles); older diy7 printed the cycle as its enumeration
// built it (PPC: the relaxed edges first), which no order of the edges
// explains.

// Rotated is the cycle as diy's Cycle= line gives it: its least rotation
// (see above); a cycle of DetourR, DetourW, ... pairs as given.
func (t *Test) Rotated() string {
	for _, e := range t.Orig {
		if e.Word != nil {
			return joinEdges(t.Edges)
		}
	}
	return joinEdges(diyRotation(t.Orig))
}

// diyRotation is the least rotation of a cycle in diy's order of edges.
func diyRotation(es []Edge) []Edge {
	n := len(es)
	best := 0
	for s := 1; s < n; s++ {
		for k := 0; k < n; k++ {
			c := compareEdges(es[(s+k)%n], es[(best+k)%n])
			if c < 0 {
				best = s
			}
			if c != 0 {
				break
			}
		}
	}
	return append(append([]Edge(nil), es[best:]...), es[:best]...)
}

func compareKeys(a, b []int) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

func compareEdges(a, b Edge) int {
	return compareKeys(edgeKey(a), edgeKey(b))
}

// atomKey orders the annotation and size of one access: none first.
func atomKey(ann string, m Mix) []int {
	if (ann == "" || ann == "P") && m.Size == 0 {
		return []int{0}
	}
	r := map[string]int{"": 0, "P": 0, "A": 1, "Aq": 1, "Acq": 1, "Q": 2, "L": 3, "Rl": 2, "Rel": 2, "AR": 3, "AqRl": 3, "X": 4,
		// The kernel's kinds are the bell file's names, compared as
		// strings: acquire, mb, once, release.
		"Acquire": 1, "Mb": 2, "Once": 3, "Release": 4}[ann]
	if isExclusive(ann) {
		r = 4
	}
	k := []int{1, r}
	if m.Size != 0 {
		k = append(k, 1, m.Size, m.Off)
	} else {
		k = append(k, 0)
	}
	if isExclusive(ann) && ann != "X" {
		// An ordered X after X (no corpus test has one: the order
		// among them is the annotation's spelling).
		for _, c := range ann[1:] {
			k = append(k, int(c))
		}
	}
	return k
}

func dirKey(d Dir) int {
	if d == 'W' {
		return 0
	}
	return 1
}

func edgeKey(e Edge) []int {
	k := append(atomKey(e.SrcAnn, e.SrcMix), atomKey(e.DstAnn, e.DstMix)...)
	ie := 0
	if e.Ext {
		ie = 1
	}
	sd := 1
	if e.SameLoc {
		sd = 0
	}
	if e.Detour != 0 {
		tag := 8 // Leave, then Back
		if e.Detour < 0 {
			tag = 9
		}
		return append(k, 1, tag, map[Kind]int{Rf: 0, Fr: 1, Ws: 2}[e.Kind])
	}
	switch e.Kind {
	case Hat:
		return append(k, 0, 1)
	case Rmw:
		return append(k, 0, 2)
	case Rf:
		return append(k, 1, 0, ie)
	case Fr:
		return append(k, 1, 1, ie)
	case Ws:
		return append(k, 1, 2, ie)
	case Po:
		return append(k, 1, 5, sd, dirKey(e.Src), dirKey(e.Dst))
	case Fence:
		return append(k, 1, 6, fenceRank(e.Fence), sd, dirKey(e.Src), dirKey(e.Dst))
	case Dep:
		return append(k, 1, 7, map[string]int{"Addr": 0, "Data": 1, "Ctrl": 2}[e.Dep]+boolInt(e.Dep != "Addr" && e.Dep != "Data" && e.Dep != "Ctrl")*3, sd, dirKey(e.Dst))
	}
	return k
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func fenceRank(f string) int {
	order := []string{"MFence", "Sync", "LwSync", "ISync", "Eieio", "ISB", "DMB.LD", "DMB.ST", "DMB.SY", "DSB.LD", "DSB.ST", "DSB.SY",
		"Fence.i", "Fence.tso", "Fence.r.r", "Fence.r.w", "Fence.r.rw", "Fence.w.r", "Fence.w.w", "Fence.w.rw", "Fence.rw.r", "Fence.rw.w", "Fence.rw.rw",
		"FenceMb", "FenceRmb", "FenceWmb"}
	for i, o := range order {
		if o == f {
			return i
		}
	}
	return len(order)
}
