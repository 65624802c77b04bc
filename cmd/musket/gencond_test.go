package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/gen"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestGenUnicondCorpus checks 'gen -cond unicond' against the corpus: the
// X86 catalogue's tests with a forall condition are diy's -cond unicond
// tests (a forall over the outcomes x86-TSO gives). The test generated
// from each one's Orig= cycle with -cond unicond must list the corpus's
// outcomes and give the corpus's verdict under x86-TSO with both
// engines. By default every 10th; MUSKET_LONG=1 all.
func TestGenUnicondCorpus(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "litmus")
	long := os.Getenv("MUSKET_LONG") != ""
	table, err := expect.Read(filepath.Join(root, "expected", "TSO.csv"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := gen.LookupArch("X86")
	tmp := t.TempDir()
	var files []string
	want := map[string]bool{}
	k := 0
	filepath.Walk(filepath.Join(root, "X86"), func(p string, info os.FileInfo, err error) error {
		if err != nil || !strings.HasSuffix(p, ".litmus") {
			return nil
		}
		src, _ := os.ReadFile(p)
		i := bytes.Index(src, []byte("\nforall"))
		orig := headerLine(src, "Orig=")
		if i < 0 || orig == "" {
			return nil
		}
		if k++; !long && k%10 != 1 {
			return nil
		}
		exp, ok := table.Lookup(p)
		if !ok {
			return nil
		}
		es, err := a.ParseCycle(strings.Fields(orig))
		if err != nil {
			return nil
		}
		tt, err := gen.Build(a, es)
		if err != nil {
			return nil
		}
		var b bytes.Buffer
		if err := tt.Write(&b); err != nil {
			t.Fatal(err)
		}
		text, err := restyle(b.Bytes(), "unicond", "X86")
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		ours := outcomes(string(text[bytes.LastIndex(text, []byte("\nforall")):]))
		// diy's forall is a tree of the outcomes, one variable a level:
		// its leaves (atoms no /\ follows) are its outcomes. Every
		// generated outcome is reachable under x86-TSO, so it is among
		// the corpus's when the corpus test holds there: as many means
		// the same.
		if n := leaves(string(src[i:])); n != len(ours) {
			t.Errorf("%s: the corpus's forall lists %d outcomes, -cond unicond %d:\n%s", p, n, len(ours), text)
		}
		out := filepath.Join(tmp, filepath.Base(p))
		if err := os.WriteFile(out, text, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, out)
		want[out] = exp
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no X86 forall test generated")
	}
	agree := 0
	batch.Run(context.Background(), files, batch.Options{Engine: "both", Model: "tso", Jobs: 2, Timeout: time.Minute}, func(j batch.Job) {
		switch {
		case j.Disagreement != nil:
			t.Errorf("%s: the engines disagree", j.Path)
		case j.Err != nil || j.Result == nil || j.Result.Status.String() != "done":
			t.Errorf("%s: %v", j.Path, j.Err)
		case j.Result.Ok() != want[j.Path]:
			src, _ := os.ReadFile(j.Path)
			t.Errorf("%s: -cond unicond test answers Ok=%v under x86-TSO, the corpus expects %v\n%s", j.Path, j.Result.Ok(), want[j.Path], src)
		default:
			agree++
		}
	})
	t.Logf("%d X86 forall tests generated with -cond unicond, %d with the corpus verdict under x86-TSO (both engines)", len(files), agree)
}

// headerLine is the value of a test's KEY= header line.
func headerLine(src []byte, key string) string {
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, key) {
			return strings.TrimSpace(l[len(key):])
		}
		if strings.HasPrefix(sc.Text(), "{") {
			break
		}
	}
	return ""
}

// leaves counts the atoms of a forall that no /\ follows.
func leaves(forall string) int {
	forall = strings.Join(strings.Fields(forall), "")
	n := 0
	for _, m := range regexp.MustCompile(`\w+=-?\w+`).FindAllStringIndex(forall, -1) {
		if !strings.HasPrefix(forall[m[1]:], `/\`) {
			n++
		}
	}
	return n
}

// outcomes splits a generated forall into its outcomes.
func outcomes(forall string) []string {
	body := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(forall), "forall"))
	return strings.Split(body, ` \/ `)
}
