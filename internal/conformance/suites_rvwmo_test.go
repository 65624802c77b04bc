package conformance

// The RISC-V suites. This file is not named suites_riscv_test.go: the
// suffix _riscv is a GOARCH build constraint, and the go tool would leave
// the file out. By default the built-in model checks every other test,
// herd's model every 3rd, Dat3M's every 8th, at different offsets (all of
// them with MUSKET_LONG=1; Dat3M's model takes about 5 s on Luc01+Rlx
// alone, which its default offset leaves to the long run).
func init() {
	suites = append(suites,
		suite{name: "RISCV/riscv", dir: "litmus/RISCV", model: "riscv", expect: "litmus/expected/RISCV.csv", sample: 2},
		suite{name: "RISCV/herd-riscv.cat", dir: "litmus/RISCV", model: corpus + "/cat/herd/riscv.cat", expect: "litmus/expected/RISCV.csv", sample: 3, offset: 1},
		suite{name: "RISCV/dat3m-riscv.cat", dir: "litmus/RISCV", model: corpus + "/cat/dat3m/riscv.cat", expect: "litmus/expected/RISCV.csv", sample: 8, offset: 6},
	)
}
