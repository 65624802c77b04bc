package cat

import (
	"testing"
)

const (
	herdDir  = "../../../shared/corpus/cat/herd/"
	dat3mDir = "../../../shared/corpus/cat/dat3m/"
	linuxDir = "../../../shared/corpus/cat/linux/"
)

var (
	rx = evSpec{kind: "R", loc: "x"}
	ry = evSpec{kind: "R", loc: "y"}
	wx = evSpec{kind: "W", loc: "x"}
	wy = evSpec{kind: "W", loc: "y"}
	mf = evSpec{kind: "F", tags: []string{"MFENCE"}}
	// the read and write of an XCHG (a locked instruction)
	xrx = evSpec{kind: "R", loc: "x", tags: []string{"X"}}
	xwx = evSpec{kind: "W", loc: "x", tags: []string{"X"}}
	xry = evSpec{kind: "R", loc: "y", tags: []string{"X"}}
	xwy = evSpec{kind: "W", loc: "y", tags: []string{"X"}}
)

// The litmus shapes, each at one outcome, with the verdict of SC and TSO.
var shapes = []struct {
	name     string
	exec     testExec
	sc, tso  bool // allowed under SC, under TSO
	outcomes int  // number of outcomes when the model generates co
}{
	{
		name: "SB relaxed",
		exec: testExec{locs: []string{"x", "y"},
			threads: [][]evSpec{{wx, ry}, {wy, rx}},
			rf:      [][2]string{{"y0", "T0.1"}, {"x0", "T1.1"}},
			co:      [][]string{{"T0.0"}, {"T1.0"}}},
		sc: false, tso: true, outcomes: 1,
	},
	{
		name: "SB sequential",
		exec: testExec{locs: []string{"x", "y"},
			threads: [][]evSpec{{wx, ry}, {wy, rx}},
			rf:      [][2]string{{"y0", "T0.1"}, {"T0.0", "T1.1"}},
			co:      [][]string{{"T0.0"}, {"T1.0"}}},
		sc: true, tso: true, outcomes: 1,
	},
	{
		name: "SB+mfences relaxed",
		exec: testExec{locs: []string{"x", "y"},
			threads: [][]evSpec{{wx, mf, ry}, {wy, mf, rx}},
			rf:      [][2]string{{"y0", "T0.2"}, {"x0", "T1.2"}},
			co:      [][]string{{"T0.0"}, {"T1.0"}}},
		sc: false, tso: false, outcomes: 1,
	},
	{
		name: "MP relaxed",
		exec: testExec{locs: []string{"x", "y"},
			threads: [][]evSpec{{wx, wy}, {ry, rx}},
			rf:      [][2]string{{"T0.1", "T1.0"}, {"x0", "T1.1"}},
			co:      [][]string{{"T0.0"}, {"T0.1"}}},
		sc: false, tso: false, outcomes: 1,
	},
	{
		name: "MP allowed",
		exec: testExec{locs: []string{"x", "y"},
			threads: [][]evSpec{{wx, wy}, {ry, rx}},
			rf:      [][2]string{{"T0.1", "T1.0"}, {"T0.0", "T1.1"}},
			co:      [][]string{{"T0.0"}, {"T0.1"}}},
		sc: true, tso: true, outcomes: 1,
	},
	{
		name: "LB relaxed",
		exec: testExec{locs: []string{"x", "y"},
			threads: [][]evSpec{{rx, wy}, {ry, wx}},
			rf:      [][2]string{{"T1.1", "T0.0"}, {"T0.1", "T1.0"}},
			co:      [][]string{{"T1.1"}, {"T0.1"}}},
		sc: false, tso: false, outcomes: 1,
	},
	{
		name: "2+2W relaxed",
		exec: testExec{locs: []string{"x", "y"},
			threads: [][]evSpec{{wx, wy}, {wy, wx}},
			co:      [][]string{{"T1.1", "T0.0"}, {"T0.1", "T1.0"}},
			final:   []string{"T0.0", "T1.0"}},
		sc: false, tso: false, outcomes: 1,
	},
	{
		name: "2+2W allowed",
		exec: testExec{locs: []string{"x", "y"},
			threads: [][]evSpec{{wx, wy}, {wy, wx}},
			co:      [][]string{{"T0.0", "T1.1"}, {"T1.0", "T0.1"}},
			final:   []string{"T1.1", "T0.1"}},
		sc: true, tso: true, outcomes: 1,
	},
	{
		name: "XCHG both read initial (atomicity)",
		exec: testExec{locs: []string{"x"},
			threads: [][]evSpec{{xrx, xwx}, {xrx, xwx}},
			rf:      [][2]string{{"x0", "T0.0"}, {"x0", "T1.0"}},
			co:      [][]string{{"T0.1", "T1.1"}},
			rmw:     [][2]string{{"T0.0", "T0.1"}, {"T1.0", "T1.1"}},
			final:   []string{"T1.1"}},
		sc: false, tso: false, outcomes: 1,
	},
	{
		name: "XCHG chained",
		exec: testExec{locs: []string{"x"},
			threads: [][]evSpec{{xrx, xwx}, {xrx, xwx}},
			rf:      [][2]string{{"x0", "T0.0"}, {"T0.1", "T1.0"}},
			co:      [][]string{{"T0.1", "T1.1"}},
			rmw:     [][2]string{{"T0.0", "T0.1"}, {"T1.0", "T1.1"}},
			final:   []string{"T1.1"}},
		sc: true, tso: true, outcomes: 1,
	},
	{
		name: "SB with XCHG writes relaxed",
		exec: testExec{locs: []string{"x", "y"},
			threads: [][]evSpec{{xrx, xwx, ry}, {xry, xwy, rx}},
			rf:      [][2]string{{"x0", "T0.0"}, {"y0", "T1.0"}, {"y0", "T0.2"}, {"x0", "T1.2"}},
			co:      [][]string{{"T0.1"}, {"T1.1"}},
			rmw:     [][2]string{{"T0.0", "T0.1"}, {"T1.0", "T1.1"}}},
		sc: false, tso: false, outcomes: 1,
	},
}

