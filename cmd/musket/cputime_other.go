//go:build !unix

package main

import "time"

// cpuTime is the user CPU time the process has used so far: unknown here.
func cpuTime() time.Duration { return 0 }

// cpuTimeAll is cpuTime with the child processes: unknown here.
func cpuTimeAll() time.Duration { return 0 }
