package litmus_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestLISAFromKernelC rewrites the corpus' Linux-kernel C tests that
// herd7 7.58 has a log of (reference/herd7-7.58/logs/LKMM, beside the
// corpus) in LISA, when each of their statements has a LISA form
// (lisaFromC), and runs the LISA text with both engines under the
// kernel's model: the explicit engine must give herd7's logged
// observation of the C test, and the SMT engine the same verdict. The
// rewriting happens here, at test time: no corpus test is copied. By
// default a few tests; MUSKET_LONG=1: every one that rewrites (102 of
// the 252 logs).
func TestLISAFromKernelC(t *testing.T) {
	corpus := testcorpus.Dir(t)
	logs := testcorpus.HerdReference(t, "logs", "LKMM")
	var paths []string
	err := filepath.WalkDir(logs, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".litmus.log") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	linux := filepath.Join(corpus, "cat", "linux")
	ms := driver.Models{Bell: filepath.Join(linux, "linux-kernel.bell"), IncludeDirs: []string{linux}, Variants: map[string]bool{"lkmmv2": true}}
	m, name, err := ms.Load(filepath.Join(linux, "linux-kernel.cat"))
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("LISA")
	long := os.Getenv("MUSKET_LONG") != ""
	rewritten, run := 0, 0
	for _, logPath := range paths {
		rel, _ := filepath.Rel(logs, logPath)
		src, err := os.ReadFile(filepath.Join(corpus, "litmus", "LKMM", strings.TrimSuffix(rel, ".log")))
		if err != nil {
			t.Fatal(err)
		}
		text, ok := lisaFromC(string(src))
		if !ok {
			continue
		}
		rewritten++
		if !long && rewritten%12 != 1 {
			continue
		}
		run++
		log, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		obs := regexp.MustCompile(`(?m)^Observation \S+ (\w+)`).FindSubmatch(log)
		if obs == nil {
			t.Errorf("%s: no Observation line in herd7's log", rel)
			continue
		}
		lt, err := litmus.Parse(rel, []byte(text))
		if err != nil {
			t.Errorf("%s: the LISA rewriting does not parse: %v\n%s", rel, err, text)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		er := enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags()})
		sr := bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()})
		cancel()
		if er.Err != nil || sr.Err != nil {
			t.Errorf("%s: explicit engine %v, SMT engine %v\n%s", rel, er.Err, sr.Err, text)
			continue
		}
		if got := er.Observation(); got != string(obs[1]) {
			t.Errorf("%s: %s in LISA, herd7 logs %s for the C test\n%s", rel, got, obs[1], text)
		}
		if er.Ok() != sr.Ok() {
			t.Errorf("%s: the explicit engine says %v, the SMT engine %v\n%s", rel, er.Ok(), sr.Ok(), text)
		}
	}
	t.Logf("%d of %d kernel C tests with a herd7 log rewritten in LISA, %d run", rewritten, len(paths), run)
	if long && rewritten < 100 {
		t.Errorf("only %d C tests rewritten in LISA, want the 102 the rewriting reached when it was written", rewritten)
	}
}

