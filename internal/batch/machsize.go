package batch

import (
	"fmt"

	"github.com/musket-verify/musket/internal/spec"
)

// checkMachSize refuses a mixed-size test with an access smaller than
// unit bytes (a .cfg file's machsize; 0 or 1 accept every test), as
// herd7 does: it splits the accesses into units of that size and stops
// on a smaller one. A test of one size per location is not split, by
// herd7 as by Musket, and is accepted.
func checkMachSize(t *spec.Test, unit int) error {
	if unit <= 1 || !t.Mixed || t.MinAccess == 0 || t.MinAccess >= int64(unit) {
		return nil
	}
	return fmt.Errorf("%s: an access of %d byte(s), smaller than the configuration's machsize (%d bytes): herd7 rejects such a test", t.File, t.MinAccess, unit)
}
