package cfront

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestRacePipeOneStep compiles C programs with musket-cc's one-step race
// pipe and with the two steps (the front end's IR rewritten by
// raceGuard, then optimised by a second compilation), with races checked
// (the optimised form) and without (accesses as written), and wants the
// same IR (but for how attribute groups are numbered: sameIRText) and
// the same lowered programs. MUSKET_LONG=1 takes every C
// file of the repository.
func TestRacePipeOneStep(t *testing.T) {
	needSessions(t)
	files := []string{"../../examples/c/ttas.c", "../../examples/c/chase-lev.c", "testdata/racecc/static_local.c",
		"testdata/sem/sv_forward.c", "testdata/clang_error.c", "testdata/cnames.c"}
	if os.Getenv("MUSKET_LONG") != "" {
		files = allRepoCFiles()
	}
	defer func() { racePipeOneOff = false }()
	for _, f := range files {
		for _, raceFree := range []bool{true, false} {
			co := ClangOptions{NoCache: true, RaceFree: raceFree}
			racePipeOneOff = true
			two, err2 := CompileIR(context.Background(), f, co)
			racePipeOneOff = false
			runs := racePipeOneRuns.Load()
			one, err1 := CompileIR(context.Background(), f, co)
			if fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Errorf("%s race-free=%v: one step's error %v, two steps' %v", f, raceFree, err1, err2)
				continue
			}
			if err1 != nil {
				continue
			}
			if racePipeOneRuns.Load() == runs {
				if racePipeOneNone.Load() {
					t.Skipf("%s was built before musket-cc had the one-step race pipe: scripts/setup-deps.sh rebuilds it", FastFront())
				}
				t.Fatalf("%s race-free=%v: the one-step pipe did not answer", f, raceFree)
			}
			if sameIRText(one) != sameIRText(two) {
				t.Errorf("%s race-free=%v: the one-step IR differs from the two steps' IR", f, raceFree)
				if d := os.Getenv("MUSKET_PIPE_DIFF"); d != "" {
					base := filepath.Join(d, fmt.Sprintf("%s.%v", filepath.Base(f), raceFree))
					os.WriteFile(base+".one.ll", one, 0o644)
					os.WriteFile(base+".two.ll", two, 0o644)
				}
			}
			for _, bound := range []int{1, 2} {
				p1, e1 := LowerIR(f, one, Options{Bound: bound})
				p2, e2 := LowerIR(f, two, Options{Bound: bound})
				if fmt.Sprint(e1) != fmt.Sprint(e2) {
					t.Errorf("%s race-free=%v bound %d: lowering errors differ: %v / %v", f, raceFree, bound, e1, e2)
					continue
				}
				if e1 == nil && dumpProgram(p1) != dumpProgram(p2) {
					t.Errorf("%s race-free=%v bound %d: the lowered programs differ", f, raceFree, bound)
				}
			}
		}
	}
}

// allRepoCFiles are the C files of examples/c and of the testdata of
// cfront and of the musket command, sorted.
func allRepoCFiles() []string {
	var files []string
	files, _ = filepath.Glob("../../examples/c/*.c")
	for _, dir := range []string{"testdata", "../../cmd/musket/testdata"} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".c" {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	return files
}

// sameIRText is the IR ll with each reference to an attribute group
// replaced by the group's attributes, without the groups' definitions
// and the comments that list a function's attributes (and without
// blank lines). The printer numbers attribute groups in the order it
// meets them: the two steps' IR still has the group of raceGuard's
// declarations (raceUnguard deletes the declarations from the text,
// not their group nor its comment), the one step's has none.
func sameIRText(ll []byte) string {
	groups := map[string]string{}
	var lines []string
	for _, ln := range strings.Split(string(ll), "\n") {
		if m := attrGroupDef.FindStringSubmatch(ln); m != nil {
			groups[m[1]] = m[2]
			continue
		}
		if strings.TrimSpace(ln) == "" || strings.HasPrefix(ln, "; Function Attrs:") {
			continue
		}
		lines = append(lines, ln)
	}
	for i, ln := range lines {
		// Not inside a string constant (the odd parts between quotes).
		parts := strings.Split(ln, `"`)
		for j := 0; j < len(parts); j += 2 {
			parts[j] = attrGroupRef.ReplaceAllStringFunc(parts[j], func(r string) string {
				return " #{" + groups[strings.TrimPrefix(r, " #")] + "}"
			})
		}
		lines[i] = strings.Join(parts, `"`)
	}
	return strings.Join(lines, "\n")
}

var (
	attrGroupDef = regexp.MustCompile(`^attributes #(\d+) = \{ (.*) \}$`)
	attrGroupRef = regexp.MustCompile(` #\d+\b`)
)