type modelCase struct {
	name     string
	load     func() (*Model, error)
	isTSO    bool
	genCo    bool // the model binds co itself
	variants []string
}

var modelCases = []modelCase{
	{"herd x86tso.cat", func() (*Model, error) { return Load(herdDir+"x86tso.cat", LoadOptions{}) }, true, true, nil},
	{"herd x86tso.cat cos-opt", func() (*Model, error) { return Load(herdDir+"x86tso.cat", LoadOptions{}) }, true, true, []string{"cos-opt"}},
	{"herd tso.cat", func() (*Model, error) { return Load(herdDir+"tso.cat", LoadOptions{}) }, true, true, nil},
	{"herd sc.cat", func() (*Model, error) { return Load(herdDir+"sc.cat", LoadOptions{}) }, false, true, nil},
	{"dat3m tso.cat", func() (*Model, error) { return Load(dat3mDir+"tso.cat", LoadOptions{}) }, true, false, nil},
	{"dat3m sc.cat", func() (*Model, error) { return Load(dat3mDir+"sc.cat", LoadOptions{}) }, false, false, nil},
	{"builtin tso", func() (*Model, error) { return LoadBuiltin("tso") }, true, false, nil},
	{"builtin sc", func() (*Model, error) { return LoadBuiltin("sc") }, false, false, nil},
}

func TestModelsOnShapes(t *testing.T) {
	for _, mc := range modelCases {
		m, err := mc.load()
		if err != nil {
			t.Fatalf("%s: load: %v", mc.name, err)
		}
		if m.Binds("co") != mc.genCo {
			t.Errorf("%s: Binds(co) = %v, want %v", mc.name, m.Binds("co"), mc.genCo)
		}
		for _, sh := range shapes {
			b := build(t, sh.exec)
			want := sh.sc
			if mc.isTSO {
				want = sh.tso
			}
			x := b.x
			if mc.genCo {
				x = b.withoutCo()
			}
			os := outcomes(t, m, x, mc.variants...)
			if mc.genCo {
				// Keep the branch whose co is the shape's.
				var kept []Outcome
				for _, o := range os {
					co, ok := o.Rel("co")
					if ok && co.Equal(b.x.Rels["co"]) {
						kept = append(kept, o)
					}
				}
				if len(kept) != 1 && !(len(kept) == 0 && !want) {
					t.Errorf("%s on %s: %d branches have the shape's co (outcomes %s)", mc.name, sh.name, len(kept), summary(os))
					continue
				}
				os = kept
			}
			got := len(os) == 1 && os[0].Accepted
			if got != want {
				t.Errorf("%s on %s: accepted=%v, want %v (%s)", mc.name, sh.name, got, want, summary(os))
			}
		}
	}
}

// TestConcurrentChecks runs one model from several goroutines on
// alternating executions (the memo must not leak between them).
func TestConcurrentChecks(t *testing.T) {
	m, err := Load(herdDir+"x86tso.cat", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var xs []*Execution
	var want []string
	for _, sh := range shapes {
		x := build(t, sh.exec).withoutCo()
		xs = append(xs, x)
		want = append(want, summary(outcomes(t, m, x)))
	}
	done := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func(g int) {
			for i := 0; i < 200; i++ {
				k := (i*7 + g) % len(xs)
				var got []Outcome
				if err := m.Check(xs[k], CheckOptions{}, func(o Outcome) bool { got = append(got, o); return true }); err != nil {
					done <- err.Error()
					return
				}
				if s := summary(got); s != want[k] {
					done <- shapes[k].name + ": " + s + " != " + want[k]
					return
				}
			}
			done <- ""
		}(g)
	}
	for g := 0; g < 8; g++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
