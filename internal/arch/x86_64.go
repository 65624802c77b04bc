package arch

// X86_64 is herd's X86_64 dialect (AT&T syntax, sized accesses) under
// x86-TSO, as X86.
var X86_64 = &Arch{
	Name:     "X86_64",
	Frontend: frontend("X86_64"),
	Model:    "tso",
	Fences:   []Fence{{"MFENCE", "MFENCE"}, {"LFENCE", "LFENCE"}, {"SFENCE", "SFENCE"}},
	Doc:      "x86-64 (AT&T syntax), model tso",
}
