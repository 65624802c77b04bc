package param

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const corpusDir = "../../../shared/corpus/cubicle"

// slowCorpus lists the files run only with MUSKET_LONG=1, and why.
var slowCorpus = map[string]string{
	// the plain backward search does not converge in minutes (8000+
	// nodes); see the package notes
	"sc_german.cub": "does not converge yet",
}

func readExpected(t *testing.T) map[string]string {
	f, err := os.Open(filepath.Join(corpusDir, "expected.csv"))
	if err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, r := range rows {
		if len(r) == 2 {
			m[r[0]] = strings.TrimSpace(r[1])
		}
	}
	return m
}

func TestCorpusVerdicts(t *testing.T) {
	exp := readExpected(t)
	for name, want := range exp {
		t.Run(name, func(t *testing.T) {
			if why, slow := slowCorpus[name]; slow && os.Getenv("MUSKET_LONG") == "" {
				t.Skipf("%s; set MUSKET_LONG=1", why)
			}
			t.Parallel()
			sys, err := ParseFile(filepath.Join(corpusDir, name))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(context.Background(), sys, Options{Timeout: timeout()})
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ToLower(res.Verdict.String())
			t.Logf("%s: %s in %v, %d nodes, %d solver calls", name, res.Verdict, res.Time.Round(time.Millisecond), res.Visited, res.Solver)
			if res.Verdict == Unsafe {
				t.Logf("trace: %s", res.TraceString())
			}
			if got != want {
				t.Errorf("%s: got %s, want %s", name, got, want)
			}
		})
	}
}

func timeout() time.Duration {
	if os.Getenv("MUSKET_LONG") != "" {
		return 10 * time.Minute
	}
	return 60 * time.Second
}
