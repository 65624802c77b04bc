package cfront

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRacePreserved checks that the compilation keeps the racing accesses
// LLVM's -O1 pipeline deleted (a static global made local or deleted, an
// unused load), with both engines, and that a static global shared under
// a lock stays race free.
func TestRacePreserved(t *testing.T) {
	needClang(t)
	for _, c := range []struct {
		file string
		want Verdict
		v    string // the racing variable
	}{
		{"static_local.c", Race, "shared"},
		{"never_read.c", Race, "last"},
		{"dead_read.c", Race, "level"},
		{"escaped_local.c", Race, "box"},
		{"self_store.c", Race, "word"},
		{"self_store_fold.c", Race, "word"}, // t = x; x = t + 0, folded to x = x
		{"self_store_ops.c", Race, "mask"},  // x = (x | 0) * 1, folded to x = x
		{"static_locked.c", Safe, ""},
	} {
		p, err := Lower(context.Background(), filepath.Join("testdata", "racecc", c.file), Options{Bound: 2})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		for _, engine := range []string{"graph", "smt"} {
			r, err := CheckProgram(context.Background(), p, CheckOptions{Bound: 2, Engine: engine, Model: model(t, "rc11"), ModelName: "rc11", Races: true})
			if err != nil {
				t.Fatalf("%s/%s: %v", c.file, engine, err)
			}
			if r.Verdict != c.want {
				t.Errorf("%s/%s: %v, want %v", c.file, engine, r.Verdict, c.want)
				continue
			}
			if c.want == Race && (len(r.RacePair) != 2 || r.RacePair[0].Var != c.v || r.RacePair[1].Var != c.v) {
				t.Errorf("%s/%s: racing pair %+v, want two accesses of %s", c.file, engine, r.RacePair, c.v)
			}
		}
	}
}

// TestRaceGuardText checks the rewriting of the front end's IR and its
// undoing on small pieces of IR.
func TestRaceGuardText(t *testing.T) {
	in := strings.Join([]string{
		`@g = internal global i32 0, align 4, !dbg !0`,
		`@t = internal thread_local global i32 1, align 4`,
		`@k = internal constant i32 5, align 4`,
		`@e = dso_local global i32 0, align 4`,
		`@n = internal global i32 3, align 4`,
		`define dso_local i32 @f(i32* %p) #0 {`,
		`entry:`,
		`  %a = alloca i32, align 4`,
		`  %0 = load i32, i32* %a, align 4`,
		`  %1 = load i32, i32* @g, align 4, !dbg !9, !tbaa !7`,
		`  %2 = load volatile i32, i32* @e, align 4`,
		`  %3 = load atomic i32, i32* @e seq_cst, align 4`,
		`  %4 = load { i32, i32 }, { i32, i32 }* %q, align 4`,
		`  %5 = load i32, i32* getelementptr inbounds ([2 x i32], [2 x i32]* @h, i64 0, i64 1), align 4`,
		`  store i32 1, i32* @g, align 4`,
		`  store i32 1, i32* @t, align 4`,
		`  %6 = load i32, i32* @n, align 4`,
		`  ret i32 %1`,
		`}`,
	}, "\n")
	got := string(raceGuard([]byte(in), false))
	for _, want := range []string{
		"@g = dso_local global i32 0, align 4, !dbg !0\n",
		"@t = dso_local thread_local global i32 1",
		"@k = internal constant i32 5",
		"@n = internal global i32 3", // only loaded
		"  %1 = load i32, i32* @g, align 4, !dbg !9, !tbaa !7\n  call void (...) " + keepFunc + "(i32 %1)\n",
		"  call void (...) " + keepFunc + "({ i32, i32 } %4)\n",
		"  call void (...) " + keepFunc + "(i32 %5)\n",
		"declare void " + keepFunc + "(...) #",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("raceGuard's IR lacks %q:\n%s", want, got)
		}
	}
	for _, v := range []string{"%0", "%2", "%3"} {
		if strings.Contains(got, "("+"i32 "+v+")") {
			t.Errorf("raceGuard keeps %s (a local's, a volatile or an atomic load):\n%s", v, got)
		}
	}
	back := string(raceUnguard([]byte(got)))
	if strings.Contains(back, keepFunc) {
		t.Errorf("raceUnguard leaves a keeping call:\n%s", back)
	}
	if strings.Count(back, "\n") != strings.Count(in, "\n")+1 { // the attribute group stays
		t.Errorf("raceUnguard deletes other lines:\n%s", back)
	}
}

// TestFastFrontSameOptimised checks that the fast front and clang-14
// optimise the guarded IR the same way (TestFastFrontSameIR compares the
// front ends' IR).
func TestFastFrontSameOptimised(t *testing.T) {
	front := needFastFront(t)
	for _, f := range []string{"../../examples/c/mcs.c", "testdata/cnames.c", "testdata/racecc/dead_read.c"} {
		fe, _, err := runClang(context.Background(), clangArgs(f, ClangOptions{}))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		ll := filepath.Join(t.TempDir(), "fe.ll")
		if err := os.WriteFile(ll, raceGuard(fe, false), 0o644); err != nil {
			t.Fatal(err)
		}
		fast, slow := bothRuns(t, front, optimizeArgs(ll, ClangOptions{}))
		sameRun(t, f, fast, slow)
	}
}

// TestRaceGuardSame checks that a store of the value just loaded from its
// own address goes through sameFunc, and that undoing it puts the value
// back in every use.
func TestRaceGuardSame(t *testing.T) {
	in := strings.Join([]string{
		`define dso_local void @f() #0 {`,
		`entry:`,
		`  %0 = load i32, i32* @x, align 4, !tbaa !3`,
		`  store i32 %0, i32* @x, align 4, !tbaa !3`,
		`  store i32 %0, i32* @y, align 4`,
		`  ret void`,
		`}`,
	}, "\n")
	got := string(raceGuard([]byte(in), false))
	for _, want := range []string{
		"  %musket.same.0 = call i32 (...) " + sameFunc + ".0(i32 %0)\n  store i32 %musket.same.0, i32* @x, align 4, !tbaa !3\n",
		"  store i32 %0, i32* @y, align 4\n",
		"declare i32 " + sameFunc + ".0(...) #",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("raceGuard's IR lacks %q:\n%s", want, got)
		}
	}
	opt := strings.Join([]string{
		`define dso_local void @f() #0 {`,
		`  %musket.same.0.i = tail call i32 (...) ` + sameFunc + `.0(i32 noundef 7) #5`,
		`  store i32 %musket.same.0.i, i32* @x, align 4`,
		`  %c = icmp eq i32 %musket.same.0.i, %musket.same.0.ix`,
		`  ret void`,
		`}`,
		`declare i32 ` + sameFunc + `.0(...) #5`,
		``,
	}, "\n")
	back := string(raceUnguard([]byte(opt)))
	if strings.Contains(back, sameFunc) || !strings.Contains(back, "store i32 7, i32* @x") || !strings.Contains(back, "icmp eq i32 7, %musket.same.0.ix") {
		t.Errorf("raceUnguard:\n%s", back)
	}
}
