package litmus

// SplitBytes makes the mixed-size lowering split locations into bytes (as
// herd7 does) instead of chunks, for the equivalence test.
func SplitBytes(on bool) { splitBytes = on }

// KeepA64Masks leaves every AArch64 W-register extension in the code
// (no a64DropMasks), for the test that compares the answers.
func KeepA64Masks(on bool) { keepA64Masks = on }
