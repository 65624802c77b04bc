package cat

import "strings"

// herd7's catdep: a model file that says catdep (herd's aarch64deps.cat)
// computes the dependency relations addr, data and ctrl itself, from the
// register events of herd's instruction semantics (Rreg, Wreg, same-gpr,
// iico_data, BCC). Musket's executions have no register events: its
// engines compute addr, data and ctrl from each thread's register data
// flow, as herd does for the models without catdep. So in a catdep file
// the top-level lets of these three names are dropped and the
// execution's relations stand; every other let of the file is kept (its
// register-event sets are empty, see emptyByDefault). So do herd 7.58's
// pick dependencies (pick-addr-dep, pick-data-dep, pick-ctrl-dep,
// pick-basic-dep, pick-dep), which the engines compute with the others
// (package event, pick.go).

// executionDeps are the relations a catdep file's own lets do not replace.
var executionDeps = map[string]bool{"addr": true, "data": true, "ctrl": true,
	"pick-addr-dep": true, "pick-data-dep": true, "pick-ctrl-dep": true, "pick-basic-dep": true, "pick-dep": true}

// keepExecutionDeps drops, from a catdep file, the bindings of the top-level
// lets that define addr, data or ctrl.
func keepExecutionDeps(f *File) {
	if !f.Catdep {
		return
	}
	out := f.Stmts[:0]
	pickAt := -1 // where the file defined its first pick relation
	for _, st := range f.Stmts {
		if let, ok := st.(*LetStmt); ok && !let.Rec {
			binds := let.Binds[:0]
			for _, b := range let.Binds {
				if len(b.Pat.Names) == 1 && !b.Pat.Tuple && executionDeps[b.Pat.Names[0]] {
					if _, fun := b.Value.(*FunExpr); !fun {
						if pickAt < 0 && strings.HasPrefix(b.Pat.Names[0], "pick-") {
							pickAt = len(out)
						}
						continue
					}
				}
				binds = append(binds, b)
			}
			if len(binds) == 0 {
				continue
			}
			let.Binds = binds
		}
		out = append(out, st)
	}
	if pickAt >= 0 {
		out = append(out[:pickAt], append(pickThroughMemory(), out[pickAt:]...)...)
	}
	f.Stmts = out
}

// pickThroughMemorySrc extends the execution's pick relations, which
// follow registers only, through memory as herd7 7.58's do: its
// pick-dtrm, the steps a pick dependency is made of, has lrs (a read
// taking its value from the latest write of its thread to the same
// location). So a read the address or the value of such a write depends
// on, fully or by a pick, reaches the later read (pick-basic-dep relates
// them) and, through it, whatever that read reaches. Musket's own model
// writes the same chains out (its pick-lrs); a catdep file, whose own
// definitions are dropped, gets them here, where it defined its first
// pick relation. A chain of full dependencies only adds pairs that a
// model's locally-ordered-before already orders (dob has
// (addr | data); lrs).
const pickThroughMemorySrc = `
let musket-pick-lrs = [W]; ((po & loc) \ ((po & loc); [W]; (po & loc))); [R]
let musket-pick-mem = (pick-basic-dep; musket-pick-lrs)+
let pick-addr-dep = musket-pick-mem?; pick-addr-dep
let pick-data-dep = musket-pick-mem?; pick-data-dep
let pick-ctrl-dep = musket-pick-mem?; pick-ctrl-dep
let pick-basic-dep = pick-addr-dep | pick-data-dep | musket-pick-mem
let pick-dep = pick-basic-dep | pick-ctrl-dep
`

// pickThroughMemory is pickThroughMemorySrc's statements.
func pickThroughMemory() []Stmt {
	f, err := ParseFile("(Musket's catdep pick relations)", []byte(pickThroughMemorySrc))
	if err != nil {
		panic(err) // a constant that parses
	}
	return f.Stmts
}

// herd's aarch64.cat also names the events and relations of its register
// semantics and of features Musket does not model (memory tagging,
// translation tables, cache maintenance, instruction fetch, exceptions):
// in Musket's executions these are empty.
var (
	aarch64EmptySets = []string{
		"Rreg", "Wreg", "BCC", "T", "TagCheck", "FAULT", "SPURIOUS",
		"EXC-ENTRY", "EXC-RET", "SVC", "TLBI", "TLBInXS", "TLBIIS", "PTEXS",
		"DC.CVAU", "IC.IALLUIS", "IC.IALLU", "IC.IVAU",
	}
	aarch64EmptyRels = []string{"rf-reg", "iico_order", "PTEtoPA", "same-low-order-bits"}
)

func init() {
	for _, n := range aarch64EmptySets {
		emptyByDefault[n] = true
	}
	for _, n := range aarch64EmptyRels {
		emptyRelByDefault[n] = true
	}
}
