package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/gen"
)

// TestCampaignRecipes runs the recipes of scripts/campaign on a small
// generated campaign (every cycle of at most four edges over x86's
// program order and communications), with this test binary as musket:
// the Kubernetes Indexed Job's shard script (JOB_COMPLETION_INDEX from
// 0, four shards), the Slurm array's (SLURM_ARRAY_TASK_ID from
// SLURM_ARRAY_TASK_MIN, two shards)
// and, with MUSKET_LONG=1, the local recipe (GNU parallel when
// installed, else background processes) and, with GNU parallel, the SSH
// recipe on this machine (":" as the host), all in a folder whose name
// has a blank and a quote. Each merged result must be the single run's text less
// its Time lines, byte for byte.
func TestCampaignRecipes(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run the recipes with")
	}
	scripts, err := filepath.Abs(filepath.Join("..", "..", "scripts", "campaign"))
	if err != nil {
		t.Fatal(err)
	}
	// A folder with a blank and a quote in its name: every recipe must
	// pass paths through its shells as one argument each.
	tmp := filepath.Join(t.TempDir(), "a user's campaign")
	tests := filepath.Join(tmp, "tests")
	a, _ := gen.LookupArch("X86")
	relax, _ := a.ExpandList("Pod**,Rfe,Fre,Wse")
	gs, _, err := a.Enumerate(gen.Options{Relax: relax, Size: 4, Procs: 4})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(tests, 0o755)
	var index strings.Builder
	for _, g := range gs {
		var b bytes.Buffer
		g.Test.WriteNamed(&b, g.Name)
		os.WriteFile(filepath.Join(tests, g.Name+".litmus"), b.Bytes(), 0o644)
		index.WriteString(g.Name + ".litmus\n")
	}
	all := filepath.Join(tests, "@all")
	os.WriteFile(all, []byte(index.String()), 0o644)

	var single, errb bytes.Buffer
	runLitmus([]string{"-j", "1", "-engine", "enum", all}, &single, &errb)
	var want strings.Builder
	for _, l := range strings.SplitAfter(single.String(), "\n") {
		if !strings.HasPrefix(l, "Time ") {
			want.WriteString(l)
		}
	}
	env := append(os.Environ(), "MUSKET_TEST_AS_MUSKET=1", "MUSKET="+os.Args[0])
	sh := func(extra []string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command("sh", args...)
		cmd.Env = append(append([]string(nil), env...), extra...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("sh %v: %v\n%s", args, err, errb.String())
		}
		return out.Bytes()
	}
	merged := func(dir string, n int) string {
		var files []string
		for k := 1; k <= n; k++ {
			files = append(files, filepath.Join(dir, "shard-"+strconv.Itoa(k)+"-of-"+strconv.Itoa(n)+".json"))
		}
		var out, errb bytes.Buffer
		if code := runMerge(files, &out, &errb); code != 0 {
			t.Fatalf("merge: exit %d: %s", code, errb.String())
		}
		return out.String()
	}
	check := func(recipe, got string) {
		t.Helper()
		if got != want.String() {
			t.Errorf("%s: the merged result differs from the single run:\n%s\n---\n%s", recipe, got, want.String())
		}
	}
	k8s := filepath.Join(tmp, "k8s")
	for i := range 4 {
		sh([]string{"JOB_COMPLETION_INDEX=" + strconv.Itoa(i)}, filepath.Join(scripts, "shard.sh"), "4", k8s, "-engine", "enum", all)
	}
	check("Kubernetes Indexed Job", merged(k8s, 4))
	slurm := filepath.Join(tmp, "slurm")
	for i := 10; i < 12; i++ {
		sh([]string{"SLURM_ARRAY_TASK_MIN=10", "SLURM_ARRAY_TASK_COUNT=2", "SLURM_ARRAY_TASK_ID=" + strconv.Itoa(i)},
			filepath.Join(scripts, "slurm-array.sh"), slurm, "-engine", "enum", all)
	}
	check("Slurm job array", merged(slurm, 2))
	// sbatch runs a copy of the script from its spool folder, in the
	// folder it was called from (SLURM_SUBMIT_DIR): shard.sh is not
	// next to it (the script looked only there and failed).
	spool := filepath.Join(tmp, "spool")
	os.MkdirAll(spool, 0o755)
	src, _ := os.ReadFile(filepath.Join(scripts, "slurm-array.sh"))
	os.WriteFile(filepath.Join(spool, "slurm_script"), src, 0o755)
	spooled := filepath.Join(tmp, "slurm-spool")
	for i := 1; i <= 2; i++ {
		sh([]string{"SLURM_SUBMIT_DIR=" + filepath.Dir(filepath.Dir(scripts)), "SLURM_ARRAY_TASK_COUNT=2", "SLURM_ARRAY_TASK_ID=" + strconv.Itoa(i)},
			filepath.Join(spool, "slurm_script"), spooled, "-engine", "enum", all)
	}
	check("Slurm job array, run from the spool", merged(spooled, 2))
	if os.Getenv("MUSKET_LONG") == "" {
		// GNU parallel's start-up (Perl) costs seconds: the local and
		// SSH recipes run in the long suite.
		return
	}
	check("local", string(sh(nil, filepath.Join(scripts, "local.sh"), "4", filepath.Join(tmp, "local"), "-engine", "enum", all)))
	if _, err := exec.LookPath("parallel"); err == nil {
		hosts := filepath.Join(tmp, "hosts")
		os.WriteFile(hosts, []byte(":\n"), 0o644)
		check("SSH", string(sh(nil, filepath.Join(scripts, "ssh.sh"), hosts, "4", filepath.Join(tmp, "ssh"), "-engine", "enum", all)))
	} else {
		t.Log("GNU parallel is not installed: the local recipe ran its shards as background processes, the SSH recipe did not run")
	}
}
