package conformance

func init() {
	suites = append(suites,
		suite{name: "X86/tso", dir: "litmus/X86", model: "tso", expect: "litmus/expected/TSO.csv"},
		suite{name: "X86/herd-x86tso.cat", dir: "litmus/X86", model: corpus + "/cat/herd/x86tso.cat", expect: "litmus/expected/TSO.csv"},
		suite{name: "X86/dat3m-tso.cat", dir: "litmus/X86", model: corpus + "/cat/dat3m/tso.cat", expect: "litmus/expected/TSO.csv"},
	)
}
