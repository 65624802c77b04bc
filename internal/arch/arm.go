package arch

// ARM is ARMv7 (herd7's header word ARM).
var ARM = &Arch{
	Name:     "ARM",
	Aliases:  []string{"ARMv7"},
	Frontend: frontend("ARM"),
	Model:    "armv7",
	Target:   "armv7",
	Fences: []Fence{{"DMB", "DMB"}, {"DMB ISH", "DMB.ISH"}, {"DMB ST", "DMB.ST"}, {"DSB", "DSB"},
		{"DSB ISH", "DSB.ISH"}, {"ISB", "ISB"}},
	Doc: "ARMv7, model armv7",
}
