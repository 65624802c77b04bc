package litmus_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestRISCVAMOOneEvent checks that a RISC-V AMO is one memory operation,
// both a load and a store, in the global memory order (the RISC-V
// manual's RVWMO; herd7 gives it one event in R and W): a fence, an
// annotation or a dependency that orders loads orders the AMO, and so
// does one that orders stores, whichever half the cycle enters it by.
// The states are derived from RVWMO and are herd7 7.58's where its log
// exists (RR+RR+rmw-fence.tso+rmw-fence.tsopx). Each comment says what
// an AMO made of a read and a write, the fence ordering only one of them,
// would add. Both engines, under Musket's riscv and, when the reference
// library is beside the corpus, herd7 7.58's riscv.cat.
func TestRISCVAMOOneEvent(t *testing.T) {
	cases := []struct {
		name, src string
		states    []string
	}{
		{
			// herd7 7.58's log: 6 states. AMO(x) -fence.tso-> lw y
			// -fr-> AMO(y) -fence.tso-> lr x -fr-> AMO(x) is a cycle
			// whether the sc succeeds or not; two events would add
			// the state where it fails and both loads read 0.
			"RR+RR+rmw-fence.tso+rmw-fence.tsopx", `RISCV RR+RR+rmw-fence.tso+rmw-fence.tsopx
{
0:x5=x; 0:x9=y;
1:x5=y; 1:x8=x;
}
 P0                   | P1                   ;
 ori x7,x0,1          | ori x7,x0,1          ;
 amoswap.w x6,x7,(x5) | amoswap.w x6,x7,(x5) ;
 fence.tso            | fence.tso            ;
 lw x8,0(x9)          | lr.w x9,0(x8)        ;
                      | sc.w x10,x9,0(x8)    ;
exists
(x=1 /\ 0:x6=0 /\ 0:x8=0 /\ 1:x10=0 /\ 1:x6=0 /\ 1:x9=0)
`, []string{
				"0:x6=0; 0:x8=0; 1:x6=0; 1:x9=1; 1:x10=0; [x]=1;",
				"0:x6=0; 0:x8=0; 1:x6=0; 1:x9=1; 1:x10=1; [x]=1;",
				"0:x6=0; 0:x8=1; 1:x6=0; 1:x9=0; 1:x10=0; [x]=1;",
				"0:x6=0; 0:x8=1; 1:x6=0; 1:x9=0; 1:x10=1; [x]=1;",
				"0:x6=0; 0:x8=1; 1:x6=0; 1:x9=1; 1:x10=0; [x]=1;",
				"0:x6=0; 0:x8=1; 1:x6=0; 1:x9=1; 1:x10=1; [x]=1;",
			},
		},
		{
			// fence.tso orders an AMO (a load) before a later load,
			// and a load reading 0 is before the other AMO (a store):
			// SB through two AMOs is forbidden. Two events: the fence
			// orders the read halves only, and the store halves may
			// pass the loads (0:x8=0; 1:x8=0).
			"SB+amoswap-fence.tsos", `RISCV SB+amoswap-fence.tsos
{ 0:x5=x; 0:x9=y; 0:x7=1; 1:x5=y; 1:x9=x; 1:x7=1; }
 P0                   | P1                   ;
 amoswap.w x6,x7,(x5) | amoswap.w x6,x7,(x5) ;
 fence.tso            | fence.tso            ;
 lw x8,0(x9)          | lw x8,0(x9)          ;
exists (0:x8=0 /\ 1:x8=0)
`, []string{"0:x8=0; 1:x8=1;", "0:x8=1; 1:x8=0;", "0:x8=1; 1:x8=1;"},
		},
		{
			// fence r,r after an AMO orders it (a load) before the
			// later load; P1's load reading 0 is before the AMO (a
			// store) in the global order: a cycle. Two events would
			// allow 0:x8=0; 1:x8=0.
			"SB+amoswap-fence.r.r+fence.rw.rw", `RISCV SB+amoswap-fence.r.r+fence.rw.rw
{ 0:x5=x; 0:x9=y; 0:x7=1; 1:x5=y; 1:x9=x; 1:x7=1; }
 P0                   | P1          ;
 amoswap.w x6,x7,(x5) | sw x7,0(x5) ;
 fence r,r            | fence rw,rw ;
 lw x8,0(x9)          | lw x8,0(x9) ;
exists (0:x8=0 /\ 1:x8=0)
`, []string{"0:x8=0; 1:x8=1;", "0:x8=1; 1:x8=0;", "0:x8=1; 1:x8=1;"},
		},
		{
			// An address dependency through the result of amoadd
			// orders the AMO before the load; the cycle enters the
			// AMO as a store (P1's load of x reads 0). Two events
			// would allow 0:x10=0; 1:x8=0 (the dependency starts at
			// the read half only). The AMO reads 0 and writes 1.
			"SB+amoadd-addr+fence.rw.rw", `RISCV SB+amoadd-addr+fence.rw.rw
{ 0:x5=x; 0:x9=y; 0:x7=1; 1:x5=y; 1:x9=x; 1:x7=1; }
 P0                   | P1          ;
 amoadd.w x6,x7,(x5)  | sw x7,0(x5) ;
 xor x8,x6,x6         | fence rw,rw ;
 add x9,x9,x8         | lw x8,0(x9) ;
 lw x10,0(x9)         |             ;
locations [0:x6; x;]
exists (0:x10=0 /\ 1:x8=0)
`, []string{
				"0:x6=0; 0:x10=0; 1:x8=1; [x]=1;",
				"0:x6=0; 0:x10=1; 1:x8=0; [x]=1;",
				"0:x6=0; 0:x10=1; 1:x8=1; [x]=1;",
			},
		},
		{
			// Atomicity with one event comes from coherence: two
			// amoadd on x never both read 0, x ends 2.
			"2+amoadd", `RISCV 2+amoadd
{ 0:x5=x; 0:x7=1; 1:x5=x; 1:x7=1; }
 P0                   | P1                   ;
 amoadd.w x6,x7,(x5)  | amoadd.w x6,x7,(x5)  ;
locations [x;]
exists (0:x6=0 /\ 1:x6=0)
`, []string{"0:x6=0; 1:x6=1; [x]=2;", "0:x6=1; 1:x6=0; [x]=2;"},
		},
		{
			// An AMO does not read from itself; a later load of its
			// thread reads its store.
			"amoswap+lw", `RISCV amoswap+lw
{ 0:x5=x; 0:x7=2; x=1; }
 P0                   ;
 amoswap.d x6,x7,(x5) ;
 ld x8,0(x5)          ;
exists (0:x6=1 /\ 0:x8=2 /\ x=2)
`, []string{"0:x6=1; 0:x8=2; [x]=2;"},
		},
	}
	type model struct {
		name string
		m    *cat.Model
	}
	var models []model
	m, mname, err := driver.Load("riscv")
	if err != nil {
		t.Fatal(err)
	}
	models = append(models, model{mname, m})
	lib := filepath.Join(testcorpus.HerdReferencePath(), "lib")
	if _, err := os.Stat(filepath.Join(lib, "riscv.cat")); err == nil {
		hm, hname, err := driver.Models{LibDirs: []string{lib}}.Load(filepath.Join(lib, "riscv.cat"))
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, model{hname, hm})
	}
	fe, _ := litmus.Lookup("RISCV")
	for _, tc := range cases {
		lt, err := litmus.Parse(tc.name+".litmus", []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, md := range models {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			for _, res := range []*result.Result{
				enum.Run(ctx, lt, md.m, md.name, enum.Options{TagNames: fe.Tags()}),
				bmc.Run(ctx, lt, md.m, md.name, bmc.Options{TagNames: fe.Tags()}),
			} {
				if res.Status != result.Done {
					t.Errorf("%s, %s, %s: %s %v", tc.name, md.name, res.Engine, res.Status, res.Err)
					continue
				}
				if got := stateLines(res); !slices.Equal(got, tc.states) {
					t.Errorf("%s, %s, %s: states\n%s\nwant\n%s", tc.name, md.name, res.Engine, strings.Join(got, "\n"), strings.Join(tc.states, "\n"))
				}
			}
			cancel()
		}
	}
}

// stateLines are the state lines of res as herd7 prints them.
func stateLines(res *result.Result) []string {
	var b bytes.Buffer
	report.Text(&b, res)
	var out []string
	in := false
	for _, l := range strings.Split(b.String(), "\n") {
		switch {
		case strings.HasPrefix(l, "States "):
			in = true
		case in && (l == "Ok" || l == "No"):
			return out
		case in:
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}
