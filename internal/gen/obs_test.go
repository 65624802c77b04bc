package gen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/testcorpus"
)

func TestParseObs(t *testing.T) {
	tests := []struct {
		mode, typ, err string
		want           Obs
	}{
		{"", "", "", Obs{"", "fenced"}},
		{"force", "straight", "", Obs{"force", "straight"}},
		{"local", "fenced", "", Obs{"local", "fenced"}},
		{"accept", "", "", Obs{"accept", "fenced"}},
		{"avoid", "", "", Obs{"avoid", "fenced"}},
		{"forced", "", `-obs "forced": unknown mode; want accept, avoid, force, local`, Obs{}},
		{"force", "fence", `-obstype "fence": unknown observer type; want fenced, straight, loop`, Obs{}},
		{"force", "loop", "-obstype loop: polling observers are not written", Obs{}},
	}
	for _, c := range tests {
		got, err := ParseObs(c.mode, c.typ)
		switch {
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("ParseObs(%q, %q): error %v, want %q", c.mode, c.typ, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseObs(%q, %q) = %v, %v; want %v", c.mode, c.typ, got, err, c.want)
		}
	}
}

// TestObsShapes pins the observers each -obs mode gives, after the
// examples of the diy7 documentation (2+2W and W5 on Power).
func TestObsShapes(t *testing.T) {
	const w5 = "Wse Wse PodWW Wse PodWW"
	tests := []struct {
		arch, cycle, mode, typ string
		cond                   string // the condition
		code                   string // a line of the code, "" for none
		unsup                  bool   // refused (ErrUnsupported)
	}{
		{"PPC", "PodWW Wse PodWW Wse", "", "", "(x=2 /\\ y=2)", "", false},
		{"PPC", "PodWW Wse PodWW Wse", "avoid", "", "(x=2 /\\ y=2)", "", false},
		{"PPC", "PodWW Wse PodWW Wse", "accept", "", "(x=2 /\\ y=2)", "", false},
		{"PPC", "PodWW Wse PodWW Wse", "force", "straight", "(2:r2=1 /\\ 2:r3=2 /\\ 3:r2=1 /\\ 3:r3=2)", " lwz r3,0(r1) | lwz r3,0(r1) ;", false},
		{"PPC", "PodWW Wse PodWW Wse", "force", "fenced", "(2:r2=1 /\\ 2:r3=2 /\\ 3:r2=1 /\\ 3:r3=2)", " sync         | sync         ;", false},
		{"PPC", "PodWW Wse PodWW Wse", "local", "straight", "(0:r5=2 /\\ 1:r5=2)", " lwz r5,0(r3) | lwz r5,0(r3) ;", false},
		{"PPC", "PodWW Wse PodWW Wse", "local", "fenced", "(0:r5=2 /\\ 1:r5=2)", " sync         | sync         ;", false},
		{"PPC", w5, "accept", "", "(y=2 /\\ 3:r2=1 /\\ 3:r3=2 /\\ 3:r4=3)", "", false},
		{"PPC", w5, "force", "", "(3:r2=1 /\\ 3:r3=2 /\\ 3:r4=3 /\\ 4:r2=1 /\\ 4:r3=2)", "", false},
		{"PPC", w5, "local", "", "(0:r3=3 /\\ 1:r5=2 /\\ 2:r5=2)", "", false},
		{"PPC", w5, "avoid", "", "", "", true},
		{"X86", "PodWW Wse PodWW Wse", "force", "", "(2:EAX=1 /\\ 2:EBX=2 /\\ 3:EAX=1 /\\ 3:EBX=2)", " MFENCE      | MFENCE      ;", false},
		{"AArch64", "PodWW Wse PodWW Wse", "force", "", "(2:X1=1 /\\ 2:X2=2 /\\ 3:X1=1 /\\ 3:X2=2)", "DMB SY", false},
		{"RISCV", "PodWW Wse PodWW Wse", "local", "", "(0:x9=2 /\\ 1:x9=2)", "fence rw,rw", false},
		// Two writes of one thread: program order orders them, no load.
		{"PPC", "Rfe DpDatadW Rfe DpDatadW Wsi", "local", "", "(0:r2=2 /\\ 1:r2=1)", "", false},
		// C: observers are relaxed atomic loads; a plain location's
		// observer thread would race: refused.
		{"C", "PodWWRlxRlx WseRlxRlx PodWWRlxRlx WseRlxRlx", "local", "", "(0:r0=2 /\\ 1:r0=2)", "atomic_thread_fence(memory_order_seq_cst);", false},
		{"C", "PodWWRlxRlx WseRlxRlx PodWWRlxRlx WseRlxRlx", "force", "", "(2:r0=1 /\\ 2:r1=2 /\\ 3:r0=1 /\\ 3:r1=2)", "P3 (atomic_int* y) {\n  int r0 = atomic_load_explicit(y,memory_order_relaxed);\n  atomic_thread_fence(memory_order_seq_cst);", false},
		{"C", "PodWW Wse PodWW Wse", "force", "", "", "", true},
		// The kernel's: READ_ONCE, smp_mb between when fenced.
		{"LKMM", "PodWW Wse PodWW Wse", "force", "", "(2:r0=1 /\\ 2:r1=2 /\\ 3:r0=1 /\\ 3:r1=2)", "P2(int *x)\n{\n\tint r0 = READ_ONCE(*x);\n\tsmp_mb();\n\tint r1 = READ_ONCE(*x);", false},
		{"LKMM", "PodWW Wse PodWW Wse", "local", "straight", "(0:r0=2 /\\ 1:r0=2)", "\tWRITE_ONCE(*y, 1);\n\tint r0 = READ_ONCE(*y);", false},
	}
	for _, c := range tests {
		name := fmt.Sprintf("%s/%s/-obs %s -obstype %s", c.arch, c.cycle, c.mode, c.typ)
		a, err := LookupArch(c.arch)
		if err != nil {
			t.Fatal(err)
		}
		es, err := a.ParseCycle(strings.Fields(c.cycle))
		if err != nil {
			t.Fatal(err)
		}
		o, err := ParseObs(c.mode, c.typ)
		if err != nil {
			t.Fatal(err)
		}
		tt, err := BuildObs(a, es, o)
		if c.unsup {
			if _, ok := err.(*ErrUnsupported); !ok {
				t.Errorf("%s: %v, want ErrUnsupported", name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var b strings.Builder
		if err := tt.Write(&b); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		src := b.String()
		if !strings.Contains(src, c.cond+"\n") || !strings.Contains(src, c.code) {
			t.Errorf("%s: want condition %s and code %q\n%s", name, c.cond, c.code, src)
		}
	}
}

// TestObsVerdicts: observers change how a test pins coherence, not its
// verdict (the diy7 documentation argues each pair equivalent), except
// that a fenced local observer may forbid more (see below). Every
// cycle of an enumeration per architecture is generated with each -obs
// mode and type; each test runs under the architecture's model, under
// both engines (a disagreement fails), and its verdict must be that of
// the test without -obs.
func TestObsVerdicts(t *testing.T) {
	size := 4
	if os.Getenv("MUSKET_LONG") != "" {
		size = 5
	}
	archs := []struct{ arch, relax string }{ // short: see below
		{"X86", "Pod**,Rfe,Fre,Wse,Wsi,MFencedWR"},
		{"PPC", "Pod**,Rfe,Fre,Wse,Wsi,SyncdWW,LwSyncdRR"},
		{"AArch64", "Pod**,Rfe,Fre,Wse,DMB.SYdWW,DpAddrdR"},
		{"RISCV", "Pod**,Rfe,Fre,Wse,Fence.rw.rwdWW,DpDatadW"},
		// C's observer threads read with relaxed atomic loads; the
		// kernel's with READ_ONCE (and smp_mb between, fenced).
		{"C", "Pod**RlxRlx,RfeRlxRlx,FreRlxRlx,WseRlxRlx,FenceScdWRRlxRlx"},
		{"LKMM", "Pod**,Rfe,Fre,Wse,FenceMbdWW"},
	}
	if os.Getenv("MUSKET_LONG") == "" {
		// The C and kernel models cost more per test: by default,
		// the shapes whose coherence orders need observers (writes
		// in two threads) only.
		archs[4].relax = "PodWWRlxRlx,PodWRRlxRlx,WseRlxRlx,FreRlxRlx"
		archs[5].relax = "PodWW,PodWR,Wse,Fre"
	}
	modes := []Obs{{"", "fenced"}, {"avoid", "fenced"}, {"accept", "fenced"}, {"force", "fenced"}, {"force", "straight"}, {"local", "fenced"}, {"local", "straight"}}
	for _, c := range archs {
		t.Run(c.arch, func(t *testing.T) {
			a, _ := LookupArch(c.arch)
			relax, err := a.ExpandList(c.relax)
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			key, mode := map[string]string{}, map[string]string{}
			var files []string
			count := map[string]int{}
			for _, o := range modes {
				gs, _, err := a.Enumerate(Options{Relax: relax, Size: size, Procs: 4, Obs: o})
				if err != nil {
					t.Fatal(err)
				}
				m := o.Mode + "-" + o.Type
				for _, g := range gs {
					var b strings.Builder
					if err := g.Test.WriteNamed(&b, g.Name); err != nil {
						t.Fatal(err)
					}
					p := filepath.Join(tmp, m+"-"+testFile(g.Name))
					if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
						t.Fatal(err)
					}
					files = append(files, p)
					key[p], mode[p] = Canonical(g.Test.Orig), m
					count[m]++
				}
			}
			verdict := map[string]map[string]bool{} // cycle -> mode -> Ok
			opts := batch.Options{Engine: "both", Jobs: 2, Timeout: 60 * time.Second}
			if c.arch == "LKMM" {
				opts = lkmmOptions(testcorpus.Dir(t), "both")
			}
			batch.Run(context.Background(), files, opts, func(j batch.Job) {
				if j.Err != nil || j.Result == nil || j.Result.Status.String() != "done" {
					t.Errorf("%s: %v %v", j.Path, j.Err, j.Result)
					return
				}
				if j.Disagreement != nil {
					t.Errorf("%s: %v", j.Path, j.Disagreement)
				}
				k := key[j.Path]
				if verdict[k] == nil {
					verdict[k] = map[string]bool{}
				}
				verdict[k][mode[j.Path]] = j.Result.Ok()
			})
			differ, fencedLocal := 0, 0
			for k, vs := range verdict {
				plain, ok := vs["-fenced"]
				if !ok {
					continue
				}
				for m, v := range vs {
					if m == "local-fenced" && plain && !v {
						// The fence before a local load also orders the
						// thread's earlier writes before it, so it may
						// forbid an outcome the cycle allows (PPC
						// 2+2W+po+wsi-sync: PodWW Wse Wsi SyncdWW Wse),
						// as the diy7 documentation warns of local
						// observers; never the reverse.
						fencedLocal++
						continue
					}
					if v != plain {
						differ++
						t.Errorf("%s: -obs %s answers Ok=%v, without -obs %v", k, m, v, plain)
					}
				}
			}
			t.Logf("%s: %d tests (%v), %d cycles, %d verdicts differ; %d forbidden by a fenced local observer only", c.arch, len(files), count, len(verdict), differ, fencedLocal)
		})
	}
}

func testFile(name string) string {
	return strings.NewReplacer("/", "_", "[", "_", "]", "_").Replace(name) + ".litmus"
}
