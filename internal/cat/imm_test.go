package cat_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// immVerdict checks one C litmus test under a built-in model with one
// engine: whether its condition is reachable, and the flags raised.
func immVerdict(t *testing.T, path, model, engine string) (bool, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
	defer cancel()
	pr, err := bmc.CheckLitmus(ctx, path, bmc.LitmusOptions{Model: model, Engine: engine, Bound: 2})
	if err != nil {
		t.Fatalf("%s under %s (%s): %v", path, model, engine, err)
	}
	if pr.Result.Status != result.Done {
		t.Fatalf("%s under %s (%s): %s %v", path, model, engine, pr.Result.Status, pr.Result.Err)
	}
	return pr.Reachable, pr.Result.Flags
}

// TestIMM checks the built-in IMM (Podkopaev, Lahav, Vafeiadis, "Bridging
// the Gap between Programming Languages and Hardware Weak Memory
// Models", POPL 2019) on small C11 litmus tests, beside RC11, under both
// engines: IMM allows load buffering without a dependency (RC11 does not)
// and forbids it with dependencies or release/acquire orders; both forbid
// the coherence and atomicity violations and the message passing that
// release/acquire synchronises; both flag the race of plain accesses.
func TestIMM(t *testing.T) {
	tests := []struct {
		file      string
		imm, rc11 bool // the condition is reachable
		race      bool // the data-race flag is raised (both models)
	}{
		{file: "LB", imm: true},
		{file: "LB+acq+rlx", imm: true},
		{file: "LB+data+po", imm: true},
		{file: "LB+datas"},
		{file: "LB+ctrl+data"},
		{file: "LB+rels"},
		{file: "LB+acqs"},
		{file: "MP", imm: true, rc11: true},
		{file: "MP+rel+rlx", imm: true, rc11: true},
		{file: "MP+fence+rlx", imm: true, rc11: true},
		{file: "MP+rel+acq"},
		{file: "MP+fences"},
		{file: "MP+rel+rmw+acq"},
		{file: "SB", imm: true, rc11: true},
		{file: "SB+relacq-fences", imm: true, rc11: true},
		{file: "SB+scs"},
		{file: "SB+scfences"},
		{file: "2+2W", imm: true, rc11: true},
		{file: "CoRR"},
		{file: "CoWR"},
		{file: "RMW-atomicity"},
		{file: "MP+na+relacq"},
		{file: "MP+na+rlx", imm: true, rc11: true, race: true},
	}
	for _, tc := range tests {
		path := filepath.Join("testdata", "imm", tc.file+".litmus")
		for _, model := range []string{"imm", "rc11"} {
			want := tc.imm
			if model == "rc11" {
				want = tc.rc11
			}
			for _, engine := range []string{"enum", "smt"} {
				got, flags := immVerdict(t, path, model, engine)
				if got != want {
					t.Errorf("%s under %s (%s): reachable %v, want %v", tc.file, model, engine, got, want)
				}
				if race := slices.Contains(flags, "data-race"); race != tc.race {
					t.Errorf("%s under %s (%s): flags %v, want data-race %v", tc.file, model, engine, flags, tc.race)
				}
			}
		}
	}
}

// TestIMMOnC11Corpus runs the corpus's C11 tests under IMM and RC11 with
// the explicit engine: whatever RC11 allows IMM allows, and IMM allows
// more only on the load-buffering shapes without a dependency (the
// paper's Example 3.6 among them: a release write read by a po-later
// relaxed read of its thread orders nothing on ARM).
func TestIMMOnC11Corpus(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "litmus", "C11")
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".litmus") && filepath.Base(p) != "TSan.litmus" {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 90 {
		t.Fatalf("%d C11 tests in %s, want 97", len(files), dir)
	}
	wantMore := []string{"b", "b+acq+rel", "b+acq+rlx", "b+acq+sc", "b+rlx+sc", "b+sc+rlx", "b+sc+sc", "imm-E3.6", "lb"}
	var more []string
	for _, f := range files {
		imm, _ := immVerdict(t, f, "imm", "enum")
		rc11, _ := immVerdict(t, f, "rc11", "enum")
		name := strings.TrimSuffix(filepath.Base(f), ".litmus")
		switch {
		case rc11 && !imm:
			t.Errorf("%s: RC11 allows it, IMM forbids it", name)
		case imm && !rc11:
			more = append(more, name)
		}
	}
	sort.Strings(more)
	if !slices.Equal(more, wantMore) {
		t.Errorf("IMM allows, RC11 forbids: %v, want %v", more, wantMore)
	}
}
