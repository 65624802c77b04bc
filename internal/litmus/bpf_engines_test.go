package litmus_test

import (
	"testing"
	"time"
)

// TestBPFLitmus runs the BPF tests of testdata/bpf with both engines
// under the built-in model bpf and, when the corpus' reference library is
// present, under herd7 7.58's own bpf.cat read by the cat interpreter:
// release and acquire order a message, the atomics that return a value
// (xchg, atomic_fetch_*) are full fences and lock is none, one of two
// cmpxchg from the same value fails, and dependencies keep load buffering
// out.
func TestBPFLitmus(t *testing.T) {
	cases := []engineCase{
		{file: "MP", ok: true, states: 4},
		{file: "MP+rel+acq", ok: false, states: 3},
		{file: "SB+xchg+fetch", ok: false, states: 3},
		{file: "SB+lock", ok: true, states: 4},
		{file: "CMPXCHG", ok: false, states: 2},
		{file: "LB+ctrl+data", ok: false, states: 1},
		{file: "ALU", ok: true, states: 1},
	}
	runEngineCasesHerd(t, "bpf", "BPF", "bpf", 60*time.Second, cases)
}
