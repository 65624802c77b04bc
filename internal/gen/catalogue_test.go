package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// shapeOf is a litmus test reduced to what a generator decides: the
// code of each thread, the registers' initial addresses and the final
// condition, with each thread's registers renamed in the order the code
// first names them (diy and musket gen number registers differently).
type shapeOf struct {
	code []string // one line per thread, instructions joined by " ; "
	init []string // sorted "T:reg=loc"
	cond string   // the condition's atoms, sorted
}

// regRE finds the registers of each dialect; AArch64's W and X views of
// one register are one register.
var regRE = map[string]*regexp.Regexp{
	"X86":     regexp.MustCompile(`\bE[A-D]X\b|\bE[SD]I\b|\bR\d+D?\b`),
	"PPC":     regexp.MustCompile(`\br\d+\b`),
	"AArch64": regexp.MustCompile(`\b[WX]\d+\b`),
	"RISCV":   regexp.MustCompile(`\bx([1-9]\d*)\b`),
}

func regKey(arch, r string) string {
	if arch == "AArch64" {
		return r[1:]
	}
	return r
}

// shape parses the parts of src that shapeOf keeps.
func shape(arch, src string, once map[string]bool) (shapeOf, error) {
	var s shapeOf
	re := regRE[arch]
	if re == nil {
		return s, fmt.Errorf("no register syntax for %s", arch)
	}
	open := strings.Index(src, "{")
	close := strings.Index(src, "}")
	if open < 0 || close < open {
		return s, fmt.Errorf("no init")
	}
	rest := src[close+1:]
	ex := regexp.MustCompile(`(?m)^\s*(exists|~exists|forall)`).FindStringIndex(rest)
	if ex == nil {
		return s, fmt.Errorf("no condition")
	}
	table, condText := rest[:ex[0]], rest[ex[0]:]
	var cols [][]string
	for i, l := range strings.Split(strings.TrimSpace(table), "\n") {
		l = strings.TrimSuffix(strings.TrimSpace(l), ";")
		if i == 0 || l == "" {
			continue // the P0 | P1 header
		}
		for j, c := range strings.Split(l, "|") {
			for len(cols) <= j {
				cols = append(cols, nil)
			}
			if c = strings.Join(strings.Fields(c), " "); c != "" {
				cols[j] = append(cols[j], c)
			}
		}
	}
	rename := make([]map[string]string, len(cols))
	for j, ins := range cols {
		rename[j] = map[string]string{}
		for k, in := range ins {
			ins[k] = re.ReplaceAllStringFunc(in, func(r string) string {
				key := regKey(arch, r)
				n, ok := rename[j][key]
				if !ok {
					n = fmt.Sprintf("%d", len(rename[j]))
					rename[j][key] = n
				}
				return r[:1] + "#" + n
			})
		}
		s.code = append(s.code, strings.Join(ins, " ; "))
	}
	named := func(t int, r string) string {
		if t >= len(rename) {
			return r + "?"
		}
		if n, ok := rename[t][regKey(arch, r)]; ok {
			return "#" + n
		}
		return r + "?"
	}
	atom := regexp.MustCompile(`(\d+):(\w+)\s*=\s*(\w+)`)
	for _, m := range atom.FindAllStringSubmatch(src[open:close], -1) {
		var t int
		fmt.Sscan(m[1], &t)
		s.init = append(s.init, fmt.Sprintf("%d:%s=%s", t, named(t, m[2]), m[3]))
	}
	sort.Strings(s.init)
	var atoms []string
	for _, m := range regexp.MustCompile(`(\d+:)?\[?\w+\]?\s*=\s*-?\w+`).FindAllString(condText, -1) {
		m = strings.Join(strings.Fields(m), "")
		m = strings.NewReplacer("[", "", "]", "").Replace(m)
		if am := atom.FindStringSubmatch(m); am != nil && strings.HasPrefix(m, am[1]+":") {
			var t int
			fmt.Sscan(am[1], &t)
			m = fmt.Sprintf("%d:%s=%s", t, named(t, am[2]), am[3])
		}
		if once[m] {
			continue // the only write to a location: true in every execution
		}
		atoms = append(atoms, m)
	}
	sort.Strings(atoms)
	s.cond = strings.Fields(condText)[0] + " " + strings.Join(atoms, " /\\ ")
	return s, nil
}

