package arch

// PPC is IBM Power.
var PPC = &Arch{
	Name:     "PPC",
	Aliases:  []string{"Power"},
	Frontend: frontend("PPC"),
	Model:    "power",
	Target:   "power",
	Fences:   []Fence{{"sync", "SYNC"}, {"lwsync", "LWSYNC"}, {"isync", "ISYNC"}, {"eieio", "EIEIO"}},
	Doc:      "IBM Power, model power",
}
