package litmus_test

import (
	"context"
	"github.com/musket-verify/musket/internal/driver"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestChunksAsBytes checks the argument of aarch64_mixed.go on corpus
// tests: splitting locations into chunks gives the same final states and
// verdicts as splitting them into bytes, as herd7 does, under the
// built-in model (single-copy atomicity through sca-class) and Dat3M's.
func TestChunksAsBytes(t *testing.T) {
	dir := "../../../shared/corpus/litmus/AARCH64/mixed"
	// Small tests (bytes multiply the coherence orders: SCA-05 takes
	// minutes in bytes, 10 ms in chunks): SCA-07 and a spread of the
	// generated ones. All of them also agree with ARM8.csv.
	tests := []string{
		"SCA-07.litmus", "R+wsih0b0+rfib1h0.litmus", "R+h0-b0+b1-b1.litmus",
		"CO-MIXED-20cc.litmus", "CoRR+posw0w4+w0.litmus", "LB+posw0w0+posq0w4.litmus",
		"MP+posw0w0+posw0w4.litmus",
		"R+wsib0h2+rfib2h0-posh0h2.litmus",
		"S+dmb.syw0w4+posw4p-pospw0-ctrlw0p.litmus", "2+2W+dmb.sy+data-rfihw-poswh-ctrl.litmus",
		// Misaligned accesses, arrays, offsets computed at run time.
		"LB+data+data-misaligned.litmus", "MP+dmbsy+misaligned2+15x.litmus", "MP+misaligned2+15+addr.litmus",
		"MP+stp+addr+60.litmus", "Fig22.litmus", "MP+dmb+addr-rfi+MIX+OK+VAR3.litmus",
		"R+dmb.sy+rfipw-poswp-addr.litmus",
	}
	for _, model := range []string{"aarch64", "../../../shared/corpus/cat/dat3m/aarch64.cat"} {
		m, name, err := driver.Load(model)
		if err != nil {
			t.Fatal(err)
		}
		fe, _ := litmus.Lookup("AArch64")
		run := func(path string, bytes bool) *result.Result {
			litmus.SplitBytes(bytes)
			defer litmus.SplitBytes(false)
			lt, err := litmus.ParseFile(path)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
			defer cancel()
			r := enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags(), Uniproc: true})
			result.Unchunk(r, lt)
			return r
		}
		for _, f := range tests {
			path := filepath.Join(dir, f)
			start := time.Now()
			c, b := run(path, false), run(path, true)
			if d := time.Since(start); d > 5*time.Second {
				t.Logf("%s under %s: %v", f, name, d.Round(time.Millisecond))
			}
			if c.Status != result.Done || b.Status != result.Done {
				t.Errorf("%s: %s: %v / %v", f, model, c.Err, b.Err)
				continue
			}
			if c.Ok() != b.Ok() || states(c) != states(b) {
				t.Errorf("%s under %s: chunks %v %s, bytes %v %s", f, model, c.Ok(), states(c), b.Ok(), states(b))
			}
		}
	}
}

func states(r *result.Result) string {
	s := ""
	for _, st := range r.States {
		s += st.Key() + "|"
	}
	return s
}
