package prog

// Defs lists the registers an instruction writes (empty names left out):
// the destination of a load, read-modify-write, assignment, arbitrary
// value or located operation, and a store-conditional's status.
func Defs(in Instr) []string {
	var r string
	switch in := in.(type) {
	case Load:
		r = in.Dst
	case RMW:
		r = in.Dst
	case StoreCond:
		r = in.Status
	case Assign:
		r = in.Dst
	case Havoc:
		r = in.Dst
	case Located:
		r = in.Dst
	}
	if r == "" {
		return nil
	}
	return []string{r}
}

// AddrOf is the address expression of a memory access (a load, store,
// read-modify-write or store-conditional); ok is false for any other
// instruction.
func AddrOf(in Instr) (addr Expr, ok bool) {
	switch in := in.(type) {
	case Load:
		return in.Addr, true
	case Store:
		return in.Addr, true
	case RMW:
		return in.Addr, true
	case StoreCond:
		return in.Addr, true
	}
	return nil, false
}
