//go:build !linux

package main

// resetPeakMemory does nothing here: the peak is Linux's VmHWM.
func resetPeakMemory() {}

// peakMemoryMB is unknown here (0).
func peakMemoryMB() float64 { return 0 }
