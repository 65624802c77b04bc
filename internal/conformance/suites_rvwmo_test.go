package conformance

// The RISC-V suites. This file is not named suites_riscv_test.go: the
// suffix _riscv is a GOARCH build constraint, and the go tool would leave
// the file out. Each suite takes well under a minute on 2 cores: no long
// variant; Dat3M's model (13 s) checks every 4th test by default, all of
// them with MUSKET_LONG=1.
func init() {
	suites = append(suites,
		suite{name: "RISCV/riscv", dir: "litmus/RISCV", model: "riscv", expect: "litmus/expected/RISCV.csv"},
		suite{name: "RISCV/herd-riscv.cat", dir: "litmus/RISCV", model: corpus + "/cat/herd/riscv.cat", expect: "litmus/expected/RISCV.csv"},
		suite{name: "RISCV/dat3m-riscv.cat", dir: "litmus/RISCV", model: corpus + "/cat/dat3m/riscv.cat", expect: "litmus/expected/RISCV.csv", sample: 4},
	)
}
