package fix

import (
	"context"
	"fmt"
	"os"

	"github.com/musket-verify/musket/internal/porthos"
	"github.com/musket-verify/musket/internal/result"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// change names a candidate as the tests expect it: "P1 after 11 sync",
// "P1 line 14 ldar".
func change(c Cand) string {
	if c.Fence {
		return fmt.Sprintf("P%d after %d %s", c.Thread, c.Line, c.Name)
	}
	return fmt.Sprintf("P%d line %d %s", c.Thread, c.Line, c.Name)
}

func changes(out *Outcome) string {
	var cs []string
	for _, i := range out.Fix {
		cs = append(cs, change(out.Cands[i]))
	}
	sort.Strings(cs)
	return strings.Join(cs, "; ")
}

// cheaperAllBad checks, by brute force, that every set of candidates
// (at most one per group) cheaper than cost leaves the condition
// reachable: no cheaper repair exists among the candidates.
func cheaperAllBad(t *testing.T, s Subject, cost int) int {
	t.Helper()
	return cheaperAllBadN(t, s, cost, maxBrute)
}

// cheaperAllBadN is cheaperAllBad checking at most limit sets (none,
// with a log line, when there are more).
func cheaperAllBadN(t *testing.T, s Subject, cost, limit int) int {
	t.Helper()
	cands := s.Candidates()
	var groups []string
	byGroup := map[string][]int{}
	for i, c := range cands {
		if _, ok := byGroup[c.Group]; !ok {
			groups = append(groups, c.Group)
		}
		byGroup[c.Group] = append(byGroup[c.Group], i)
	}
	checked := 0
	var sel []int
	counting := true
	var walk func(g, spent int)
	walk = func(g, spent int) {
		if g == len(groups) {
			checked++
			if counting {
				return
			}
			bad, _, err := s.Check(context.Background(), sel)
			if err != nil {
				t.Fatal(err)
			}
			if !bad {
				var cs []string
				for _, i := range sel {
					cs = append(cs, change(cands[i]))
				}
				t.Errorf("a cheaper repair exists (cost %d < %d): %s", spent, cost, strings.Join(cs, "; "))
			}
			return
		}
		walk(g+1, spent)
		for _, c := range byGroup[groups[g]] {
			if spent+cands[c].Cost >= cost {
				continue
			}
			sel = append(sel, c)
			walk(g+1, spent+cands[c].Cost)
			sel = sel[:len(sel)-1]
		}
	}
	walk(0, 0)
	if checked > limit {
		t.Logf("brute force skipped: %d cheaper sets (more than %d)", checked, limit)
		return 0
	}
	counting, checked = false, 0
	walk(0, 0)
	return checked
}

// maxBrute bounds the sets the brute force checks.
const maxBrute = 3000

// long tells whether the long tests run (MUSKET_LONG=1).
var long = os.Getenv("MUSKET_LONG") != ""

func TestRepair(t *testing.T) {
	tests := []struct {
		file, target, engine string
		costs                string // a cost file's text, "" for the defaults
		bound                int
		want                 string
		cost                 int
		nofix                bool
		races                bool // C: -races
		long                 bool // the loop behind MUSKET_LONG
		longBrute            bool // the brute force behind MUSKET_LONG
	}{
		{file: "SB.x86.litmus", want: "P0 after 4 mfence; P1 after 4 mfence", cost: 2},
		// The locked store (MOV r,v; XCHG [x],r) once it is the cheaper.
		{file: "SB.x86.litmus", costs: "x86 mfence 3\nx86 xchg 1\n", want: "P0 line 4 xchg; P1 line 4 xchg", cost: 2},
		{file: "MP.ppc.litmus", want: "P0 after 9 lwsync; P1 line 9 addr", cost: 3},
		// Without dependencies in the table: lwsync on both sides.
		{file: "MP.ppc.litmus", costs: "power lwsync 1\npower sync 2\n", want: "P0 after 9 lwsync; P1 after 8 lwsync", cost: 2},
		// Load buffering: a dependency in each thread (addr, or data
		// when the table offers only that).
		{file: "LB.ppc.litmus", want: "P0 line 10 addr; P1 line 10 addr", cost: 2},
		{file: "LB.ppc.litmus", costs: "power data 1\npower lwsync 2\n", want: "P0 line 10 data; P1 line 10 data", cost: 2},
		{file: "LB.aarch64.litmus", want: "P0 line 10 addr; P1 line 10 addr", cost: 2},
		{file: "LB.riscv.litmus", want: "P0 line 10 addr; P1 line 10 addr", cost: 2},
		// At equal cost the weaker fence: fence r,w, not fence r,rw
		// (the self-check's weakening found the latter chosen).
		{file: "LB.riscv.litmus", costs: "riscv fence r,rw 2\nriscv fence r,w 2\nriscv fence rw,rw 6\n", want: "P0 after 8 fence r,w; P1 after 8 fence r,w", cost: 4},
		// The reader's dependency once it is the cheaper.
		{file: "MP.ppc.litmus", costs: "power lwsync 2\npower sync 3\npower ctrlisync 1\n", want: "P0 after 9 lwsync; P1 after 8 ctrlisync", cost: 3},
		{file: "IRIW.ppc.litmus", want: "P1 after 10 sync; P3 after 10 sync", cost: 8},
		// Write-to-read causality: a cumulative barrier in the middle,
		// a dependency in the reader (the literature's WRC+lwsync+addr).
		// The compare in P1 makes the front end wrap P2's registers to
		// 32 bits after each load, which once hid the dependency (two
		// lwsyncs, cost 4).
		{file: "WRC-ctrl.ppc.litmus", want: "P1 after 9 lwsync; P2 line 10 addr", cost: 3},
		// A ring of four load-buffering threads: the kill test revives
		// the same few witnesses set after set; re-adding them to the
		// known list doubled it at each revival (minutes, then
		// 0.3 s CPU once fixed).
		{file: "LB4.ppc.litmus", want: "P0 line 12 addr; P1 line 12 addr; P2 line 12 addr; P3 line 12 addr", cost: 4},
		{file: "MP.aarch64.litmus", want: "P0 after 9 dmb ishst; P1 line 9 addr", cost: 3},
		{file: "MP.aarch64.litmus", costs: "aarch64 ldar 1\naarch64 stlr 1\naarch64 dmb ishst 1\naarch64 dmb ish 2\n", want: "P0 after 9 dmb ishst; P1 line 8 ldar", cost: 2},
		// LDAPR (acquire-PC) orders the flag's load before the data's as
		// LDAR does: offered first, the weaker at equal cost.
		{file: "MP.aarch64.litmus", costs: "aarch64 ldapr 1\naarch64 ldar 1\naarch64 stlr 1\naarch64 dmb ishst 1\naarch64 dmb ish 2\n", want: "P0 after 9 dmb ishst; P1 line 8 ldapr", cost: 2},
		// Store buffering needs the load ordered after the STLR before
		// it: LDAR, not LDAPR.
		{file: "SB.aarch64.litmus", costs: "aarch64 ldapr 1\naarch64 ldar 1\naarch64 stlr 1\naarch64 dmb ish 3\n", want: "P0 line 10 ldar; P0 line 9 stlr; P1 line 10 ldar; P1 line 9 stlr", cost: 4},
		{file: "MP.riscv.litmus", want: "P0 after 8 fence w,w; P1 line 9 addr", cost: 3},
		// A write before a read: fence w,r, lighter than fence rw,rw
		// (the repertoire had no fence with w before and r after but
		// rw,rw).
		{file: "SB.riscv.litmus", want: "P0 after 8 fence w,r; P1 after 8 fence w,r", cost: 10},
		{file: "R.riscv.litmus", want: "P0 after 8 fence w,w; P1 after 8 fence w,r", cost: 7},
		{file: "SB.riscv.litmus", costs: "riscv fence rw,rw 1\n", want: "P0 after 8 fence rw,rw; P1 after 8 fence rw,rw", cost: 2},
		{file: "MP.arm.litmus", want: "P0 after 8 dmb st; P1 line 9 addr", cost: 3},
		{file: "MP.c.litmus", want: "P0 line 10 release; P1 line 14 acquire", cost: 2},
		// Store buffering in C11 (a test of musket gen): a seq_cst
		// fence in each thread, cheaper than four seq_cst accesses (the
		// literature's SB+scs), which a table pricing the fence higher
		// gives.
		{file: "SB.c.litmus", want: "P0 after 7 fence seq_cst; P1 after 11 fence seq_cst", cost: 6},
		{file: "SB.c.litmus", costs: "c11 fence seq_cst 5\nc11 seq_cst 2\nc11 acquire 1\nc11 release 1\nc11 relaxed 0\n", want: "P0 line 7 seq_cst; P0 line 8 seq_cst; P1 line 11 seq_cst; P1 line 12 seq_cst", cost: 8},
		{file: "sc-allowed.c.litmus", nofix: true},
		// A C lock whose unlock is relaxed (clang-14): release, as the
		// correct version of the program has it.
		{file: "../../../examples/c/ttas-bug.c", engine: "smt", want: "P-1 line 27 release", cost: 1, long: true},
		// -races: a real race on a plain variable has no repair; one
		// from a relaxed flag is repaired by release/acquire.
		{file: "race.c", engine: "smt", races: true, bound: 1, nofix: true},
		{file: "mp-race.c", engine: "smt", races: true, bound: 1, want: "P-1 line 13 release; P-1 line 20 acquire", cost: 2, long: true},
		// A loop: the SMT engine in the loop, the explicit one re-checks.
		{file: "mp-loop.arm.litmus", bound: 1, want: "P0 after 8 dmb st; P1 after 8 dmb", cost: 6, longBrute: true},
		// Mutual exclusion (entry protocols; see the files).
		{file: "peterson.pts", target: "x86", engine: "enum", bound: 1, want: "P0 line 8 seq_cst; P1 line 20 seq_cst", cost: 2},
		{file: "dekker.pts", target: "x86", engine: "enum", bound: 1, want: "P0 line 7 seq_cst; P1 line 25 seq_cst", cost: 2},
		{file: "dekker.pts", target: "power", engine: "enum", bound: 1, want: "P0 line 8 seq_cst; P1 line 26 seq_cst", cost: 12, longBrute: true},
		{file: "dekker.pts", target: "aarch64", engine: "enum", bound: 1, want: "P0 line 7 release; P0 line 8 acquire; P1 line 25 release; P1 line 26 acquire", cost: 8, longBrute: true},
		{file: "dekker.pts", target: "armv7", engine: "enum", bound: 1, want: "P0 line 7 seq_cst; P1 line 25 seq_cst", cost: 16, long: true},
		{file: "dekker.pts", target: "riscv", engine: "enum", bound: 1, want: "P0 line 8 seq_cst; P1 line 26 seq_cst", cost: 16, long: true},
		{file: "peterson.pts", target: "power", engine: "enum", bound: 1, want: "P0 line 8 seq_cst; P0 line 9 seq_cst; P1 line 20 seq_cst; P1 line 21 seq_cst", cost: 20, long: true},
		{file: "peterson.pts", target: "aarch64", engine: "enum", bound: 1, want: "P0 line 8 release; P0 line 9 acquire; P1 line 20 release; P1 line 21 acquire", cost: 8, long: true},
		{file: "peterson.pts", target: "armv7", engine: "enum", bound: 1, want: "P0 line 8 seq_cst; P1 line 20 seq_cst", cost: 16, long: true},
		{file: "peterson.pts", target: "riscv", engine: "enum", bound: 1, want: "P0 line 8 release; P0 line 9 seq_cst; P1 line 20 release; P1 line 21 seq_cst", cost: 20, long: true},
	}
	for _, tc := range tests {
		name := filepath.Base(tc.file)
		if tc.target != "" {
			name += "/" + tc.target
		}
		if tc.costs != "" {
			name += "/costs"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if tc.long && !long {
				t.Skip("a repair of several seconds: MUSKET_LONG=1 runs it")
			}
			path := filepath.Join("testdata", tc.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			bound := tc.bound
			if bound == 0 {
				bound = 2
			}
			opts := Options{Bound: bound, Target: tc.target, Engine: tc.engine, Races: tc.races}
			if tc.costs != "" {
				if opts.Costs, err = ParseCosts("costs", []byte(tc.costs)); err != nil {
					t.Fatal(err)
				}
			}
			s, err := New(path, src, opts)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Repair(context.Background(), s, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tc.nofix {
				if !out.NoFix {
					t.Fatalf("want no fix, got %q (cost %d)", changes(out), out.Cost)
				}
				return
			}
			if out.NoFix || out.Correct {
				t.Fatalf("no repair found (nofix %v, correct %v)", out.NoFix, out.Correct)
			}
			if got := changes(out); got != tc.want || out.Cost != tc.cost {
				t.Errorf("fix %q cost %d, want %q cost %d", got, out.Cost, tc.want, tc.cost)
			}
			v, err := Verify(context.Background(), s, out.Fix, opts)
			if err != nil {
				t.Fatal(err)
			}
			if v.Reachable || v.Skipped != "" {
				t.Errorf("re-check: reachable %v, skipped %q", v.Reachable, v.Skipped)
			}
			if tc.longBrute && !long {
				t.Logf("%s: %d checks; the brute force runs with MUSKET_LONG=1", tc.file, out.Checks)
				return
			}
			n := cheaperAllBad(t, s, out.Cost)
			t.Logf("%s: %d checks in the loop, %d cheaper sets checked by brute force", tc.file, out.Checks, n)
		})
	}
}

func TestCheapest(t *testing.T) {
	cands := []Cand{
		{Group: "a", Cost: 1}, {Group: "a", Cost: 2}, // 0, 1
		{Group: "b", Cost: 1}, {Group: "b", Cost: 3}, // 2, 3
		{Group: "c", Cost: 5}, // 4
	}
	tests := []struct {
		cons [][]int
		want string
		ok   bool
	}{
		{nil, "[]", true},
		{[][]int{{0, 2}}, "[0]", true},
		{[][]int{{1, 2}}, "[2]", true},
		{[][]int{{1}, {0, 3}}, "[1 3]", true},
		{[][]int{{0, 1}, {1, 4}}, "[1]", true},
		{[][]int{{4}, {0, 2}}, "[0 4]", true},
		{[][]int{{}}, "[]", false},
		{[][]int{{0}, {1}}, "[]", false},
	}
	for _, tc := range tests {
		got, ok := cheapest(cands, tc.cons)
		if ok != tc.ok || (ok && fmt.Sprint(got) != tc.want) {
			t.Errorf("cheapest(%v) = %v, %v; want %s, %v", tc.cons, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseCosts(t *testing.T) {
	c, err := ParseCosts("c.txt", []byte("# Power\npower sync 5\npower lwsync 1\naarch64 dmb ish 7 # comment\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c["power"]["sync"] != 5 || c["aarch64"]["dmb ish"] != 7 || c["x86"]["mfence"] != 1 {
		t.Errorf("costs %v", c)
	}
	if _, ok := c["aarch64"]["ldar"]; ok {
		t.Errorf("a row the file names replaces the default row: ldar should be gone")
	}
	// The last two: a cost of 100 000 digits (quoted, clipped) and a line
	// longer than the scanner's buffer ("bufio.Scanner: token too long",
	// which named no file).
	for _, bad := range []string{"power", "mips sync 1", "power hwsync 1", "power sync -1", "power sync x",
		"power sync " + strings.Repeat("1", 100000), "power sync 1 #" + strings.Repeat("x", 2<<20)} {
		_, err := ParseCosts("c.txt", []byte(bad+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "c.txt:1:1: ") || len(err.Error()) > 1000 {
			t.Errorf("%.40q: error %.100v, want c.txt:1:1: ... (at most 1000 bytes)", bad, err)
		}
	}
}

// TestRepairInclusion is compare -fix: Peterson's entry protocol ported
// from SC to x86-TSO needs the turn store of each thread made seq_cst
// (an mfence after it).
func TestRepairInclusion(t *testing.T) {
	path := "testdata/peterson.pts"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	source, err := porthos.ParseSide("sc", nil)
	if err != nil {
		t.Fatal(err)
	}
	target, err := porthos.ParseSide("tso", nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := RepairInclusion(context.Background(), path, src, &source, &target, Options{Bound: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := changes(out.Outcome); got != "P0 line 8 seq_cst; P1 line 20 seq_cst" || out.Cost != 2 {
		t.Errorf("fix %q cost %d", got, out.Cost)
	}
	if out.Rounds < 2 || out.States == 0 {
		t.Errorf("rounds %d, states %d: want a failing inclusion check, then one that holds", out.Rounds, out.States)
	}
	// The self-check: each change needed, and the explicit engine finds
	// inclusion too.
	unneeded, n, _, err := out.Needed(context.Background())
	if err != nil || len(unneeded) != 0 || n != 2 {
		t.Errorf("Needed = %v, %d checks, %v; want none unneeded in 2 checks", unneeded, n, err)
	}
	missing, st, err := out.Inclusion(context.Background())
	if err != nil || st != result.Done || len(missing) != 0 {
		t.Errorf("Inclusion = %v, %v, %v; want no missing state", missing, st, err)
	}
	// A change too many is reported as not needed, and a change too few
	// leaves states of the target program that are not source states.
	fix := out.Fix
	for i, c := range out.Cands {
		if !slices.Contains(fix, i) && c.Group != out.Cands[fix[0]].Group && c.Group != out.Cands[fix[1]].Group {
			out.Fix = append(slices.Clone(fix), i)
			break
		}
	}
	if unneeded, _, _, err := out.Needed(context.Background()); err != nil || len(unneeded) != 1 || unneeded[0] != out.Fix[2] {
		t.Errorf("Needed with a change too many (%v) = %v, %v; want [%d]", out.Fix, unneeded, err, out.Fix[2])
	}
	out.Fix = fix[:1]
	if missing, _, err := out.Inclusion(context.Background()); err != nil || len(missing) == 0 {
		t.Errorf("Inclusion with a change too few = %v, %v; want missing states", missing, err)
	}
}

// fakeSubject is a program whose condition is reachable unless every
// candidate of need, or a costlier one of its group, is applied; its witnesses say nothing (nil: every
// candidate counts), the worst case of the loop.
type fakeSubject struct {
	cands  []Cand
	need   []int
	checks int
}

func (f *fakeSubject) Candidates() []Cand { return f.cands }
func (f *fakeSubject) Check(_ context.Context, sel []int) (bool, *Witness, error) {
	f.checks++
	for _, c := range f.need {
		met := false
		for _, d := range sel {
			met = met || (f.cands[d].Group == f.cands[c].Group && f.cands[d].Cost >= f.cands[c].Cost)
		}
		if !met {
			return true, nil, nil
		}
	}
	return false, nil, nil
}
func (f *fakeSubject) Name() string      { return "fake" }
func (f *fakeSubject) Target() string    { return "fake" }
func (f *fakeSubject) Condition() string { return "exists (fake)" }

// TestDescend: the repair from above keeps, of the strongest candidate
// of every group, only what is needed, each made the cheapest that
// still repairs; every failing check is reported (for its constraints).
func TestDescend(t *testing.T) {
	f := &fakeSubject{}
	for g := 0; g < 10; g++ {
		f.cands = append(f.cands, Cand{Group: fmt.Sprint(g), Thread: g, Name: "weak", Cost: 1}, Cand{Group: fmt.Sprint(g), Thread: g, Name: "strong", Cost: 3})
	}
	f.need = []int{1, 4, 9} // strong in group 0, weak in 2, strong in 4
	bad := 0
	check := func(sel []int) (bool, error) {
		b, _, err := f.Check(context.Background(), sel)
		if b {
			bad++
		}
		return b, err
	}
	inc, err := descend(f.cands, check)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(inc) != "[1 4 9]" {
		t.Errorf("descend = %v, want [1 4 9]", inc)
	}
	// 1 (the top) + 10 removals (halves 2, pairs 3, ones 5) + the
	// weaker options of the 3 groups kept.
	if f.checks != 1+10+3 || bad != 9 {
		t.Errorf("%d checks, %d failing; want 14, 9", f.checks, bad)
	}
	// One group needed of 40: the chunks take the others out in 11
	// checks (removing them one by one took 40).
	f = &fakeSubject{}
	for g := 0; g < 40; g++ {
		f.cands = append(f.cands, Cand{Group: fmt.Sprint(g), Thread: g, Name: "weak", Cost: 1}, Cand{Group: fmt.Sprint(g), Thread: g, Name: "strong", Cost: 3})
	}
	f.need = []int{15} // strong in group 7
	if inc, err = descend(f.cands, check); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(inc) != "[15]" || f.checks != 1+11+1 {
		t.Errorf("descend = %v in %d checks, want [15] in 13", inc, f.checks)
	}
}
