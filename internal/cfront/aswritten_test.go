package cfront

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestRaceGuardAsWritten checks which plain accesses raceGuard makes
// volatile when the program is not checked for races: those of globals
// and of locals whose address escapes (passed to a call), not those of
// private locals (also through a bitcast, as clang writes a
// compare-and-swap's expected value back), nor atomic or volatile ones;
// and that it makes none without asWritten.
func TestRaceGuardAsWritten(t *testing.T) {
	in := strings.Join([]string{
		`define dso_local void @f(i32* %p) #0 {`,
		`entry:`,
		`  %old = alloca %struct.node*, align 8`,
		`  %t = alloca i64, align 8`,
		`  %0 = bitcast %struct.node** %old to i64*`,
		`  store i64 1, i64* %0, align 8`,
		`  %1 = load i64, i64* %0, align 8`,
		`  %2 = load %struct.node*, %struct.node** %old, align 8`,
		`  %3 = load i32, i32* @g, align 4, !dbg !9`,
		`  store i32 %3, i32* %p, align 4`,
		`  %c = call i32 @pthread_create(i64* %t, i8* null, i8* (i8*)* @w, i8* null)`,
		`  %4 = load i64, i64* %t, align 8`,
		`  %5 = load atomic i32, i32* @g seq_cst, align 4`,
		`  store volatile i32 2, i32* @g, align 4`,
		`  ret void`,
		`}`,
	}, "\n")
	got := string(raceGuard([]byte(in), true))
	for _, want := range []string{
		"  store i64 1, i64* %0, align 8\n",
		"  %1 = load i64, i64* %0, align 8\n",
		"  %2 = load %struct.node*, %struct.node** %old, align 8\n",
		"  %3 = load volatile i32, i32* @g, align 4, !dbg !9\n",
		"  store volatile i32 %3, i32* %p, align 4\n",
		"  %4 = load volatile i64, i64* %t, align 8\n",
		"  %5 = load atomic i32, i32* @g seq_cst, align 4\n",
		"  store volatile i32 2, i32* @g, align 4\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("raceGuard(asWritten) lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(string(raceGuard([]byte(in), false)), "volatile"); n != 1 {
		t.Errorf("raceGuard without asWritten: %d volatile accesses, want the program's 1", n)
	}
}

// TestSpinPlainAsWritten checks a wait on a plain flag checked without
// races, with -liveness: it ends under sc and x86 (the load was hoisted
// out of the loop: LIVELOCK), and fails its assertion on AArch64.
func TestSpinPlainAsWritten(t *testing.T) {
	needClang(t)
	path := filepath.Join("testdata", "sem", "spin_plain.c")
	for _, c := range []struct {
		model, target string
		want          Verdict
	}{
		{"sc", "", Safe},
		{"tso", "x86", Safe},
		{"aarch64", "aarch64", Violation},
	} {
		r, err := Check(context.Background(), path, CheckOptions{Bound: 2, Target: c.target, Model: model(t, c.model), ModelName: c.model, Liveness: true})
		if err != nil {
			t.Fatalf("%s: %v", c.model, err)
		}
		if r.Verdict != c.want || c.want == Violation && (r.Failed == nil || r.Failed.Pos.Line != 16) {
			t.Errorf("%s: verdict %v at %v (%v), want %v (line 16 for a failure)", c.model, r.Verdict, r.Failed, r.Result.Err, c.want)
		}
	}
}
