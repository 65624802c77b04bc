package graph

import (
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// rvTests are RISC-V litmus tests of load buffering through the steps
// riscv.go's argument goes through, each compared with the explicit
// engine (counts of executions and final states).
var rvTests = []struct{ name, src string }{
	// A read after a write of its own thread to the location takes the
	// other thread's write (lastWriteBefore).
	{"LB+fri-rfi-datas", `RISCV LB+fri-rfi-datas
{ 0:x6=x; 0:x10=y; 1:x6=y; 1:x10=x; }
 P0           | P1           ;
 lw x5,0(x6)  | lw x5,0(x6)  ;
 ori x7,x0,2  | ori x7,x0,2  ;
 sw x7,0(x6)  | sw x7,0(x6)  ;
 lw x8,0(x6)  | lw x8,0(x6)  ;
 xor x9,x8,x8 | xor x9,x8,x8 ;
 ori x9,x9,1  | ori x9,x9,1  ;
 sw x9,0(x10) | sw x9,0(x10) ;
exists (x=2 /\ y=2 /\ 0:x5=1 /\ 0:x8=2 /\ 1:x5=1 /\ 1:x8=2)
`},
	// A store-release read back by its own thread, its value passed on:
	// the release orders the first read before the store, not before
	// the read that takes it (RVWMO allows the cycle).
	{"LB+rel-rfi", `RISCV LB+rel-rfi
{ 0:x6=z; 0:x8=x; 0:x10=y; 1:x6=y; 1:x8=z; }
 P0            | P1          ;
 lw x5,0(x6)   | lw x5,0(x6) ;
 ori x7,x0,1   | sw x5,0(x8) ;
 sw.rl x7,0(x8) |            ;
 lw x9,0(x8)   |             ;
 sw x9,0(x10)  |             ;
exists (0:x5=1 /\ 0:x9=1 /\ 1:x5=1)
`},
	// AMOs, one event each for the model (rvFuse), ordered by a fence
	// r,w before a store read back.
	{"2+2W+Swap-fence.r.w-Ws", `RISCV 2+2W+Swap-fence.r.w-Ws
{ 0:x6=x; 0:x8=y; 1:x6=y; 1:x8=x; }
 P0                   | P1                   ;
 ori x5,x0,2          | ori x5,x0,2          ;
 amoswap.w x0,x5,(x6) | amoswap.w x0,x5,(x6) ;
 fence r,w            | fence r,w            ;
 ori x7,x0,1          | ori x7,x0,1          ;
 sw x7,0(x8)          | sw x7,0(x8)          ;
 lw x1,0(x8)          | lw x1,0(x8)          ;
exists (0:x1=2 /\ 1:x1=2)
`},
	// An AMO's write read back by its own thread (rule 3), the value
	// passed on by a dependency.
	{"LB+amo-rfi-data", `RISCV LB+amo-rfi-data
{ 0:x6=x; 0:x8=y; 1:x6=y; 1:x8=x; }
 P0                   | P1           ;
 ori x5,x0,1          | lw x5,0(x6)  ;
 amoadd.w x1,x5,(x6)  | sw x5,0(x8)  ;
 lw x2,0(x6)          |              ;
 sw x2,0(x8)          |              ;
exists (0:x1=1 /\ 0:x2=2 /\ 1:x5=2)
`},
	// A write whose address depends on a read, read back: the pipeline
	// dependency (rule 12) and a write after an address (rule 13).
	{"LB+addr-rfi-data+data", `RISCV LB+addr-rfi-data+data
{ 0:x6=x; 0:x8=z; 0:x10=y; 1:x6=y; 1:x8=x; }
 P0             | P1          ;
 lw x5,0(x6)    | lw x5,0(x6) ;
 xor x7,x5,x5   | sw x5,0(x8) ;
 add x7,x7,x8   |             ;
 ori x9,x0,1    |             ;
 sw x9,0(x7)    |             ;
 lw x11,0(x8)   |             ;
 sw x11,0(x10)  |             ;
exists (0:x5=1 /\ 0:x11=1 /\ 1:x5=1)
`},
}

// TestRISCVAgainstEnum compares rvTests with the explicit engine.
func TestRISCVAgainstEnum(t *testing.T) {
	fe, err := litmus.Lookup("RISCV")
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusTest
	refuse := map[string]bool{}
	for _, c := range rvTests {
		lt, err := litmus.Parse(c.name+".litmus", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		cases = append(cases, corpusTest{path: c.name, t: lt, tags: fe.Tags()})
		refuse[c.name] = false
	}
	if n := hwCompare(t, "riscv", cases, refuse); n != len(rvTests) {
		t.Errorf("%d tests compared, want %d", n, len(rvTests))
	}
}

// TestRISCVCorpusAgainstEnum is TestRISCVAgainstEnum on the RISC-V tests
// of the corpus (40 spread over it; MUSKET_LONG=1: all 3412, of which
// the store-conditionals, 392, and mixed-size tests, 7, are refused).
func TestRISCVCorpusAgainstEnum(t *testing.T) {
	dir := testcorpus.Dir(t)
	n := hwCompare(t, "riscv", corpusSample(t, dir, "litmus/RISCV/*.litmus", 40, true), nil)
	if n == 0 {
		t.Errorf("no test compared")
	}
	t.Logf("%d tests compared", n)
}

// TestRVCorpusCrossCheck runs the graph engine with Options.CrossCheck on
// the RISC-V tests of the corpus (40 spread over it; MUSKET_LONG=1: all)
// and on rvTests: the native check of rvnative.go and riscv.cat must
// agree on every graph built.
func TestRVCorpusCrossCheck(t *testing.T) {
	var extra []corpusTest
	fe, _ := litmus.Lookup("RISCV")
	for _, c := range rvTests {
		lt, err := litmus.Parse(c.name+".litmus", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		extra = append(extra, corpusTest{path: c.name, t: lt, tags: fe.Tags()})
	}
	crossCheckCorpus(t, "riscv", "litmus/RISCV/*.litmus", extra)
}
