package arch

import "github.com/musket-verify/musket/internal/compile"

// PPC is IBM Power.
var PPC = &Arch{
	Name:     "PPC",
	Aliases:  []string{"Power"},
	Frontend: frontend("PPC"),
	Model:    "power",
	Target:   compile.Power,
	Fences:   []Fence{{"sync", "SYNC"}, {"lwsync", "LWSYNC"}, {"isync", "ISYNC"}, {"eieio", "EIEIO"}},
	Doc:      "IBM Power, model power",
}
