package litmus

import (
	"fmt"

	"github.com/musket-verify/musket/internal/result"
)

// MaxThreadCode is the most instructions (cells) a thread of a litmus
// test may have: the explicit engine's symbolic execution refuses more
// (symexec.MaxCode, which TestCodeLimits checks is the same), and the
// other engines would need hours, as herd7 would. MaxTestCode is the most
// of all threads together.
//
// The parser stops at these bounds as it reads the thread table, with a
// limit (exit status 3), not bad input: parsing and preparing a test cost
// about 100–180 bytes of memory per byte of input, so a 50 MB test of
// 3.6 million instructions used to reach the 8 GiB memory limit, and its
// parse and preparation did not look at the time limit. Stopping after
// at most MaxTestCode cells bounds that work to well under a second and a
// few hundred MB.
//
// MaxInit bounds the entries of the initial state in the same way: each
// is a location or register every engine prepares, and 2.5 million of
// them (a 29 MB test) kept a run 9 s past -timeout 5s, at 3.9 GB.
const (
	MaxThreadCode = 1 << 16
	MaxTestCode   = 1 << 18
	MaxInit       = 1 << 16
)

// codeLimit records that the test at off passes one of these bounds, and
// stops the parse.
func (p *parser) codeLimit(off int, what string) {
	p.limit = &codeLimitError{at: p.sc.pos(off).String(), what: what}
	panic(bailout{})
}

// codeLimitError is a test refused for its size: a result.ErrLimit.
type codeLimitError struct{ at, what string }

func (e *codeLimitError) Error() string {
	return fmt.Sprintf("%s: %s: too large to check (a limit, not an error in the test)", e.at, e.what)
}

func (e *codeLimitError) Unwrap() error { return result.ErrLimit }
