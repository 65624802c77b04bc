package main

import (
	"fmt"

	"github.com/musket-verify/musket/internal/fix"
)

// fixLabel is what musket fix's spinner says while it checks patched
// programs: the check the loop is at, the witnesses met, and the lower
// bound on the repair's cost (the cheapest set meeting their
// constraints).
func fixLabel(name string, pr fix.Progress) string {
	return fmt.Sprintf("%s: check %d, %d witness(es) so far, cost at least %d", name, pr.Checks+1, pr.Witnesses, pr.Bound)
}
