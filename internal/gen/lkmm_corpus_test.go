package gen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// lkmmOptions runs tests as kernel developers run herd7: the kernel's
// linux-kernel.cat with its bell and macros, variant lkmmv2
// (linux-kernel.cfg), herd7's library on the include path.
func lkmmOptions(corpus string, engine string) batch.Options {
	linux := filepath.Join(corpus, "cat", "linux")
	return batch.Options{Engine: engine, Model: filepath.Join(linux, "linux-kernel.cat"),
		Bell: filepath.Join(linux, "linux-kernel.bell"), Macros: filepath.Join(linux, "linux-kernel.def"),
		IncludeDirs: []string{filepath.Join(corpus, "cat", "herd")}, Variants: map[string]bool{"lkmmv2": true},
		Jobs: 2, Timeout: 60 * time.Second}
}

// kernelThreads is a C test of the kernel's primitives reduced to what
// the comparison needs: each thread's statements in a normal form
// ("R Acquire y r1", "W Once x 2", "F smp_mb", "CTRL r0"; anything else
// kept as written), and the condition's atoms.
type kernelThreads struct {
	threads [][]string
	cond    []string
}

var (
	reThread  = regexp.MustCompile(`^P(\d+)\s*\(`)
	reRead    = regexp.MustCompile(`^(?:int\s+)?(r\d+)\s*=\s*(READ_ONCE|smp_load_acquire)\(\*?\s*([a-z]+)\s*\);$`)
	reWrite   = regexp.MustCompile(`^(WRITE_ONCE|smp_store_release)\(\*?\s*([a-z]+)\s*,\s*(\d+)\s*\);$`)
	reFence   = regexp.MustCompile(`^(smp_mb|smp_wmb|smp_rmb)\(\);$`)
	reFakeDep = regexp.MustCompile(`^(?:int\s+)?r\d+\s*=\s*\((r\d+)\s*!=\s*0\);$`) // diy's C form of a Ctrl
	reIf      = regexp.MustCompile(`^if\s*\((r\d+)\s*==\s*\d+\)\s*\{$`)
	reAtom    = regexp.MustCompile(`(?:(\d+):(r\d+)|([a-z]+))\s*=\s*(\d+)`)
)

// readKernelThreads reads a C test's threads and condition.
func readKernelThreads(src string) kernelThreads {
	var k kernelThreads
	cur := -1
	depth := 0
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if cur < 0 || depth == 0 {
			if reThread.MatchString(l) {
				k.threads = append(k.threads, nil)
				cur = len(k.threads) - 1
				depth = strings.Count(l, "{")
				continue
			}
			if strings.HasPrefix(l, "exists") {
				c := strings.Join(lines[i:], " ")
				for _, m := range reAtom.FindAllStringSubmatch(c, -1) {
					if m[3] != "" {
						k.cond = append(k.cond, m[3]+"="+m[4])
					} else {
						k.cond = append(k.cond, m[1]+":"+m[2]+"="+m[4])
					}
				}
				break
			}
		}
		if cur < 0 {
			continue
		}
		if l == "{" && depth == 0 {
			depth = 1
			continue
		}
		if depth == 0 {
			continue
		}
		depth += strings.Count(l, "{") - strings.Count(l, "}")
		var s string
		switch m := []string(nil); {
		case l == "}" || l == "":
			continue
		case reRead.MatchString(l):
			m = reRead.FindStringSubmatch(l)
			s = fmt.Sprintf("R %s %s %s", map[string]string{"READ_ONCE": "Once", "smp_load_acquire": "Acquire"}[m[2]], m[3], m[1])
		case reWrite.MatchString(l):
			m = reWrite.FindStringSubmatch(l)
			s = fmt.Sprintf("W %s %s %s", map[string]string{"WRITE_ONCE": "Once", "smp_store_release": "Release"}[m[1]], m[2], m[3])
		case reFence.MatchString(l):
			s = "F " + reFence.FindStringSubmatch(l)[1]
		case reFakeDep.MatchString(l):
			s = "CTRL " + reFakeDep.FindStringSubmatch(l)[1]
		case reIf.MatchString(l):
			s = "CTRL " + reIf.FindStringSubmatch(l)[1]
		default:
			s = "? " + l
		}
		k.threads[cur] = append(k.threads[cur], s)
	}
	return k
}

