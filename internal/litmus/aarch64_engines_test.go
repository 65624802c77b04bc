package litmus_test

import (
	"os"
	"testing"
	"time"
)

// TestAArch64InstructionLitmus runs the litmus tests of
// testdata/aarch64 (sign-extending loads, pre/post-indexed accesses,
// data-processing instructions, atomic minimum and maximum, LDP and
// STP) under the
// built-in aarch64 model. Each test's file says why its verdict is the
// right one. The SMT engine must find the same states, but for the
// tests marked noSMT (they make it reason about many values
// converted between integers and bit-vectors, which takes it minutes;
// LDSMAX+LDUMIN runs under MUSKET_LONG=1).
func TestAArch64InstructionLitmus(t *testing.T) {
	long := os.Getenv("MUSKET_LONG") != ""
	runEngineCases(t, "aarch64", "AArch64", "aarch64", 120*time.Second, []engineCase{
		{file: "ALU+more", ok: true, states: 1},
		{file: "LDRSW", ok: true, states: 1},
		{file: "LDRS+mixed", ok: true, states: 1, noSMT: true},
		{file: "MP+dmb.sy+preidx", ok: false, states: 3},
		{file: "MP+dmb.sy+postidx-po", ok: true, states: 4},
		{file: "LDSMAX+LDUMIN", ok: false, states: 2, noSMT: !long},
		{file: "MINMAX+widths", ok: true, states: 1, noSMT: true},
		{file: "MP+stp+ldp", ok: true, states: 4},
		{file: "STP+LDP+po", ok: false, states: 1},
		{file: "MP+rel+ctrl-swp-lrs-acq", ok: true, states: 4},
		{file: "IDX+unset", ok: true, states: 1},
		{file: "CMN+W-min", ok: true, states: 1},
		{file: "STRB+signed", ok: true, states: 1},
		{file: "ARRAY+values", ok: true, states: 1},
		{file: "FLAGS", ok: true, states: 1},
		{file: "W+negative", ok: true, states: 1},
		{file: "EXTR+ADDLSL", ok: true, states: 1},
		{file: "PCREL", ok: true, states: 1},
		{file: "W+overflow", ok: true, states: 1},
		{file: "MP+rel+SWPA-zr", ok: true, states: 6},
		{file: "ARRAY+whole", ok: true, states: 2},
		{file: "ELEM+SP+XZR", ok: true, states: 1},
		{file: "SYMREG", ok: true, states: 1},
		{file: "MP+dmb.st+LDIAPP-po", ok: false, states: 3},
		{file: "MP+STILP+addr", ok: false, states: 3},
		{file: "ANDS+BICS", ok: true, states: 1},
	})
}

// TestAArch64PickLitmus runs the litmus tests of testdata/aarch64 on
// herd7 7.58's pick dependencies (CSEL, CAS; aarch64_pick.go) under the
// built-in aarch64 model with both engines, which must agree, and, where
// the corpus' reference library is beside it, under herd7 7.58's own
// aarch64.cat (its pick relations through lrs come from Musket's
// catdep definitions, package cat). Each file says why its verdict is
// the right one.
func TestAArch64PickLitmus(t *testing.T) {
	cases := []engineCase{
		{file: "LB+csel-unselected", ok: true, states: 4},
		{file: "MP+csel-flags-addr", ok: true, states: 4},
		{file: "LB+csel-flags-data", ok: false, states: 2},
		{file: "MP+cas-ok-addr", ok: true, states: 4},
		{file: "LB+cas-rs-pick", ok: false, states: 3},
		{file: "LB+csel-addr-po", ok: false, states: 3},
		{file: "LB+csel-data-lrs", ok: false, states: 3},
		{file: "LB+csel-ctrl", ok: false, states: 3},
		{file: "MP+csel-unselected-ctrl", ok: true, states: 4},
		{file: "LB+csel-lrs-acq", ok: false, states: 3},
		{file: "LB+cas-rs-either", ok: true, states: 4},
		{file: "LB+cas-fail-rs-either", ok: true, states: 4},
	}
	runEngineCasesHerd(t, "aarch64", "AArch64", "aarch64", 120*time.Second, cases)
}
