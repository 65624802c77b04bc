package arch

// X86 is x86 under x86-TSO (Sewell, Sarkar, Owens, Zappa Nardelli,
// Myreen, "x86-TSO", CACM 2010).
var X86 = &Arch{
	Name:     "X86",
	Frontend: frontend("X86"),
	Model:    "tso",
	Target:   "x86",
	Fences:   []Fence{{"MFENCE", "MFENCE"}, {"LFENCE", "LFENCE"}, {"SFENCE", "SFENCE"}},
	Doc:      "x86 (Intel syntax), model tso",
}
