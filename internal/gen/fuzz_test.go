package gen

import (
	"io"
	"testing"
)

// FuzzCycle reads a cycle in each architecture's notation, builds its
// test and writes it: an error is fine, a panic is not.
func FuzzCycle(f *testing.F) {
	for _, s := range []string{
		"Rfe PodRR Fre PodWW", "MFencedWR Fre MFencedWR Fre", "Rfe DpAddrdR Fre LwSyncdWW",
		"Rfe DMB.LDdRR Fre PodWWPL", "Rfe Fence.r.rwdRR Fre PodWWAqRl", "Wse PodWW Wse PodWW",
		"Rfi PodRR Coe", "PosWR Fri Rfe", "", "Rf", "DpCtrlIsyncsR Fre Rfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		for _, a := range arches {
			es, err := a.ParseCycle([]string{s})
			if err != nil || len(es) > 16 {
				continue
			}
			tst, err := Build(a, es)
			if err != nil {
				continue
			}
			if err := tst.Write(io.Discard); err != nil {
				t.Fatalf("%s %q: built but not written: %v", a.Name, s, err)
			}
		}
	})
}
