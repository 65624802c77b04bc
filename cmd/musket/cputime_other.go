//go:build !unix

package main

import "time"

// cpuTime is the user CPU time the process has used so far: unknown here.
func cpuTime() time.Duration { return 0 }
