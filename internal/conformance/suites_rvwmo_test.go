package conformance

// The RISC-V suites. This file is not named suites_riscv_test.go: the
// suffix _riscv is a GOARCH build constraint, and the go tool would leave
// the file out. The built-in model checks the whole folder; herd's model
// every 3rd test by default, Dat3M's every 4th, at different offsets (all
// of them with MUSKET_LONG=1).
func init() {
	suites = append(suites,
		suite{name: "RISCV/riscv", dir: "litmus/RISCV", model: "riscv", expect: "litmus/expected/RISCV.csv"},
		suite{name: "RISCV/herd-riscv.cat", dir: "litmus/RISCV", model: corpus + "/cat/herd/riscv.cat", expect: "litmus/expected/RISCV.csv", sample: 3, offset: 1},
		suite{name: "RISCV/dat3m-riscv.cat", dir: "litmus/RISCV", model: corpus + "/cat/dat3m/riscv.cat", expect: "litmus/expected/RISCV.csv", sample: 4, offset: 2},
	)
}
