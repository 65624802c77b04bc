package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// racesUsage is the paragraph of 'musket check -h' on -races.
const racesUsage = `
Data races (-races). In C11 and the models built on it (c11, rc11, imm),
a data race is a pair of accesses to one location by two threads, at
least one a write and at least one plain (not atomic), that no
happens-before order puts one before the other, in some execution the
model allows: the program's behaviour is then undefined. Such models
raise a flag for it (flag ~empty race as data-race). With -races a
raised race flag (one whose name says race or racy: data-race,
data_race, unsequenced_race, racy) is a violation, like a reachable
condition: exit status 1, and -witness writes an execution with the race
(when the condition itself is not reachable). Without -races, raised
flags are only listed. A model with no race flag is refused with -races.

C programs: races are checked by default under the models with a race
flag (c11, rc11, imm, a .cat file with one): a data race is the verdict
RACE (exit status 1) with its two accesses (thread, variable, source
line, read or write, memory order), found in the model's race relation
evaluated on the witness, so every engine reports the same definition;
-races=false turns it off. When a program has both a race and a failing
assertion, RACE is the verdict (the behaviour of a racy program is
undefined) and the assertion is reported with it ("also: ... fails"):
the engines explore until they know both, where GenMC stops at the first
error it meets. Under a hardware -target (aarch64, power, riscv, x86,
...) races are not applicable: the machine's accesses have no plain or
atomic kind, and -races is refused there.
`

// isRaceFlag tells whether a flag names a race (one rule for every kind
// of program: cfront.IsRaceFlag).
func isRaceFlag(name string) bool { return cfront.IsRaceFlag(name) }

// raceFlags are the race flags among flags, sorted.
func raceFlags(flags []string) []string {
	var out []string
	for _, f := range flags {
		if isRaceFlag(f) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// cTarget is the target a C program is compiled for under c: "" when
// its C11 events are checked as they are (-model sc, c11, rc11, imm, a
// .cat file).
func cTarget(c checkConfig) string {
	if c.model != "" && !hardwareModels[c.model] {
		return ""
	}
	return c.target
}

// cRaces tells whether a check of a C program under c reports data
// races: as -races says when it is given, else when the model has a race
// flag and the program is not compiled for a hardware target.
func cRaces(c checkConfig) bool {
	if c.racesSet {
		return c.races
	}
	return cTarget(c) == "" && hasRaceFlag(c.m)
}

// hasRaceFlag tells whether model m raises a race flag.
func hasRaceFlag(m *cat.Model) bool {
	if m == nil {
		return false
	}
	for _, f := range cat.FlagNames(m) {
		if isRaceFlag(f) {
			return true
		}
	}
	return false
}

// checkRaceModel refuses -races on a file whose model has no race flag:
// the model of a litmus test (-model, else its architecture's), of any
// other program c.m; and on a C program compiled for a hardware target.
func checkRaceModel(path string, c checkConfig) error {
	m, name := c.m, c.name
	if isC(path) && cTarget(c) != "" {
		return fmt.Errorf("%s: -races: data races are a C11 notion (c11, rc11, imm: a plain access not ordered by happens-before with a conflicting one); they do not apply to a program compiled for -target %s, whose accesses are the machine's", path, cTarget(c))
	}
	if strings.HasSuffix(path, ".litmus") {
		t, err := litmus.ParseFile(path)
		if err != nil {
			return err
		}
		ms := driver.Models{Model: c.model, IncludeDirs: c.incl}
		spec, err := ms.SpecFor(t.Arch)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		if m, _, err = ms.Load(spec); err != nil {
			return err
		}
		name = spec
	}
	if m == nil || hasRaceFlag(m) {
		return nil
	}
	return fmt.Errorf("%s: -races: model %s raises no race flag (want a model such as c11, rc11 or imm, with flag ~empty race as data-race)", path, name)
}

// raceWitness makes the witness of a result the execution raising its
// first race flag when the condition has none, and returns the race
// flags raised.
func raceWitness(r *result.Result) []string {
	races := raceFlags(r.Flags)
	if len(races) > 0 && r.Witness == nil {
		r.Witness = r.FlagWitnesses[races[0]]
	}
	return races
}
