package arch

// SPARC is SPARC v8/v9 assembly. SPARC machines run TSO (the model of
// the SPARC Architecture Manual), which is its default model; it has no
// compilation target.
var SPARC = &Arch{
	Name:     "SPARC",
	Frontend: frontend("SPARC"),
	Model:    "tso",
	Fences: []Fence{{"membar #LoadLoad", "LoadLoad"}, {"membar #StoreLoad", "StoreLoad"},
		{"membar #LoadStore", "LoadStore"}, {"membar #StoreStore", "StoreStore"}, {"membar", "MEMBAR"}, {"stbar", "STBAR"}},
	Doc: "SPARC, model tso",
}
