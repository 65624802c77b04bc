//go:build linux

package main

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// resetPeakMemory starts a new peak of the process's resident memory
// (Linux: "5" to /proc/self/clear_refs resets VmHWM), so that
// peakMemoryMB measures one cell of a bench. The free heap goes back to
// the system first: the peak starts from what the process still holds.
func resetPeakMemory() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakMemoryMB is the peak resident memory of the process since the
// last resetPeakMemory, in megabytes (0 when unknown).
func peakMemoryMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest) // "123456 kB"
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseFloat(f[0], 64); err == nil {
					return kb / 1024
				}
			}
		}
	}
	return 0
}