// canon renames the locations (in order of first access, threads in
// order from first) and each thread's registers (in order of first
// read), the threads taken from the first one on, and returns the
// threads and the sorted condition. Statements that are not accesses
// are left out when drop says so (the spin locks of hand-edited tests).
func (k kernelThreads) canon(first int, drop func(string) bool) string {
	n := len(k.threads)
	locs := map[string]string{}
	loc := func(x string) string {
		if _, ok := locs[x]; !ok {
			locs[x] = fmt.Sprintf("L%d", len(locs))
		}
		return locs[x]
	}
	regs := make([]map[string]string, n)
	var out []string
	newID := map[int]int{}
	for j := 0; j < n; j++ {
		id := (first + j) % n
		newID[id] = j
		regs[id] = map[string]string{}
		var th []string
		for _, s := range k.threads[id] {
			f := strings.Fields(s)
			switch f[0] {
			case "R":
				regs[id][f[3]] = fmt.Sprintf("r%d", len(regs[id]))
				th = append(th, fmt.Sprintf("R %s %s %s", f[1], loc(f[2]), regs[id][f[3]]))
			case "W":
				th = append(th, fmt.Sprintf("W %s %s %s", f[1], loc(f[2]), f[3]))
			case "CTRL":
				th = append(th, "CTRL "+regs[id][f[1]])
			case "F":
				th = append(th, s)
			default:
				if drop == nil || !drop(s) {
					th = append(th, s)
				}
			}
		}
		out = append(out, fmt.Sprintf("P%d: %s", j, strings.Join(th, "; ")))
	}
	var cond []string
	for _, a := range k.cond {
		l, v, _ := strings.Cut(a, "=")
		if p, r, ok := strings.Cut(l, ":"); ok {
			var id int
			fmt.Sscan(p, &id)
			if id < n {
				cond = append(cond, fmt.Sprintf("%d:%s=%s", newID[id], regs[id][r], v))
				continue
			}
		}
		cond = append(cond, loc(l)+"="+v)
	}
	sort.Strings(cond)
	return strings.Join(out, "\n") + "\nexists " + strings.Join(cond, " /\\ ")
}

// sameUpToRenaming tells whether two kernel tests have the same threads
// and condition up to the names of locations and registers, the threads
// of b taken from b's first and a's from some thread (the rotation
// returned, -1 when none fits).
func sameUpToRenaming(a, b kernelThreads, drop func(string) bool) int {
	if len(a.threads) != len(b.threads) {
		return -1
	}
	want := b.canon(0, drop)
	for r := range a.threads {
		if a.canon(r, drop) == want {
			return r
		}
	}
	return -1
}

// lockCall are the spin locks of the hand-edited corpus tests.
func lockCall(s string) bool {
	return strings.Contains(s, "spin_lock") || strings.Contains(s, "spin_unlock")
}

// lkmmTally counts what became of the LKMM Cycle= lines.
type lkmmTally struct {
	lines, made, rotation, nameCycle, nameRotated, nameCase, nameOrig, threads, threadsLocked int
	compared, agree, fakeCtrl, locked                                                         int
}

