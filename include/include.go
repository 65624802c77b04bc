// Package include holds the C headers Musket ships (musket/lkmm.h, and
// genmc.h for programs written for GenMC), so
// that the C front-end finds them wherever the executable runs.
package include

import "embed"

// FS holds the headers: musket/*.h and genmc.h.
//
//go:embed musket/*.h genmc.h
var FS embed.FS