// plainExists is diy's condition: one exists over a conjunction.
var plainExists = regexp.MustCompile(`(?m)^exists\s*\(?[^\\]*(/\\[^\\]*)*\)?\s*$`)

// writtenOnce lists "x=v" for each location the test writes once, with
// value v: a final condition that says so holds in every execution.
func (t *Test) writtenOnce() map[string]bool {
	n, v := map[int]int{}, map[int]int{}
	for _, e := range t.Events {
		if e.Dir == 'W' {
			n[e.Loc]++
			v[e.Loc] = e.Val
		}
	}
	once := map[string]bool{}
	for l, k := range n {
		if k == 1 {
			once[fmt.Sprintf("%s=%d", LocName(l), v[l])] = true
		}
	}
	return once
}

// knownDiff says why a corpus test differs from the generated test of its
// cycle, when it is known: the test was written or edited by hand, or by
// diy with options musket gen does not have.
func knownDiff(path string) string {
	switch {
	case strings.Contains(path, "/RPLUS/"):
		return "diy's observers (-obs): a load after the last write of a location in place of its final value"
	case strings.HasSuffix(path, "RISCV/S+fence.w.w+data-wsi.litmus"):
		return "diy's observers (-obs): a load after the last write of a location in place of its final value"
	case strings.Contains(path, "/DETOUR"):
		return "diy's detour mode: a fence before its observer loads, no final value where reads pin the coherence order, no observer where diy leaves two writes unordered"
	case strings.Contains(path, "/HAND/"), strings.Contains(path, "/HAND2/"), strings.Contains(path, "/TUTO/"):
		return "written or edited by hand"
	}
	return ""
}

func sameCode(a, b shapeOf) bool {
	return strings.Join(a.code, "\n") == strings.Join(b.code, "\n") && strings.Join(a.init, " ") == strings.Join(b.init, " ")
}

// subset tells whether the atoms of condition a are among those of b.
func subset(a, b string) bool {
	in := map[string]bool{}
	for _, x := range strings.Split(b, " /\\ ") {
		in[strings.TrimPrefix(x, "exists ")] = true
	}
	for _, x := range strings.Split(a, " /\\ ") {
		if !in[strings.TrimPrefix(x, "exists ")] {
			return false
		}
	}
	return true
}

func (s shapeOf) String() string {
	return strings.Join(s.code, "\n") + "\ninit " + strings.Join(s.init, " ") + "\n" + s.cond
}

