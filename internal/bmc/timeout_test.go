package bmc_test

import (
	"context"
	"github.com/musket-verify/musket/internal/driver"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestTimeoutWhileEncoding: the encoding of testdata/spin3.pts (three
// threads spinning in nested loops) under Power at bound 5 takes more
// than a minute and a gigabyte; the deadline must stop it within the
// encoding (and Z3's solving), reported as a timeout, never a verdict.
// What is asserted is the outcome: the encoding would otherwise end
// with a verdict, much later (go test's own time limit catches a hang).
func TestTimeoutWhileEncoding(t *testing.T) {
	m, name, err := driver.Models{}.ForTarget("power")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	pr, err := bmc.CheckProgram(ctx, filepath.Join("testdata", "spin3.pts"), m, name, bmc.ProgramOptions{Target: "power", Bound: 5})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Result.Status != result.Timeout || pr.Reachable {
		t.Fatalf("status %s (%v), reachable %v; want a timeout", pr.Result.Status, pr.Result.Err, pr.Reachable)
	}
}

// TestTimeoutWhileListingStates: testdata/manystates.litmus has about
// 2.7 million final states (12 reads of x while another thread writes it
// 12 times), which the SMT engine lists one query at a time; the
// deadline must stop the listing, reported as a timeout.
func TestTimeoutWhileListingStates(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "manystates.litmus"))
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.Parse("manystates.litmus", src)
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.LoadBuiltin("sc")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup(lt.Arch)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r := bmc.Run(ctx, lt, m, "sc", bmc.Options{TagNames: fe.Tags()})
	if r.Status != result.Timeout {
		t.Fatalf("status %s (%v) with %d states; want a timeout", r.Status, r.Err, len(r.States))
	}
}

// TestTimeoutWhileAsserting: encoding lockfree/aba-rcu-simple.litmus
// under the Linux kernel's model hands Z3 formulas it takes minutes to
// take in (Z3 rewrites each formula as it is asserted), inside one call
// that checks no deadline of ours; Z3 must be interrupted there, and the
// result be a timeout, never a verdict or a hang.
func TestTimeoutWhileAsserting(t *testing.T) {
	m, fe, variants := kernelModel(t)
	path := corpus + "/litmus/LKMM/lockfree/aba-rcu-simple.litmus"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.ParseWith(path, src, fe)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r := bmc.Run(ctx, lt, m, "lkmm", bmc.Options{Variants: variants, TagNames: fe.Tags()})
	if r.Status != result.Timeout {
		t.Fatalf("status %s (%v); want a timeout", r.Status, r.Err)
	}
}

// TestTimeoutWhileParsing: a check stopped before its litmus test is
// read (a test of megabytes parses for seconds on a loaded machine;
// robust5) is a time-out with no verdict, not an error, and stops
// before the test is read (no target, no condition).
func TestTimeoutWhileParsing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pr, err := bmc.CheckLitmus(ctx, filepath.Join("..", "..", "examples", "litmus", "SB.litmus"), bmc.LitmusOptions{Bound: 2})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Result.Status != result.Timeout || pr.Reachable || pr.Name != "SB" || pr.Report == nil || pr.Target != "" || pr.Condition != "" {
		t.Fatalf("%+v, want a time-out of SB", pr)
	}
}
