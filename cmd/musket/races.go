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

// checkRaceModel refuses -races on a file whose model has no race flag:
// the model of a litmus test (-model, else its architecture's), of any
// other program c.m.
func checkRaceModel(path string, c checkConfig) error {
	m, name := c.m, c.name
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
	if m == nil {
		return nil
	}
	for _, f := range cat.FlagNames(m) {
		if isRaceFlag(f) {
			return nil
		}
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
