package prog

// Havoc sets register Dst to an arbitrary value, chosen by the engine
// (the "v := *" of Maleehuan's JAIST 2018 thesis,
// Chapter 4): no memory event, no dependency.
// The inductive-invariant method (internal/prove) uses it for the
// registers of an arbitrary loop iteration and for the values the reads
// of the iterations it abstracts returned. The SMT engine gives Dst a
// fresh unconstrained integer; the explicit engine, which enumerates
// values, does not support it and says so.
type Havoc struct{ Dst string }

func (Havoc) isInstr() {}

// String prints the instruction as InstrString prints the others.
func (h Havoc) String() string { return h.Dst + " = *" }
