package gen

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// forallEval evaluates a litmus condition (atoms T:reg=v and x=v or
// [x]=v, /\, \/, ~, parentheses) on an outcome; an atom the outcome does
// not give is unknown, and the result follows Kleene's three-valued
// logic: 1 true, 0 false, -1 unknown.
type forallEval struct {
	toks []string
	pos  int
	out  map[string]int
}

var condTok = regexp.MustCompile(`\d+:\w+\s*=\s*-?\d+|\[?\w+\]?\s*=\s*-?\d+|/\\|\\/|[()~]`)

func evalCond(cond string, out map[string]int) (int, bool) {
	e := &forallEval{toks: condTok.FindAllString(cond, -1), out: out}
	v, ok := e.or()
	return v, ok && e.pos == len(e.toks)
}

func (e *forallEval) peek() string {
	if e.pos < len(e.toks) {
		return e.toks[e.pos]
	}
	return ""
}

func (e *forallEval) or() (int, bool) {
	v, ok := e.and()
	for ok && e.peek() == `\/` {
		e.pos++
		w, ok2 := e.and()
		ok = ok2
		switch {
		case v == 1 || w == 1:
			v = 1
		case v == 0 && w == 0:
			v = 0
		default:
			v = -1
		}
	}
	return v, ok
}

func (e *forallEval) and() (int, bool) {
	v, ok := e.unary()
	for ok && e.peek() == `/\` {
		e.pos++
		w, ok2 := e.unary()
		ok = ok2
		switch {
		case v == 0 || w == 0:
			v = 0
		case v == 1 && w == 1:
			v = 1
		default:
			v = -1
		}
	}
	return v, ok
}

func (e *forallEval) unary() (int, bool) {
	switch t := e.peek(); {
	case t == "~":
		e.pos++
		v, ok := e.unary()
		if v >= 0 {
			v = 1 - v
		}
		return v, ok
	case t == "(":
		e.pos++
		v, ok := e.or()
		if e.peek() != ")" {
			return 0, false
		}
		e.pos++
		return v, ok
	case strings.Contains(t, "="):
		e.pos++
		kv := strings.SplitN(strings.NewReplacer("[", "", "]", "", " ", "").Replace(t), "=", 2)
		want, _ := strconv.Atoi(kv[1])
		got, known := e.out[kv[0]]
		switch {
		case !known:
			return -1, true
		case got == want:
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// outcomeOf is the outcome the generated test's exists asks for, with the
// final value of every location that the condition does not name: the
// value of its only write, or 0 when no thread writes it.
func outcomeOf(tt *Test, text string) map[string]int {
	out := map[string]int{}
	ex := strings.Index(text, "\nexists")
	for _, m := range condTok.FindAllString(text[ex:], -1) {
		if kv := strings.SplitN(strings.NewReplacer("[", "", "]", "", " ", "").Replace(m), "=", 2); len(kv) == 2 {
			out[kv[0]], _ = strconv.Atoi(kv[1])
		}
	}
	for l := 0; l < tt.Locs; l++ {
		if _, ok := out[LocName(l)]; !ok {
			out[LocName(l)] = 0
		}
	}
	for k := range tt.writtenOnce() {
		kv := strings.SplitN(k, "=", 2)
		out[kv[0]], _ = strconv.Atoi(kv[1])
	}
	return out
}

// TestCorpusForall checks the verdicts of the generated tests of the
// corpus tests whose condition is a forall over every outcome herd found
// (the X86 catalogue's, among them its 34 tests of read-modify-writes):
// the generated test's exists must be reachable under x86-TSO exactly
// when its outcome is among those the forall lists (the corpus expects
// every such forall to hold). By default the tests with an Rmw edge;
// MUSKET_LONG=1 every one.
func TestCorpusForall(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "litmus")
	long := os.Getenv("MUSKET_LONG") != ""
	table, err := expect.Read(filepath.Join(root, "expected", "TSO.csv"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	var files []string
	want := map[string]bool{}
	from := map[string]string{}
	unknown := 0
	filepath.Walk(filepath.Join(root, "X86"), func(p string, info os.FileInfo, err error) error {
		if err != nil || !strings.HasSuffix(p, ".litmus") {
			return nil
		}
		archWord, name, cyc, negated := corpusCycle(p)
		if cyc == "" || !negated {
			return nil
		}
		if exp, ok := table.Lookup(p); !ok || !exp {
			return nil
		}
		a, err := LookupArch(archWord)
		if err != nil {
			return nil
		}
		es, err := a.ParseCycle([]string{cyc})
		if err != nil || (!long && !hasRmw(es)) {
			return nil
		}
		tt, err := Build(a, es)
		if err != nil || tt.Name() != name {
			return nil
		}
		text := testText(t, tt)
		src, _ := os.ReadFile(p)
		i := strings.Index(string(src), "\nforall")
		if i < 0 {
			return nil
		}
		v, ok := evalCond(string(src[i+len("\nforall"):]), outcomeOf(tt, text))
		if !ok {
			t.Errorf("%s: cannot read its forall", p)
			return nil
		}
		if v < 0 {
			unknown++
			return nil
		}
		out := filepath.Join(tmp, filepath.Base(p))
		if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, out)
		want[out], from[out] = v == 1, p
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no X86 corpus test with a forall condition has a cycle the generator makes")
	}
	checked := 0
	batch.Run(context.Background(), files, batch.Options{Engine: "both", Model: "tso", Jobs: 2, Timeout: time.Minute}, func(j batch.Job) {
		switch {
		case j.Disagreement != nil:
			t.Errorf("%s: the engines disagree: %+v", j.Path, j.Disagreement)
		case j.Err != nil || j.Result == nil:
			t.Errorf("%s: %v", j.Path, j.Err)
		case j.Result.Status.String() != "done":
			t.Errorf("%s: %s: %v", j.Path, j.Result.Status, j.Result.Err)
		case j.Result.Ok() != want[j.Path]:
			src, _ := os.ReadFile(j.Path)
			t.Errorf("%s: generated test answers Ok=%v; its outcome is %s the forall of the corpus\n%s", from[j.Path], j.Result.Ok(),
				map[bool]string{true: "in", false: "not in"}[want[j.Path]], src)
		default:
			checked++
		}
	})
	t.Logf("%d generated tests agree with the outcomes the corpus's forall lists, under both engines (%d outcomes the forall does not decide)", checked, unknown)
}
