package arch

// AArch64 is ARMv8 in its 64-bit state.
var AArch64 = &Arch{
	Name:     "AArch64",
	Aliases:  []string{"ARMv8", "ARM64"},
	Frontend: frontend("AArch64"),
	Model:    "aarch64",
	Target:   "aarch64",
	Fences: []Fence{{"DMB SY", "DMB.SY"}, {"DMB ISH", "DMB.ISH"}, {"DMB LD", "DMB.LD"}, {"DMB ST", "DMB.ST"},
		{"DSB SY", "DSB.SY"}, {"ISB", "ISB"}},
	Doc: "ARMv8 AArch64, model aarch64",
}
