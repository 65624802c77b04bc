package param

import "github.com/musket-verify/musket/internal/source"

// Error is a problem found at a position of a .cub file; ErrorList is a
// list of them, printed "file:line:col: msg" one a line (package source).
type (
	Error     = source.Error
	ErrorList = source.ErrorList
)
