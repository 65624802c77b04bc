package gen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Mixed-size accesses, in diy's notation: after an edge's directions, each
// access may say its size (b a byte, h two, w four, q eight) and its
// offset in bytes from the location's address: PosWWw0q0 writes the low
// word of x then all of it, Rfew4P reads from a write to the high word of
// y with a plain access of the whole location, PodWWq0L.w0 ends on a
// release store of the low word (an annotation, a dot, the size). The
// generator writes them for AArch64 (LDRB/STRB, LDRH/STRH, W and X
// registers, [Xn,#off]), as diy does:
//
//   - each location is a uint64_t (a uint32_t when its accesses all fit in
//     its low four bytes); an access without a size is of the whole
//     location, an X register;
//   - the writes of a location are numbered along the cycle, as for
//     accesses of one size, and the write of number v stores v in each of
//     its bytes (a word's 1 is 0x01010101), v itself when it has no size;
//   - the location's value after a write is the one before with that
//     write's bytes replaced, and a read returns its bytes of the value
//     after the write it reads (the initial 0 before the first): a read at
//     w4 of a location whose quad write 1 then low-word write 2 it reads
//     returns 0x01010101;
//   - the final value of every written location is the value after its
//     last write.
//
// A communication between two accesses that share no byte (Rfew0w4)
// relates no bytes: as in diy, the read returns the bytes the writes
// before it left. Read-modify-writes, Hat, detours and observers are not
// made in mixed-size tests.

// Mix is the size and offset of a mixed-size access (Size 0: not said).
type Mix struct{ Size, Off int }

func (m Mix) String() string {
	if m.Size == 0 {
		return ""
	}
	return fmt.Sprintf("%c%d", sizeLetter(m.Size), m.Off)
}

func sizeLetter(n int) byte {
	switch n {
	case 1:
		return 'b'
	case 2:
		return 'h'
	case 4:
		return 'w'
	}
	return 'q'
}

var mixRe = regexp.MustCompile(`^([bhwq])([0-9]+)$`)

// parseMix reads b0, h2, w4, q0.
func parseMix(s string) (Mix, bool) {
	m := mixRe.FindStringSubmatch(s)
	if m == nil {
		return Mix{}, false
	}
	off, err := strconv.Atoi(m[2])
	if err != nil {
		return Mix{}, false
	}
	size := map[string]int{"b": 1, "h": 2, "w": 4, "q": 8}[m[1]]
	return Mix{Size: size, Off: off}, true
}

// mixedAtom reads one access's atom of a mixed-size edge: a size (w0),
// an annotation (P, A, L), or both with a dot between (L.w0).
func (a *Arch) mixedAtom(s string) (ann string, m Mix, ok bool) {
	if m, ok := parseMix(s); ok {
		return "", m, true
	}
	if i := strings.IndexByte(s, '.'); i > 0 {
		if m, ok := parseMix(s[i+1:]); ok && a.isAnnotation(s[:i]) {
			return s[:i], m, true
		}
		return "", Mix{}, false
	}
	if a.isAnnotation(s) {
		return s, Mix{}, true
	}
	return "", Mix{}, false
}

func (a *Arch) isAnnotation(s string) bool {
	for _, x := range a.Annotations {
		if x == s {
			return true
		}
	}
	return false
}

// splitMixed splits the atoms after an edge's directions into the
// source's and the target's when one of them at least has a size.
func (a *Arch) splitMixed(s string) (srcAnn string, src Mix, dstAnn string, dst Mix, ok bool) {
	for i := 1; i < len(s); i++ {
		sa, sm, ok1 := a.mixedAtom(s[:i])
		da, dm, ok2 := a.mixedAtom(s[i:])
		if ok1 && ok2 && (sm.Size != 0 || dm.Size != 0) {
			return sa, sm, da, dm, true
		}
	}
	return "", Mix{}, "", Mix{}, false
}

// looksMixed tells whether the atoms of an edge have a size, for the
// error on an architecture without mixed-size accesses.
func looksMixed(s string) bool {
	return regexp.MustCompile(`[bhwq][0-9]+`).MatchString(s)
}

// checkMix checks that an access fits in a location of eight bytes,
// aligned on its size, as AArch64 loads and stores need.
func checkMix(m Mix) error {
	if m.Size == 0 {
		return nil
	}
	if m.Off%m.Size != 0 || m.Off+m.Size > 8 {
		return fmt.Errorf("access %s is not aligned on its size within eight bytes", m)
	}
	return nil
}

