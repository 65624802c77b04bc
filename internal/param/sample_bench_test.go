package param

import (
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// BenchmarkDeepSample grows the deep samples of two FLASH files as the
// deep phase does (deep.go): the orbits of the instance with two
// processes up to deepSample, exact (challenges_flash2_nodata) and
// abstract (challenges_flash2), and reports the states and a digest of
// them in order (a change of the explorer must keep both).
func BenchmarkDeepSample(b *testing.B) {
	for _, tc := range []struct {
		name     string
		abstract bool
	}{{"challenges_flash2_nodata.cub", false}, {"challenges_flash2.cub", true}} {
		b.Run(tc.name, func(b *testing.B) {
			sys, err := ParseFile(filepath.Join(testcorpus.Dir(b), "cubicle", "examples", tc.name))
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				a := &approximator{abstract: tc.abstract, deep: true}
				x := a.newSampler(newFinite(sys, 2))
				x.grow(nil, deepSample)
				if i == 0 {
					b.Logf("%d states, digest %x", x.count(), samplerDigest(x))
				}
			}
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
