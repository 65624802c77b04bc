package fix

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestKillTest repairs inputs with the kill test and without it: the same
// fix, no more checks with it, and its replays counted.
func TestKillTest(t *testing.T) {
	tests := []struct {
		file, target, engine string
		bound                int
		long                 bool // behind MUSKET_LONG (C programs of seconds)
	}{
		{file: "SB.x86.litmus"},
		{file: "MP.ppc.litmus"},
		{file: "IRIW.ppc.litmus"},
		{file: "LB.riscv.litmus"},
		{file: "MP.c.litmus"},
		{file: "dekker.pts", target: "aarch64", engine: "enum", bound: 1},
		// C programs (cfront.Replay): their assertions' witnesses
		// replayed on the patched program compiled by clang.
		{file: "../../../examples/c/ttas-bug.c", engine: "smt"},
		{file: "../../../examples/c/mcs-bug.c", engine: "smt", long: true},
		{file: "../../../examples/c/rwlock-bug.c", engine: "smt", long: true},
		{file: "../../../examples/c/ttas-bug.c", target: "aarch64", engine: "smt", long: true},
	}
	for _, tc := range tests {
		name := filepath.Base(tc.file)
		if tc.target != "" {
			name += "/" + tc.target
		}
		if tc.long && !long {
			continue // a repair of seconds: MUSKET_LONG=1 runs it
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			bound := tc.bound
			if bound == 0 {
				bound = 2
			}
			run := func(kill bool) *Outcome {
				t.Helper()
				was := killTest
				killTest = kill
				defer func() { killTest = was }()
				s, err := New(path, src, Options{Bound: bound, Target: tc.target, Engine: tc.engine})
				if err != nil {
					t.Fatal(err)
				}
				out, err := Repair(context.Background(), s, 0)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			with, without := run(true), run(false)
			if changes(with) != changes(without) || with.Cost != without.Cost {
				t.Errorf("with the kill test %q cost %d, without %q cost %d", changes(with), with.Cost, changes(without), without.Cost)
			}
			if with.Checks > without.Checks || with.Replays == 0 || without.Replays != 0 {
				t.Errorf("checks %d with (%d replays), %d without (%d replays)", with.Checks, with.Replays, without.Checks, without.Replays)
			}
			t.Logf("checks %d -> %d (%d replays, %d checks saved, %d candidates pruned)", without.Checks, with.Checks, with.Replays, with.Revived, with.Pruned)
		})
	}
}

// TestShrink: the kill test makes a store-buffering witness's constraint
// under x86-TSO a single mfence (one alone does not forbid it), where the
// static test offers both (the costs leave out the locked store, whose
// RMW the replay cannot rebuild from a plain store's witness).
func TestShrink(t *testing.T) {
	path := filepath.Join("testdata", "SB.x86.litmus")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	costs, err := ParseCosts("costs", []byte("x86 mfence 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(path, src, Options{Bound: 2, Costs: costs})
	if err != nil {
		t.Fatal(err)
	}
	bad, w, err := s.Check(context.Background(), nil)
	if err != nil || !bad || w == nil || w.pin == nil {
		t.Fatalf("check: bad %v, witness %v, err %v", bad, w, err)
	}
	cands := s.Candidates()
	var con []int
	for i, c := range cands {
		if relevant(c, w) {
			con = append(con, i)
		}
	}
	cons := [][]int{con}
	dropped, replays, err := shrink(context.Background(), replayable(s), cands, nil, []*Witness{w}, cons)
	if err != nil {
		t.Fatal(err)
	}
	if len(con) != 2 || len(cons[0]) != 1 || cands[cons[0][0]].Name != "mfence" || dropped != 1 || replays == 0 {
		t.Errorf("constraint %v -> %v (%d dropped, %d replays)", con, cons[0], dropped, replays)
	}
}
