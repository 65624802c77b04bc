//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the user CPU time the process has used so far (0 where the
// system does not say): the benches print it beside wall times, which a
// loaded machine stretches.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano())
}