// mergeMix is the size of the access between two edges: both say the
// same or one says none.
func mergeMix(a, b Mix) (Mix, error) {
	switch {
	case a == b || b.Size == 0:
		return a, nil
	case a.Size == 0:
		return b, nil
	}
	return Mix{}, fmt.Errorf("the access between them is both %s and %s", a, b)
}

// Mixed tells whether the test has mixed-size accesses.
func (t *Test) Mixed() bool { return t.Width != nil }

// mixValues gives, in a test with accesses of a size, each location its
// width and each access of no size the whole location, and computes the
// values of the accesses and the final values, as the package's comment
// on mixed sizes says.
func (t *Test) mixValues() error {
	for i, e := range t.Edges {
		switch {
		case e.Kind == Rmw || e.Kind == Hat || e.Detour != 0:
			return &ErrUnsupported{fmt.Sprintf("%s in a mixed-size cycle: the generator makes mixed-size tests of plain accesses, fences and dependencies", e.Name)}
		case e.Kind == Dep && e.Dep == "Addr" && t.Events[(i+1)%len(t.Events)].Mix.Off != 0:
			return &ErrUnsupported{fmt.Sprintf("%s into an access at an offset", e.Name)}
		}
	}
	for _, ev := range t.Events {
		if isExclusive(ev.Ann) {
			return &ErrUnsupported{"an exclusive (X) access in a mixed-size cycle"}
		}
	}
	if len(t.Obs) > 0 {
		return errMixedObserver(t)
	}
	t.Width = map[int]int{}
	for l := 0; l < t.Locs; l++ {
		t.Width[l] = 4
	}
	for _, ev := range t.Events {
		if ev.Mix.Size == 0 || ev.Mix.Off+ev.Mix.Size > 4 {
			t.Width[ev.Loc] = 8
		}
	}
	natural := make([]bool, len(t.Events))
	for i := range t.Events {
		if ev := &t.Events[i]; ev.Mix.Size == 0 {
			ev.Mix = Mix{Size: t.Width[ev.Loc], Off: 0}
			natural[i] = true
		}
	}
	// The writes of each location by number, then the value after each.
	stored := func(i int) uint64 {
		if natural[i] {
			return uint64(t.Events[i].Val)
		}
		return replicate(t.Events[i].Val, t.Events[i].Mix.Size)
	}
	writes := map[int]map[int]int{} // location -> number -> event
	last := map[int]int{}
	for i, ev := range t.Events {
		if ev.Dir == 'W' {
			if writes[ev.Loc] == nil {
				writes[ev.Loc] = map[int]int{}
			}
			writes[ev.Loc][ev.Val] = i
			last[ev.Loc] = max(last[ev.Loc], ev.Val)
		}
	}
	after := func(loc, v int) uint64 {
		var x uint64
		for k := 1; k <= v; k++ {
			w := writes[loc][k]
			x = overwrite(x, t.Events[w].Mix, stored(w))
		}
		return x
	}
	t.MVal = make([]uint64, len(t.Events))
	for i, ev := range t.Events {
		switch {
		case ev.Dir == 'W':
			t.MVal[i] = stored(i)
		case ev.Val >= 0:
			t.MVal[i] = extract(after(ev.Loc, ev.Val), ev.Mix)
		}
	}
	t.MFinal = map[int]uint64{}
	t.Final = map[int]int{}
	for l, v := range last {
		t.MFinal[l] = after(l, v)
		t.Final[l] = v
	}
	return nil
}

// replicate is the value a write of number v stores: v in each byte.
func replicate(v, size int) uint64 {
	var x uint64
	for k := 0; k < size; k++ {
		x = x<<8 | uint64(v&0xff)
	}
	return x
}

// overwrite replaces the bytes of m in x (little-endian) with w.
func overwrite(x uint64, m Mix, w uint64) uint64 {
	if m.Size == 8 {
		return w
	}
	mask := (uint64(1)<<(8*m.Size) - 1) << (8 * m.Off)
	return x&^mask | (w<<(8*m.Off))&mask
}

