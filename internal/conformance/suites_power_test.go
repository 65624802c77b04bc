package conformance

// The PPC suites. This file is not named suites_ppc_test.go: the suffix
// _ppc is a GOARCH build constraint, and the go tool would leave the file
// out. The built-in model checks the whole folder; herd's and Dat3M's
// models every 3rd test by default, at different offsets (the whole
// folder with MUSKET_LONG=1).
func init() {
	suites = append(suites,
		suite{name: "PPC/power", dir: "litmus/PPC", model: "power", expect: "litmus/expected/PPC.csv"},
		suite{name: "PPC/herd-ppc.cat", dir: "litmus/PPC", model: corpus + "/cat/herd/ppc.cat", expect: "litmus/expected/PPC.csv", sample: 3, offset: 1},
		suite{name: "PPC/dat3m-power.cat", dir: "litmus/PPC", model: corpus + "/cat/dat3m/power.cat", expect: "litmus/expected/PPC.csv", sample: 3, offset: 2},
	)
}
