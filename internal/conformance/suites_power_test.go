package conformance

// The PPC suites. This file is not named suites_ppc_test.go: the suffix
// _ppc is a GOARCH build constraint, and the go tool would leave the file
// out. Each suite takes under 10 s on 2 cores: no long variant.
func init() {
	suites = append(suites,
		suite{name: "PPC/power", dir: "litmus/PPC", model: "power", expect: "litmus/expected/PPC.csv"},
		suite{name: "PPC/herd-ppc.cat", dir: "litmus/PPC", model: corpus + "/cat/herd/ppc.cat", expect: "litmus/expected/PPC.csv"},
		suite{name: "PPC/dat3m-power.cat", dir: "litmus/PPC", model: corpus + "/cat/dat3m/power.cat", expect: "litmus/expected/PPC.csv"},
	)
}
