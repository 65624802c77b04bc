package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestLKMMCampaign runs a campaign end to end on the Linux kernel's
// model: musket gen -arch LKMM over edges of the corpus's luc/RelAcq
// Cycle= lines, four shards as a scheduler runs them (shard.sh with
// MUSKET_SHARD_INDEX, both engines), musket merge, then musket diff
// -names against herd7 7.58's logs of the corpus's LKMM tests. Every
// test must finish with the engines agreeing; the tests whose names are
// in herd7's logs must get herd7's verdict, except those with a control
// dependency: diy wrote it in C as r1 = (r0 != 0);, no branch, where
// musket gen writes if (r0 == 1) { ... } (see TestCorpusLKMMCycles). By
// default 13 edges, cycles of 4 (15 tests, 3 in herd7's logs); with
// MUSKET_LONG=1 the 33 edges, cycles of 5 (5151 tests, 22 in the logs).
func TestLKMMCampaign(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run the recipes with")
	}
	corpus := testcorpus.Dir(t)
	logs := testcorpus.HerdReference(t, "logs", "LKMM")
	conf := filepath.Join(corpus, "cat", "linux", "linux-kernel.cfg")
	scripts, err := filepath.Abs(filepath.Join("..", "..", "scripts", "campaign"))
	if err != nil {
		t.Fatal(err)
	}
	relax := "PodWWReleaseRelease,PodWWReleaseOnce,PodRROnceAcquire,PodRRAcquireOnce,PodWROnceOnce,RfeReleaseOnce,RfeOnceAcquire," +
		"FreOnceOnce,FreAcquireRelease,WseOnceRelease,WseReleaseOnce,FenceMbdWWOnceOnce,FenceMbdWROnceOnce"
	size, wantTests, wantCommon := "4", 15, 3
	if os.Getenv("MUSKET_LONG") != "" {
		relax, size, wantTests, wantCommon = lucEdges(t, corpus), "5", 5151, 22
	}
	tmp := t.TempDir()
	tests := filepath.Join(tmp, "tests")
	var out, errb bytes.Buffer
	if code := runGen([]string{"-arch", "LKMM", "-relax", relax, "-size", size, "-nprocs", "4", "-o", tests}, &out, &errb); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errb.String())
	}
	env := append(os.Environ(), "MUSKET_TEST_AS_MUSKET=1", "MUSKET="+os.Args[0])
	shards := filepath.Join(tmp, "shards")
	var files []string
	for k := 1; k <= 4; k++ {
		cmd := exec.Command("sh", filepath.Join(scripts, "shard.sh"), "4", shards, "-conf", conf, "-engine", "both", "-j", "1", filepath.Join(tests, "@all"))
		cmd.Env = append(append([]string(nil), env...), "MUSKET_SHARD_INDEX="+strconv.Itoa(k))
		var e bytes.Buffer
		cmd.Stderr = &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("shard %d: %v\n%s", k, err, e.String())
		}
		files = append(files, filepath.Join(shards, "shard-"+strconv.Itoa(k)+"-of-4.json"))
	}
	out.Reset()
	errb.Reset()
	if code := runMerge(append([]string{"-json"}, files...), &out, &errb); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errb.String())
	}
	merged := filepath.Join(tmp, "merged.json")
	if err := os.WriteFile(merged, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	summary := out.String()[strings.LastIndex(strings.TrimSpace(out.String()), "\n")+1:]
	for _, want := range []string{`"tests":` + strconv.Itoa(wantTests) + `,`, `"finished":` + strconv.Itoa(wantTests) + `,`, `"errors":0,`, `"timeouts":[]`, `"exit_status":0`} {
		if !strings.Contains(summary, want) {
			t.Errorf("merged summary: want %s in %s", want, summary)
		}
	}
	if strings.Contains(out.String(), `"engine_disagreements"`) || strings.Contains(out.String(), `"status":"disagreement"`) {
		t.Errorf("the engines disagree on a generated test")
	}
	out.Reset()
	errb.Reset()
	runDiff([]string{"-names", "-verdicts", merged, logs}, &out, &errb)
	got := out.String()
	common := regexp.MustCompile(`(\d+) in both`).FindStringSubmatch(got)
	if common == nil || common[1] != strconv.Itoa(wantCommon) {
		t.Errorf("want %d tests in both runs:\n%s", wantCommon, got)
	}
	differ := 0
	for _, l := range strings.Split(got, "\n") {
		if name, _, ok := strings.Cut(l, ": "); ok && strings.HasPrefix(name, "C-") {
			differ++
			if !strings.Contains(name, "ctrl") {
				t.Errorf("%s: the verdict differs from herd7's", l)
			}
		}
	}
	t.Logf("%d tests in 4 shards, %d named as tests herd7 has a log of: %d verdicts differ, all of them with diy's C form of a control dependency\n%s", wantTests, wantCommon, differ, got)
}

// lucEdges are the edges of the Cycle= lines of the corpus's
// LKMM/luc/RelAcq tests.
func lucEdges(t *testing.T, corpus string) string {
	paths, err := filepath.Glob(filepath.Join(corpus, "litmus", "LKMM", "luc", "RelAcq", "*.litmus"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no luc/RelAcq tests: %v", err)
	}
	seen := map[string]bool{}
	var edges []string
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(src), "\n") {
			if c, ok := strings.CutPrefix(l, "Cycle="); ok {
				for _, e := range strings.Fields(c) {
					if !seen[e] {
						seen[e] = true
						edges = append(edges, e)
					}
				}
			}
		}
	}
	return strings.Join(edges, ",")
}
