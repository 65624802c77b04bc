package conformance

// The C suites. C11 (98 tests) under our c11 and Dat3M's c11.cat against
// C11.csv, and under our rc11, herd's and Dat3M's rc11.cat against
// RC11.csv: each well under a second. The Linux-kernel tests run as kernel
// developers run herd7: the kernel's linux-kernel.cat with its bell and
// its macros (linux-kernel.def), variant lkmmv2 (linux-kernel.cfg), and
// herd7's library (cross.cat, cos-opt.cat) on the include path. The bell
// is the kernel's own file from the corpus, read as the user names it.
func init() {
	const c11 = "litmus/C11"
	// C11/manual/TSan.litmus has no reference verdict in either CSV, so
	// the suites do not run it (it loops on compare-and-swaps; the explicit
	// engine stops it at its time limit).
	suites = append(suites,
		suite{name: "C11/c11", dir: c11, model: "c11", expect: "litmus/expected/C11.csv"},
		suite{name: "C11/dat3m-c11.cat", dir: c11, model: corpus + "/cat/dat3m/c11.cat", expect: "litmus/expected/C11.csv"},
		suite{name: "C11/rc11", dir: c11, model: "rc11", expect: "litmus/expected/RC11.csv"},
		suite{name: "C11/herd-rc11.cat", dir: c11, model: corpus + "/cat/herd/rc11.cat", expect: "litmus/expected/RC11.csv"},
		suite{name: "C11/dat3m-rc11.cat", dir: c11, model: corpus + "/cat/dat3m/rc11.cat", expect: "litmus/expected/RC11.csv"},
	)
	linux := corpus + "/cat/linux/"
	lkmm := func(name, dir string, long bool) suite {
		return suite{name: name, dir: dir, model: linux + "linux-kernel.cat", expect: "litmus/expected/LKMM.csv",
			bell: linux + "linux-kernel.bell", macros: linux + "linux-kernel.def",
			include: []string{corpus + "/cat/herd"}, variants: []string{"lkmmv2"}, long: long}
	}
	suites = append(suites, lkmm("LKMM/linux-kernel.cat", "litmus/LKMM", true))
	for _, sub := range []string{"alias", "dart", "lkml", "lockfree", "tree"} {
		suites = append(suites, lkmm("LKMM/linux-kernel.cat/"+sub, "litmus/LKMM/"+sub, false))
	}
}
