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
