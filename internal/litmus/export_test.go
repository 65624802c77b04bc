package litmus

// SplitBytes makes the mixed-size lowering split locations into bytes (as
// herd7 does) instead of chunks, for the equivalence test.
func SplitBytes(on bool) { splitBytes = on }