// TestCatalogueCode generates the cycle of every corpus test whose Orig=
// line the generator reads and whose name it gives as the corpus does,
// and compares the code, the initial state and the final condition with
// the corpus test's (the herdtools7 catalogue's tests, written by diy),
// up to the numbering of registers.
func TestCatalogueCode(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "litmus")
	for _, s := range corpusSuites {
		t.Run(s.dir, func(t *testing.T) {
			same, differ, extra, knownN, codeOnly, rmwN, comSame, comDiffer, preSame, preDiffer := 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
			var mixed mixedTally
			filepath.Walk(filepath.Join(root, s.dir), func(p string, info os.FileInfo, err error) error {
				if err != nil || !strings.HasSuffix(p, ".litmus") {
					return nil
				}
				archWord, name, cyc, _ := corpusCycle(p)
				if cyc == "" {
					return nil
				}
				a, err := LookupArch(archWord)
				if err != nil {
					return nil
				}
				es, err := a.ParseCycle([]string{cyc})
				if err != nil {
					return nil
				}
				tt, err := Build(a, es)
				if err != nil || !sameName(tt, name) {
					return nil
				}
				text := testText(t, tt)
				src, _ := os.ReadFile(p)
				if hasExclusive(tt) {
					// diy's -unrollatomic forms of the corpus differ from
					// test to test (a pair with its flag in a forall; a
					// CBNZ to a Fail label that clears ok); the verdicts
					// are TestCorpusCycleLines'.
					knownN++
					return nil
				}
				if tt.Mixed() {
					mixed.compare(t, p, string(src), text, tt)
					return nil
				}
				if m := prefetchLine.FindSubmatch(src); m != nil {
					if string(m[1]) == tt.Prefetch() {
						preSame++
					} else {
						preDiffer++
						if knownDiff(p) == "" && !olderDiy(src) {
							t.Errorf("%s: Prefetch=%s, the generator writes Prefetch=%s", p, m[1], tt.Prefetch())
						}
					}
				}
				if m := comLine.FindSubmatch(src); m != nil {
					if string(m[1]) == tt.Com() {
						comSame++
					} else {
						comDiffer++
						if knownDiff(p) == "" {
							t.Errorf("%s: Com=%s, the generator writes Com=%s", p, m[1], tt.Com())
						}
					}
				}
				want, err1 := shape(a.Name, string(src), tt.writtenOnce())
				got, err2 := shape(a.Name, text, tt.writtenOnce())
				if err1 != nil || err2 != nil {
					t.Errorf("%s: %v %v", p, err1, err2)
					return nil
				}
				if plainExists.FindIndex(src) == nil {
					// A condition over every outcome (forall, a
					// disjunction), not diy's: the code and the
					// initial state only.
					switch {
					case sameCode(want, got):
						codeOnly++
						if hasRmw(es) {
							rmwN++
						}
					case tt.Locs == 1:
						// diy numbers the writes of a one-location
						// cycle in another coherence order (TUTO/CoWR).
						knownN++
					default:
						differ++
						t.Errorf("%s: the generated code differs\ncorpus:\n%s\ngenerated:\n%s", p, want, got)
					}
					return nil
				}
				if want.String() == got.String() {
					if hasRmw(es) {
						rmwN++
					}
					same++
					return nil
				}
				if sameCode(want, got) && subset(want.cond, got.cond) {
					// diy before its -optcond rule (the RISC-V tests of
					// the corpus) left out the reads that only a
					// same-location edge relates.
					extra++
					return nil
				}
				if known := knownDiff(p); known != "" {
					t.Logf("%s: differs, as known: %s", p, known)
					knownN++
					return nil
				}
				differ++
				if differ <= 8 {
					t.Errorf("%s: the generated test differs\ncorpus:\n%s\ngenerated:\n%s", p, want, got)
				}
				return nil
			})
			t.Logf("%s: %d generated tests as the corpus writes them; %d with more reads in the condition, %d known to differ, %d others; %d with a forall condition of the same code; %d of these with Rmw or Hat edges; Com= line: %d as diy's, %d not; Prefetch= line: %d as diy's, %d not", s.dir, same, extra, knownN, differ, codeOnly, rmwN, comSame, comDiffer, preSame, preDiffer)
			if mixed != (mixedTally{}) {
				t.Logf("%s mixed sizes: %s", s.dir, mixed)
			}
		})
	}
}

// prefetchLine is diy's Prefetch= header line.
var prefetchLine = regexp.MustCompile(`(?m)^Prefetch=(.*?)\s*$`)

// olderDiy tells whether a test has no Generator= line: an older diy,
// whose Prefetch= left out some threads (PPC's rfi-data tests).
func olderDiy(src []byte) bool { return !strings.Contains(string(src), "\nGenerator=") }

// comLine is diy's Com= header line.
var comLine = regexp.MustCompile(`(?m)^Com=(.*?)\s*$`)

func hasRmw(es []Edge) bool {
	for _, e := range es {
		if e.Kind == Rmw || e.Kind == Hat {
			return true
		}
	}
	return false
}

// mixedTally counts the comparisons of mixed-size tests with diy's.
type mixedTally struct{ same, extra, noCond, observers, torn, internal, differ int }

func (m mixedTally) String() string {
	return fmt.Sprintf("%d generated as the corpus writes them, %d with more reads in the condition; %d corpus tests with no condition (diy's locations only), %d with diy's observers (loads the generated test does without), %d with a disjunction of two values of a read (diy's one-location cycles), %d with other values where an internal communication relates accesses of two sizes (see explainMismatches), %d others",
		m.same, m.extra, m.noCond, m.observers, m.torn, m.internal, m.differ)
}