// extract is the bytes of m in x.
func extract(x uint64, m Mix) uint64 {
	if m.Size == 8 {
		return x
	}
	return x >> (8 * m.Off) & (uint64(1)<<(8*m.Size) - 1)
}

// mixWord is the annotations and sizes of an edge in a name: posw0q0,
// poq0l.w0, pospw0.
func mixWord(ann string, m Mix) string {
	switch {
	case m.Size == 0:
		return strings.ToLower(annOrP(ann))
	case ann == "" || ann == "P":
		return m.String()
	}
	return strings.ToLower(ann) + "." + m.String()
}

// mixedAccess writes one AArch64 access of a mixed-size test: val is what
// a write stores; a value that MOV cannot give (above 0xffff) is set in
// the thread's initial state, as diy does. It returns the register a read
// loads.
func mixedAccess(t *thread, ev Event, val uint64, a, dep, kind string) string {
	w := "W"
	if ev.Mix.Size == 8 {
		w = "X"
	}
	sfx := map[int]string{1: "B", 2: "H"}[ev.Mix.Size]
	addr := "[" + a + "]"
	switch {
	case kind == "Addr":
		off := t.newReg()
		t.emit("EOR X%d,X%s,X%s", off, dep[1:], dep[1:])
		if ev.Ann == "" {
			addr = fmt.Sprintf("[%s,X%d]", a, off)
		} else {
			b := t.newReg()
			t.emit("ADD X%d,%s,X%d", b, a, off)
			addr = fmt.Sprintf("[X%d]", b)
		}
	case ev.Mix.Off != 0 && ev.Ann == "":
		addr = fmt.Sprintf("[%s,#%d]", a, ev.Mix.Off)
	case ev.Mix.Off != 0:
		// The acquire and release forms take no offset.
		b := t.newReg()
		t.emit("ADD X%d,%s,#%d", b, a, ev.Mix.Off)
		addr = fmt.Sprintf("[X%d]", b)
	}
	if ev.Dir == 'W' {
		v := t.newReg()
		// The operand of a data dependency's ADD: a register that holds
		// the value from the initial state, one per value (a store's
		// register when one holds it), as diy.
		constant := func() int {
			if c, ok := t.consts[val]; ok {
				return c
			}
			if t.consts == nil {
				t.consts = map[uint64]int{}
			}
			c := t.newReg()
			t.consts[val] = c
			t.init = append(t.init, fmt.Sprintf("%d:X%d=0x%x;", t.id, c, val))
			return c
		}
		switch {
		case kind == "Data" && val <= 0xfff:
			t.emit("EOR X%d,X%s,X%s", v, dep[1:], dep[1:])
			t.emit("ADD %s%d,%s%d,#%d", w, v, w, v, val)
		case kind == "Data":
			t.emit("EOR X%d,X%s,X%s", v, dep[1:], dep[1:])
			t.emit("ADD %s%d,%s%d,%s%d", w, v, w, v, w, constant())
		case val <= 0xffff:
			t.emit("MOV %s%d,#%d", w, v, val)
		default:
			t.init = append(t.init, fmt.Sprintf("%d:X%d=0x%x;", t.id, v, val))
			if _, ok := t.consts[val]; !ok {
				if t.consts == nil {
					t.consts = map[uint64]int{}
				}
				t.consts[val] = v
			}
		}
		op := a64Op(ev.Ann, true)
		t.emit("%s%s %s%d,%s", op, sfx, w, v, addr)
		return ""
	}
	n := t.newReg()
	op := a64Op(ev.Ann, false)
	t.emit("%s%s %s%d,%s", op, sfx, w, n, addr)
	// Dependencies and control use the X view of the register, as diy.
	return fmt.Sprintf("X%d", n)
}

// mixedTypes is the line of a mixed-size test's initial state that gives
// each location its type (uint32_t or uint64_t) and each register of the
// condition the type of the location it reads.
func (t *Test) mixedTypes(regs []string, locOf []int) string {
	typ := func(l int) string {
		if t.Width[l] == 4 {
			return "uint32_t"
		}
		return "uint64_t"
	}
	var out []string
	for l := 0; l < t.Locs; l++ {
		out = append(out, fmt.Sprintf("%s %s;", typ(l), LocName(l)))
	}
	for k, r := range regs {
		out = append(out, fmt.Sprintf("%s %s;", typ(locOf[k]), r))
	}
	return strings.Join(out, " ")
}
