package arch

// RISCV is RISC-V under RVWMO.
var RISCV = &Arch{
	Name:     "RISCV",
	Aliases:  []string{"RISC-V"},
	Frontend: frontend("RISCV"),
	Model:    "riscv",
	Target:   "riscv",
	Fences: []Fence{{"fence rw,rw", "Fence.rw.rw"}, {"fence r,rw", "Fence.r.rw"}, {"fence rw,w", "Fence.rw.w"},
		{"fence r,r", "Fence.r.r"}, {"fence w,w", "Fence.w.w"}, {"fence.tso", "Fence.tso"}, {"fence.i", "Fence.i"}},
	Doc: "RISC-V, model riscv (RVWMO)",
}
