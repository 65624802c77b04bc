package gen

import (
	"fmt"
	"strings"
)

// threadShapes gives, for each thread of t, the directions of its first
// and last accesses ("WR"; "W" for a thread of one access) followed by
// the external communication that leaves it ("WR Fre").
func threadShapes(t *Test) []string {
	parts := make([]string, len(t.Threads))
	for i, evs := range t.Threads {
		first, last := t.Events[evs[0]], t.Events[evs[len(evs)-1]]
		s := string(first.Dir)
		if len(evs) > 1 {
			s += string(last.Dir)
		}
		parts[i] = s + " " + comBase(t.Edges[evs[len(evs)-1]])
	}
	return parts
}

func comBase(e Edge) string {
	switch e.Kind {
	case Rf:
		return "Rfe"
	case Fr:
		return "Fre"
	case Hat:
		return "Hat"
	}
	return "Wse"
}

// families are herd's names of the shapes of cycles (threadShapes, in
// the order the name's tests list their threads), as in the tests of
// Alglave, Maranget, Sarkar and Sewell's papers.
var families = map[string]string{
	"WR Fre WR Fre":               "SB",
	"WW Rfe RR Fre":               "MP",
	"RW Rfe RW Rfe":               "LB",
	"WW Wse WW Wse":               "2+2W",
	"WW Rfe RW Wse":               "S",
	"WW Wse WR Fre":               "R",
	"W Rfe RW Rfe RR Fre":         "WRC",
	"W Rfe RW Rfe RW Wse":         "WWC",
	"W Rfe RR Fre WR Fre":         "RWC",
	"W Rfe RW Wse WR Fre":         "WRW+WR",
	"W Rfe RW Wse WW Wse":         "WRW+2W",
	"W Rfe RR Fre WW Wse":         "WRR+2W",
	"WW Rfe RR Fre WR Fre":        "W+RWC",
	"WW Rfe RW Rfe RR Fre":        "ISA2",
	"WW Rfe RW Wse WR Fre":        "Z6.0",
	"WW Wse WW Rfe RW Wse":        "Z6.1",
	"WW Rfe RW Rfe RW Wse":        "Z6.2",
	"WW Wse WW Rfe RR Fre":        "Z6.3",
	"WW Wse WR Fre WR Fre":        "Z6.4",
	"WW Wse WW Wse WR Fre":        "Z6.5",
	"W Rfe RR Fre W Rfe RR Fre":   "IRIW",
	"W Rfe RR Fre W Rfe RW Wse":   "IRRWIW",
	"W Rfe RW Wse W Rfe RW Wse":   "IRWIW",
	"WR Fre WR Fre WR Fre":        "3.SB",
	"RW Rfe RW Rfe RW Rfe":        "3.LB",
	"WW Wse WW Wse WW Wse":        "3.2W",
	"WR Fre WR Fre WR Fre WR Fre": "4.SB",
	"RW Rfe RW Rfe RW Rfe RW Rfe": "4.LB",
	"WW Wse WW Wse WW Wse WW Wse": "4.2W",
	"1:W Rfe RR Fre":              "CoRR",
	"1:W Rfe RW Wse":              "CoRW2",
	"1:W Wse WR Fre":              "CoWR",
}

// family finds the family of t and the thread its name begins with.
func family(t *Test) (string, int) {
	parts := threadShapes(t)
	for r := range parts {
		k := strings.Join(append(append([]string(nil), parts[r:]...), parts[:r]...), " ")
		if f, ok := families["1:"+k]; ok && t.Locs == 1 {
			// The coherence tests, on one location.
			return f, r
		}
		if f, ok := families[k]; ok {
			return f, r
		}
	}
	return "", 0
}

