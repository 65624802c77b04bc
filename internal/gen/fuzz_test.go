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
		"PosWWw0q0 PodWWq0q0 PosWWq0w0 Rfew0w4 PosRWw4q0 PodWRq0q0 PosRRq0w4 Frew4w0",
		"Frib0b0 Rfib0h0 PosRRh0b0 Freb0h0 Rfeh0b0", "PodWWL.w0L Rfe DpDatadWq0h2 Rfih2A.h2 PodRR Fre",
		"RfeXP PodRR FrePX PodWW", "RfePAR PodRWARAR RfeARAR PodRWARP", "Rfe Fence.idRW Wse Fence.w.wdWW",
		"PodWWRlxRel RfeRelRlx RmwRlxRlx RfeRlxAcq PodRRAcqRlx FreRlxRlx",
		"PodWWOnceRelease RfeReleaseAcquire RmwAcquireAcquire PodWR Fre", "FenceMbdRWOnceOnce RfeOnceOnce DpCtrldWOnceOnce RfeOnceOnce",
		"RmwMbMb PodWR Hat RmwOnceOnce PodWR Hat", "PodWW Rfe DpAddrdW Rfe DpDatadW Wse",
		"RfeXAP PodRR FrePXL PodWW", "PodWRPXARAR FreXARARP PodWRPXPAq FreXPAqP",
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
