package param

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// BenchmarkDeepSample grows the deep samples of two FLASH files as the
// deep phase does (deep.go): the orbits of the instance with two
// processes up to deepSample, exact (challenges_flash2_nodata) and
// abstract (challenges_flash2), and reports the states and a digest of
// them in order (a change of the explorer must keep both), with the
// helper goroutine (parsample.go) and without.
func BenchmarkDeepSample(b *testing.B) {
	for _, tc := range []struct {
		name     string
		abstract bool
		helper   bool
	}{{"challenges_flash2_nodata.cub", false, false}, {"challenges_flash2_nodata.cub", false, true},
		{"challenges_flash2.cub", true, false}, {"challenges_flash2.cub", true, true}} {
		name := tc.name + "/one"
		if tc.helper {
			name = tc.name + "/helper"
		}
		b.Run(name, func(b *testing.B) {
			sys, err := ParseFile(filepath.Join(testcorpus.Dir(b), "cubicle", "examples", tc.name))
			if err != nil {
				b.Fatal(err)
			}
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				a := &approximator{abstract: tc.abstract, deep: true, parallel: tc.helper}
				x := a.newSampler(newFinite(sys, 2))
				x.grow(nil, deepSample)
				if i == 0 {
					b.Logf("%d states, digest %x", x.count(), samplerDigest(x))
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}

// samplerDigest hashes the states of x in order.
func samplerDigest(x *sampler) uint64 {
	h := uint64(0)
	var buf []int64
	for i := 0; i < x.count(); i++ {
		buf = x.state(i, buf)
		h = mix64(h ^ hashState(buf))
	}
	return h
}

// cpuTime is the CPU time of the process (user and system), in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
