package arch

// MIPS is 64-bit MIPS as herd7 reads it. Its default model is mips, the
// model of herd7's library file mips.cat: program order from a read kept,
// sync a full fence, and no other ordering (writes may pass writes).
var MIPS = &Arch{
	Name:     "MIPS",
	Frontend: frontend("MIPS"),
	Model:    "mips",
	Fences:   []Fence{{"sync", "SYNC"}},
	Doc:      "MIPS, model mips",
}