// loads counts the load instructions of a test's code.
func loads(src string) int {
	return len(regexp.MustCompile(`\bLD[A-Z]*\s`).FindAllString(src[strings.Index(src, "}"):], -1))
}

// compare compares a generated mixed-size test with the corpus's: the
// registers' types, values in hexadecimal and the byte-replicated values
// are diy's; diy's conventions the generator does not follow are
// counted apart.
func (m *mixedTally) compare(t *testing.T, p, src, gen string, tt *Test) {
	switch {
	case !regexp.MustCompile(`(?m)^\s*exists`).MatchString(src):
		m.noCond++
		return
	case loads(src) > loads(gen):
		m.observers++
		return
	}
	// diy's locations line (what herd prints of each outcome) is not
	// code.
	src = regexp.MustCompile(`(?m)^locations.*$`).ReplaceAllString(src, "")
	want, err1 := shape("AArch64", src, nil)
	got, err2 := shape("AArch64", gen, nil)
	if err1 != nil || err2 != nil {
		t.Errorf("%s: %v %v", p, err1, err2)
		return
	}
	// Values in decimal (older diy wrote the initial state so), without
	// the final value of a location written once (true anyway).
	once := map[string]bool{}
	n := map[int]int{}
	for _, e := range tt.Events {
		if e.Dir == 'W' {
			n[e.Loc]++
		}
	}
	for l, k := range n {
		if k == 1 {
			once[fmt.Sprintf("%s=%d", LocName(l), tt.MFinal[l])] = true
		}
	}
	want, got = decimal(want, once), decimal(got, once)
	switch {
	case want.String() == got.String():
		m.same++
	case sameCode(want, got) && subset(want.cond, got.cond):
		// diy leaves out of a mixed-size test's condition some reads
		// that only same-location edges or a dependency relate.
		m.extra++
	case sameCode(want, got) && mixedInternal(p):
		m.internal++
	case sameCode(noOffsetAdd(want), got) && subset(want.cond, got.cond):
		// diy adds 0 to an address dependency's offset register when
		// it joins two offsets of one location (addrsw4w0).
		m.extra++
	case plainExists.FindStringIndex(src) == nil && sameCode(noOffsetAdd(want), got):
		m.torn++
	default:
		m.differ++
		if m.differ <= 40 {
			t.Errorf("%s: the generated mixed-size test differs\ncorpus:\n%s\ngenerated:\n%s", p, want, got)
		}
	}
}

// decimal writes the values of a shape in decimal and leaves out the
// atoms of once.
func decimal(s shapeOf, once map[string]bool) shapeOf {
	num := regexp.MustCompile(`=(0x[0-9a-fA-F]+|[0-9]+)\b`)
	conv := func(x string) string {
		return num.ReplaceAllStringFunc(x, func(m string) string {
			v, err := strconv.ParseUint(m[1:], 0, 64)
			if err != nil {
				return m
			}
			return fmt.Sprintf("=%d", v)
		})
	}
	out := shapeOf{code: s.code}
	for _, i := range s.init {
		out.init = append(out.init, conv(i))
	}
	sort.Strings(out.init)
	kw, rest, _ := strings.Cut(s.cond, " ")
	var atoms []string
	seen := map[string]bool{}
	for _, a := range strings.Split(rest, " /\\ ") {
		if a = conv(a); a != "" && !once[a] && !seen[a] {
			atoms = append(atoms, a)
			seen[a] = true
		}
	}
	sort.Strings(atoms)
	out.cond = kw + " " + strings.Join(atoms, " /\\ ")
	return out
}

// noOffsetAdd leaves out of a shape's code diy's ADD of 0 to a
// register.
func noOffsetAdd(s shapeOf) shapeOf {
	re := regexp.MustCompile(` ; ADD X#(\d+),X#(\d+),#0\b`)
	out := s
	out.code = nil
	for _, c := range s.code {
		out.code = append(out.code, re.ReplaceAllString(c, ""))
	}
	return out
}

// hasExclusive tells whether a test has an exclusive (X) access.
func hasExclusive(tt *Test) bool {
	for _, ev := range tt.Events {
		if ev.Ann == "X" {
			return true
		}
	}
	return false
}
