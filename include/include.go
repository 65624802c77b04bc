// Package include holds the C headers Musket ships (musket/lkmm.h), so
// that the C front-end finds them wherever the executable runs.
package include

import "embed"

// FS holds the headers, under musket/.
//
//go:embed musket/*.h
var FS embed.FS