// Name is herd's name of the test: the family of its shape (SB, MP, ...;
// for a shape without a name, the shapes of its threads: W+RR+WW+RR),
// then, unless every edge inside a thread is a plain program order, what
// orders each thread's accesses ("lwsync", "addr", "rfi-data", "poaa"
// for an acquire pair), one "+" each, or once with an "s" when every
// thread has the same (SB+mfences).
func (t *Test) Name() string {
	fam, _ := family(t)
	if fam == "" {
		parts := threadShapes(t)
		for i := range parts {
			parts[i] = strings.Fields(parts[i])[0]
		}
		fam = strings.Join(parts, "+")
	}
	var descs []string
	allPo := true
	plain := "po"
	if strings.HasPrefix(fam, "Co") {
		plain = "pos"
	}
	lone, loneAnn := "", false
	for _, evs := range t.Threads {
		if len(evs) == 1 {
			a := t.Events[evs[0]].Ann
			if a == "" {
				a = "Na"
			} else {
				loneAnn = true
			}
			lone += a
			continue
		}
		var d []string
		for _, i := range evs[:len(evs)-1] {
			d = append(d, edgeWord(t.Edges[i]))
		}
		descs = append(descs, strings.Join(d, "-"))
		allPo = allPo && descs[len(descs)-1] == plain
	}
	name := fam
	same := len(descs) > 1
	for _, d := range descs {
		same = same && d == descs[0]
	}
	switch {
	case allPo:
	case same:
		name += "+" + descs[0] + "s"
	default:
		name += "+" + strings.Join(descs, "+")
	}
	if loneAnn {
		// The annotations of the threads of one access (Na: plain).
		name += "+" + lone
	}
	if t.Arch != nil && t.Arch.Name == "LKMM" {
		name = "C-" + name // diy's names of the kernel's tests
	}
	return name
}

// edgeWord is the word of an internal edge in names.
func edgeWord(e Edge) string {
	var w string
	switch e.Kind {
	case Po:
		w = "po"
	case Fence:
		w = strings.ToLower(e.Fence)
	case Dep:
		w = strings.ToLower(e.Dep)
	case Rf:
		w = "rfi"
	case Fr:
		w = "fri"
	case Ws:
		w = "wsi"
	case Rmw:
		w = "rmw"
		if e.Amo != "" {
			w = strings.ToLower(e.Amo)
		}
	}
	if e.SameLoc && !e.Com() && e.Kind != Rmw {
		w += "s"
	}
	if e.SrcMix.Size != 0 || e.DstMix.Size != 0 {
		return w + mixWord(e.SrcAnn, e.SrcMix) + mixWord(e.DstAnn, e.DstMix)
	}
	if (e.SrcAnn != "" && e.SrcAnn != "P") || (e.DstAnn != "" && e.DstAnn != "P") {
		w += strings.ToLower(annOrP(e.SrcAnn) + annOrP(e.DstAnn))
	}
	return w
}

func annOrP(a string) string {
	if a == "" {
		return "p"
	}
	return a
}

// Com is diy's Com= header line: for each thread in order, the kind of
// the external communication that leaves it (Rf, Fr or Ws; a Hat, two
// reads of one write, counts as Fr).
func (t *Test) Com() string {
	var ws []string
	for _, evs := range t.Threads {
		e := t.Edges[evs[len(evs)-1]]
		if e.Detour < 0 {
			continue // a detour's thread: diy lists the others
		}
		ws = append(ws, "")
		i := len(ws) - 1
		switch e.Kind {
		case Rf:
			ws[i] = "Rf"
		case Fr, Hat:
			ws[i] = "Fr"
		default:
			ws[i] = "Ws"
		}
	}
	return strings.Join(ws, " ")
}

// Prefetch is diy's Prefetch= header line: for each thread of two
// accesses or more to two locations, its first location marked F and its
// last marked W (the thread leaves by a write: Rf, Ws) or T (by a read:
// Fr, Hat); threads numbered without the detours' threads, which it
// leaves out.
func (t *Test) Prefetch() string {
	var out []string
	id := -1
	for _, evs := range t.Threads {
		e := t.Edges[evs[len(evs)-1]]
		if e.Detour < 0 {
			continue
		}
		id++
		if len(evs) < 2 {
			continue
		}
		f, l := t.Events[evs[0]], t.Events[evs[len(evs)-1]]
		if f.Loc == l.Loc {
			continue
		}
		k := "W"
		if e.Kind == Fr || e.Kind == Hat {
			k = "T"
		}
		out = append(out, fmt.Sprintf("%d:%s=F,%d:%s=%s", id, LocName(f.Loc), id, LocName(l.Loc), k))
	}
	return strings.Join(out, ",")
}
