package conformance

// The AArch64 suites, against herd's ARM8 verdicts. Our built-in model and
// Dat3M's aarch64.cat check the whole folder in about 15 s each on 2
// cores, the 1355 mixed-size tests of mixed/ in about 10 s of it; by
// default the built-in model checks every 3rd test (of mixed/, every 9th),
// Dat3M's model every 8th at another offset (all with MUSKET_LONG=1), so
// that the default run of the whole package stays within its share of the
// 3-minute budget. herd's aarch64.cat is slower (about 90 s without
// mixed/: ATOM and RPLUS, whose load/store exclusives branch, take 50 s,
// PPO 33 s; mixed/ about 30 s, with the "cos-opt" co generation that
// mixed-size tests run with): the whole folder runs only with
// MUSKET_LONG=1, and the default run checks it on every other folder but
// mixed (1370 tests, about 6 s).
func init() {
	const dir, expect = "litmus/AARCH64", "litmus/expected/ARM8.csv"
	herd := corpus + "/cat/herd/aarch64.cat"
	suites = append(suites,
		suite{name: "AARCH64/aarch64", dir: dir, model: "aarch64", expect: expect, sample: 3, thin: map[string]int{"mixed": 3}},
		suite{name: "AARCH64/dat3m-aarch64.cat", dir: dir, model: corpus + "/cat/dat3m/aarch64.cat", expect: expect, sample: 8, offset: 1},
		suite{name: "AARCH64/herd-aarch64.cat", dir: dir, model: herd, expect: expect, long: true},
	)
	for _, sub := range []string{"CO", "EXTRA", "Fence2", "FenceLA", "HAND", "HAND2", "LD", "POPL16", "RelAcq", "SYS", "TUTO", "dart", "extra2"} {
		suites = append(suites, suite{name: "AARCH64/herd-aarch64.cat/" + sub, dir: dir + "/" + sub, model: herd, expect: expect})
	}
}
