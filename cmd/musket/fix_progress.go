package main

import (
	"fmt"
	"io"

	"github.com/musket-verify/musket/internal/fix"
)

// fixProgress is musket fix's progress line on a terminal: the check the
// loop is at, the witnesses met, and the lower bound on the repair's
// cost (the cheapest set meeting their constraints), redrawn in place
// before each check of a patched program and cleared at the end.
type fixProgress struct {
	w     io.Writer
	on    bool
	shown bool
}

func (p *fixProgress) update(pr fix.Progress) {
	if !p.on {
		return
	}
	fmt.Fprintf(p.w, "\r\033[Kmusket fix: check %d, %d witness(es) so far, cost at least %d", pr.Checks+1, pr.Witnesses, pr.Bound)
	p.shown = true
}

// clear takes the line away (before the answer or an error).
func (p *fixProgress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