// TestCorpusLKMMCycles generates, for every corpus LKMM test with a
// Cycle= line, the C test of the kernel's primitives that diy7 makes of
// it (-arch LISA, with the kernel's bell), and checks:
//
//   - its name: the corpus test's, up to a rotation of the threads from
//     the Cycle= line (diy starts the test where its enumeration found
//     the cycle, the Orig= line, which the Cycle= line does not keep),
//     and exactly the corpus's when generated from the Orig= line;
//   - its threads and condition: the corpus test's up to the names of
//     locations and registers and a rotation of the threads; the
//     hand-edited tests of manual/locked (each access between
//     spin_lock and spin_unlock of its location) once their locks are
//     left out;
//   - its verdict under the kernel's model (linux-kernel.cfg), with both
//     engines, which must agree: the corpus's expected one, except where
//     the corpus test's control dependency is diy's C form `r1 = (r0 !=
//     0);`, which is no branch, hence no dependency. Those are checked
//     too: the generated test with the Ctrl edge replaced by program
//     order (Pod, same kinds) must get the corpus verdict. The locked
//     tests' verdicts are not compared (their locks order the accesses).
//
// By default a sample (about 20 lines); every line with MUSKET_LONG=1.
func TestCorpusLKMMCycles(t *testing.T) {
	corpus := testcorpus.Dir(t)
	root := filepath.Join(corpus, "litmus")
	long := os.Getenv("MUSKET_LONG") != ""
	table, err := expect.Read(filepath.Join(root, "expected", "LKMM.csv"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := LookupArch("LKMM")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	filepath.Walk(filepath.Join(root, "LKMM"), func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".litmus") {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	var withCycle []string
	for _, p := range paths {
		if _, cyc, _ := corpusHeader(p); cyc != "" {
			withCycle = append(withCycle, p)
		}
	}
	stride := 1
	if !long {
		stride = max(1, len(withCycle)/20)
	}
	tmp := t.TempDir()
	var tl lkmmTally
	var files, noCtrl []string
	want := map[string]bool{}
	from := map[string]string{}
	ctrlOf := map[string]string{} // a corpus test with a Ctrl: its test without
	write := func(tt *Test, base string) string {
		out := filepath.Join(tmp, fmt.Sprintf("%04d-%s", len(files)+len(noCtrl), base))
		writeTestFile(t, tt, out)
		return out
	}
	for k, p := range withCycle {
		if k%stride != 0 {
			continue
		}
		tl.lines++
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		corpusName := strings.Fields(strings.SplitN(string(src), "\n", 2)[0])[1]
		_, cyc, cond := corpusHeader(p)
		es, err := a.ParseCycle(strings.Fields(cyc))
		if err != nil {
			t.Errorf("%s: Cycle=%s: %v", p, cyc, err)
			continue
		}
		tt, err := Build(a, es)
		if err != nil {
			t.Errorf("%s: Cycle=%s: %v", p, cyc, err)
			continue
		}
		tl.made++
		locked := strings.Contains(string(src), "spin_lock")
		text := testText(t, tt)
		ours, theirs := readKernelThreads(text), readKernelThreads(string(src))
		var drop func(string) bool
		if locked {
			drop = lockCall
		}
		rot := sameUpToRenaming(ours, theirs, drop)
		switch {
		case rot < 0:
			t.Errorf("%s: the test of its Cycle= line has other threads:\nours:\n%s\ncorpus's:\n%s\n%s", p,
				ours.canon(0, drop), theirs.canon(0, drop), text)
		case locked:
			tl.threadsLocked++
		default:
			tl.threads++
		}
		if !locked {
			if tt.Rotated() == cyc {
				tl.rotation++
			} else {
				t.Errorf("%s: Cycle=%s, but diy's rotation of the generated test is %s", p, cyc, tt.Rotated())
			}
			// The name: exactly diy's from the Orig= line; from the
			// Cycle= line, up to the rotation of the threads.
			switch {
			case tt.Name() == corpusName:
				tl.nameCycle++
			case rotatedName(tt, rot) == corpusName:
				tl.nameRotated++
			case strings.EqualFold(tt.Name(), corpusName) || strings.EqualFold(rotatedName(tt, rot), corpusName):
				// luc/WeakFence's tests have their names in lower
				// case (C-mp+fencewmbonceonce+fencermbonceonce).
				tl.nameCase++
			default:
				t.Errorf("%s: the test of its Cycle= line is named %s", p, tt.Name())
			}
			if orig := origLine(string(src)); orig != "" {
				oes, err := a.ParseCycle(strings.Fields(orig))
				if err == nil {
					if ot, err := Build(a, oes); err == nil && strings.EqualFold(ot.Name(), corpusName) {
						tl.nameOrig++
					} else if err == nil {
						t.Errorf("%s: the test of its Orig= line is named %s", p, ot.Name())
					}
				}
			}
		}
		exp, ok := table.Lookup(p)
		if locked || !ok || (cond != "exists" && cond != "~exists") {
			if locked {
				tl.locked++
			}
			continue
		}
		out := write(tt, filepath.Base(p))
		files = append(files, out)
		want[out], from[out] = exp == (cond == "exists"), p
		if strings.Contains(string(src), "!= 0);") && strings.Contains(cyc, "DpCtrl") {
			// diy's C form of a control dependency, r1 = (r0 != 0);, is
			// no branch: the corpus verdict is that of program order.
			var po []Edge
			for _, e := range es {
				if e.Kind == Dep && e.Dep == "Ctrl" {
					e, err = a.ParseEdge("Pod" + string(e.Src) + string(e.Dst) + e.SrcAnn + e.DstAnn)
					if err != nil {
						t.Fatal(err)
					}
				}
				po = append(po, e)
			}
			pt, err := Build(a, po)
			if err != nil {
				t.Fatalf("%s without its Ctrl: %v", p, err)
			}
			o := write(pt, "po-"+filepath.Base(p))
			noCtrl = append(noCtrl, o)
			ctrlOf[out], want[o], from[o] = o, want[out], p
		}
	}
	verdict := map[string]bool{}
	batch.Run(context.Background(), append(append([]string(nil), files...), noCtrl...), lkmmOptions(corpus, "both"), func(j batch.Job) {
		if j.Err != nil || j.Result == nil || j.Result.Status.String() != "done" {
			status := ""
			if j.Result != nil {
				status = j.Result.Status.String()
			}
			t.Errorf("%s (from %s): %s %v", j.Path, from[j.Path], status, j.Err)
			return
		}
		if j.Disagreement != nil {
			t.Errorf("%s (from %s): the engines disagree: %+v", j.Path, from[j.Path], *j.Disagreement)
			return
		}
		verdict[j.Path] = j.Result.Ok()
	})
	for _, f := range files {
		v, ok := verdict[f]
		if !ok {
			continue
		}
		tl.compared++
		if v == want[f] {
			tl.agree++
			continue
		}
		if o := ctrlOf[f]; o != "" {
			if pv, ok := verdict[o]; ok && pv == want[f] {
				tl.fakeCtrl++
				continue
			}
		}
		src, _ := os.ReadFile(f)
		t.Errorf("%s: the test generated from its Cycle= line answers Ok=%v, the corpus expects %v\n%s", from[f], v, want[f], src)
	}
	t.Logf("LKMM: %d Cycle= lines, %d generated; threads as the corpus's up to renaming: %d (+%d hand-edited with spin locks, locks left out); names: %d as from the Cycle= line, %d once its threads are rotated as diy's, %d but for the case of letters, %d from the Orig= line (case aside); verdicts (both engines): %d compared, %d agree, %d differ as known (the corpus's Ctrl is r1 = (r0 != 0);, no branch: the test without it gets the corpus verdict); %d locked tests not compared; Cycle= line as diy's rotation: %d",
		tl.lines, tl.made, tl.threads, tl.threadsLocked, tl.nameCycle, tl.nameRotated, tl.nameCase, tl.nameOrig, tl.compared, tl.agree, tl.fakeCtrl, tl.locked, tl.rotation)
}

// origLine is the Orig= line of a test.
func origLine(src string) string {
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "Orig=") {
			return strings.TrimSpace(l[len("Orig="):])
		}
		if strings.HasPrefix(l, "{") {
			break
		}
	}
	return ""
}

// rotatedName is the name of the test of tt's cycle that begins with
// its thread rot (what diy writes when its enumeration finds the cycle
// from there).
func rotatedName(tt *Test, rot int) string {
	if rot < 0 {
		return ""
	}
	k := tt.Threads[rot][0]
	rt, err := Build(tt.Arch, append(append([]Edge(nil), tt.Edges[k:]...), tt.Edges[:k]...))
	if err != nil {
		return ""
	}
	return rt.Name()
}