// The C statements lisaFromC rewrites, each with its LISA form.
var (
	cInit       = regexp.MustCompile(`(?s)\{([^}]*)\}\s*(P0\s*\(.*)`)
	cSimpleInit = regexp.MustCompile(`^(\s*\w+\s*=\s*-?\d+\s*;)*\s*$`)
	cThread     = regexp.MustCompile(`(?s)P(\d+)\s*\([^)]*\)\s*\{(.*?)\n\}`)
	cDecl       = regexp.MustCompile(`^int\s+[\w\s,]+$`)
	cStatements = []struct {
		re   *regexp.Regexp
		lisa func(m []string) string
	}{
		{regexp.MustCompile(`^WRITE_ONCE\(\*(\w+),\s*(-?\d+)\)$`), func(m []string) string { return "w[once] " + m[1] + " " + m[2] }},
		{regexp.MustCompile(`^smp_store_release\((\w+),\s*(-?\d+)\)$`), func(m []string) string { return "w[release] " + m[1] + " " + m[2] }},
		{regexp.MustCompile(`^(?:int\s+)?(r\d+)\s*=\s*READ_ONCE\(\*(\w+)\)$`), func(m []string) string { return "r[once] " + m[1] + " " + m[2] }},
		{regexp.MustCompile(`^(?:int\s+)?(r\d+)\s*=\s*smp_load_acquire\((\w+)\)$`), func(m []string) string { return "r[acquire] " + m[1] + " " + m[2] }},
		{regexp.MustCompile(`^smp_(mb|rmb|wmb)\(\)$`), func(m []string) string { return "f[" + m[1] + "]" }},
		{regexp.MustCompile(`^(?:int\s+)?(r\d+)\s*=\s*xchg(|_relaxed|_acquire|_release)\((\w+),\s*(-?\d+)\)$`), func(m []string) string {
			ann := map[string]string{"": "mb", "_relaxed": "once", "_acquire": "acquire", "_release": "release"}[m[2]]
			return fmt.Sprintf("rmw[%s] %s %s %s", ann, m[1], m[4], m[3])
		}},
		{regexp.MustCompile(`^smp_mb__(before_atomic|after_atomic|after_spinlock)\(\)$`), func(m []string) string {
			return "f[" + strings.ReplaceAll(m[1], "_", "-") + "]"
		}},
		{regexp.MustCompile(`^rcu_read_(lock|unlock)\(\)$`), func(m []string) string { return "f[rcu_read_" + m[1] + "]" }},
		{regexp.MustCompile(`^synchronize_rcu(_expedited)?\(\)$`), func(m []string) string { return "f[sync]" }},
	}
)

// lisaFromC rewrites a kernel C litmus test in LISA when its initial
// state gives integers only, its condition is a quantified one and every
// statement of its threads is one of cStatements (straight-line code of
// READ_ONCE, WRITE_ONCE, acquire, release, the barriers, xchg and RCU's
// read-side sections and grace periods); false otherwise.
func lisaFromC(src string) (string, bool) {
	m := cInit.FindStringSubmatch(src)
	if m == nil || !cSimpleInit.MatchString(m[1]) {
		return "", false
	}
	init, rest := strings.TrimSpace(m[1]), m[2]
	end := strings.LastIndex(rest, "\n}")
	if end < 0 {
		return "", false
	}
	cond := strings.TrimSpace(rest[end+2:])
	if !strings.HasPrefix(cond, "exists") && !strings.HasPrefix(cond, "~exists") && !strings.HasPrefix(cond, "forall") {
		return "", false
	}
	var cols [][]string
	for _, th := range cThread.FindAllStringSubmatch(rest, -1) {
		var col []string
		for _, st := range strings.Split(th[2], ";") {
			st = strings.TrimSpace(st)
			if st == "" || cDecl.MatchString(st) {
				continue
			}
			found := false
			for _, s := range cStatements {
				if sm := s.re.FindStringSubmatch(st); sm != nil {
					col, found = append(col, s.lisa(sm)), true
					break
				}
			}
			if !found {
				return "", false
			}
		}
		cols = append(cols, col)
	}
	if len(cols) == 0 {
		return "", false
	}
	name := regexp.MustCompile(`^C\s+(\S+)`).FindStringSubmatch(src)
	if name == nil {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "LISA %s\n{\n%s\n}\n", name[1], init)
	height := 0
	for i, c := range cols {
		height = max(height, len(c))
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "P%d", i)
	}
	b.WriteString(" ;\n")
	for k := range height {
		for i, c := range cols {
			if i > 0 {
				b.WriteString(" | ")
			}
			if k < len(c) {
				b.WriteString(c[k])
			}
		}
		b.WriteString(" ;\n")
	}
	b.WriteString(cond + "\n")
	return b.String(), true
}
