package fix

import (
	"strings"

	"github.com/musket-verify/musket/internal/compile"
)

// effect is what a stronger .pts access orders in its thread, by the code
// its memory order compiles to on the target: pairs (a, b) of events of
// the thread, a po-before b, around the access's instance e, whose kinds
// (R, W; 0 unknown) ok accepts. A fence before the access orders the
// events before it with the access and those after; a fence after it the
// access and the events before with those after; AArch64's LDAR the
// access with the events after it (and an earlier STLR with it), STLR the
// events before it with the access (and it with a later LDAR).
type effect struct {
	aBefore, aAt, bAt, bAfter bool
	ok                        func(ka, kb byte) bool
}

func isR(k byte) bool { return k == 0 || k == 'R' }
func isW(k byte) bool { return k == 0 || k == 'W' }

func anyPair(_, _ byte) bool { return true }

// fencePairs is, by mnemonic, the pairs of kinds a fence orders (the
// models' definitions: Power's lwsync and RISC-V's fence.tso all but a
// write before a read, RISC-V's fence PRED,SUCC and AArch64's DMB ISHLD /
// ISHST their sets); a fence not named orders every pair.
var fencePairs = map[string]func(ka, kb byte) bool{
	"lwsync":      func(ka, kb byte) bool { return !(ka == 'W' && kb == 'R') },
	"fence.tso":   func(ka, kb byte) bool { return !(ka == 'W' && kb == 'R') },
	"fence r,rw":  func(ka, _ byte) bool { return isR(ka) },
	"fence rw,w":  func(_, kb byte) bool { return isW(kb) },
	"fence r,r":   func(ka, kb byte) bool { return isR(ka) && isR(kb) },
	"fence w,w":   func(ka, kb byte) bool { return isW(ka) && isW(kb) },
	"fence r,w":   func(ka, kb byte) bool { return isR(ka) && isW(kb) },
	"fence w,r":   func(ka, kb byte) bool { return isW(ka) && isR(kb) },
	"fence w,rw":  func(ka, _ byte) bool { return isW(ka) },
	"fence rw,r":  func(_, kb byte) bool { return isR(kb) },
	"dmb ishld":   func(ka, _ byte) bool { return isR(ka) },
	"dmb ishst":   func(ka, kb byte) bool { return isW(ka) && isW(kb) },
	"dmb st":      func(ka, kb byte) bool { return isW(ka) && isW(kb) },
	"sync":        anyPair,
	"mfence":      anyPair,
	"dmb":         anyPair,
	"dmb ish":     anyPair,
	"fence rw,rw": anyPair,
}

// effectsOf is the effects of an access compiled to steps (the access
// step and the fences around it). Unknown instructions order every pair on both sides (the
// relevance test of a stronger access without effects).
func effectsOf(steps []compile.Step) []effect {
	var out []effect
	seen := false
	for _, st := range steps {
		m := strings.ToLower(st.Mnemonic)
		if st.Access {
			seen = true
			switch m {
			case "ldar":
				out = append(out, effect{aAt: true, bAfter: true, ok: anyPair},
					effect{aBefore: true, bAt: true, ok: func(ka, _ byte) bool { return isW(ka) }})
			case "stlr":
				out = append(out, effect{aBefore: true, bAt: true, ok: anyPair},
					effect{aAt: true, bAfter: true, ok: func(_, kb byte) bool { return isR(kb) }})
			}
			continue
		}
		ok, known := fencePairs[m]
		if !known {
			return nil
		}
		if seen {
			out = append(out, effect{aBefore: true, aAt: true, bAfter: true, ok: ok})
		} else {
			out = append(out, effect{aBefore: true, bAt: true, bAfter: true, ok: ok})
		}
	}
	return out
}

// relevantEffects is relevant for a stronger access with known effects:
// some pair it orders around an instance of the access lies on a cycle
// of po and communication of w.
func relevantEffects(c Cand, w *Witness) bool {
	for e, ev := range w.Events {
		if ev.Line != c.Line || ev.Thread < 0 || (c.Thread >= 0 && ev.Thread != c.Thread) {
			continue
		}
		for a, av := range w.Events {
			if av.Thread != ev.Thread {
				continue
			}
			for b, bv := range w.Events {
				if bv.Thread != ev.Thread || a == b || !w.Reach[b][a] {
					continue
				}
				for _, f := range c.effects {
					aOK := (a == e && f.aAt) || (a != e && f.aBefore && w.Po[a][e])
					bOK := (b == e && f.bAt) || (b != e && f.bAfter && w.Po[e][b])
					if aOK && bOK && f.ok(av.Kind, bv.Kind) {
						return true
					}
				}
			}
		}
	}
	return false
}
