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

// cpuTimeAll is cpuTime with the user CPU time of the child processes
// waited for (clang-14, for C programs).
func cpuTimeAll() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return cpuTime()
	}
	return cpuTime() + time.Duration(ru.Utime.Nano())
}
