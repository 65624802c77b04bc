//go:build !linux

package main

// hugeHeap does nothing where huge pages are not asked for by madvise.
func hugeHeap() {}
