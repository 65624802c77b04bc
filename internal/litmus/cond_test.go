package litmus

import (
	"github.com/musket-verify/musket/internal/spec"
	"reflect"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

func TestFormatCond(t *testing.T) {
	a, b, c := atom(reg0(0, "EAX"), 0), atom(reg0(1, "EAX"), 1), atom(mem("x"), 2)
	for _, tc := range []struct {
		cond spec.Cond
		want string
	}{
		{a, "0:EAX=0"},
		{c, "x=2"},
		{spec.Atom{Ref: mem("x"), Val: prog.IntValue(-1), Neq: true}, "x!=-1"},
		{spec.Atom{Ref: reg0(0, "EAX"), Val: prog.AddrValue("y")}, "0:EAX=y"},
		{spec.RefEq{L: mem("x"), R: mem("y")}, "x=[y]"},
		{spec.RefEq{L: reg0(0, "EAX"), R: reg0(1, "EBX"), Neq: true}, "0:EAX!=1:EBX"},
		{spec.Bool{V: true}, "true"},
		{spec.And{L: a, R: spec.Or{L: b, R: c}}, `0:EAX=0 /\ (1:EAX=1 \/ x=2)`},
		{spec.Or{L: spec.And{L: a, R: b}, R: c}, `0:EAX=0 /\ 1:EAX=1 \/ x=2`},
		{spec.And{L: spec.And{L: a, R: b}, R: c}, `0:EAX=0 /\ 1:EAX=1 /\ x=2`},
		{spec.And{L: a, R: spec.And{L: b, R: c}}, `0:EAX=0 /\ 1:EAX=1 /\ x=2`},
		{spec.Not{C: a}, "~0:EAX=0"},
		{spec.Not{C: spec.And{L: a, R: b}}, `~(0:EAX=0 /\ 1:EAX=1)`},
		{spec.And{L: spec.Not{C: spec.Or{L: a, R: b}}, R: spec.Not{C: spec.Not{C: c}}}, `~(0:EAX=0 \/ 1:EAX=1) /\ ~~x=2`},
	} {
		if got := spec.FormatCond(tc.cond); got != tc.want {
			t.Errorf("FormatCond(%#v) = %s, want %s", tc.cond, got, tc.want)
		}
	}
}

// roundTrip checks that parsing the printed condition gives it back.
func roundTrip(t *testing.T, where string, c spec.Cond) {
	t.Helper()
	roundTripArch(t, where, c, x86Frontend{})
}

// roundTripArch is roundTrip with the register names of fe.
func roundTripArch(t *testing.T, where string, c spec.Cond, fe Frontend) {
	t.Helper()
	text := spec.FormatCond(c)
	back, err := parseCond("", []byte(text), fe)
	if err != nil {
		t.Errorf("%s: %s does not parse back: %v", where, text, err)
		return
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("%s: %s parses back as %#v, want %#v", where, text, back, c)
	}
}

func TestCondRoundTrip(t *testing.T) {
	for _, src := range []string{
		`0:EAX=0 /\ (1:EAX=1 \/ 1:EAX=0) \/ 0:EAX=1 /\ 1:EAX=0`,
		`~(x=1 \/ y=2) /\ not 0:EAX=1 /\ ~~true`,
		`((x=1))`,
		`x=1 \/ y=1 \/ z=1 /\ w=1`,
		`(x=1 \/ y=1) /\ (z=1 \/ w=1)`,
		`0:EAX=x /\ 1:EBX!=-7 /\ x=[y] /\ 0:EAX=1:EBX /\ [x]=0x10 /\ x=&y /\ P1:ecx == 3 /\ false`,
	} {
		c, err := parseCond("", []byte(src), x86Frontend{})
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		roundTrip(t, src, c)
	}
	for _, f := range corpusFiles(t) {
		tst, err := ParseFile(f)
		if err != nil {
			continue // reported by TestParseCorpus
		}
		roundTrip(t, f, tst.Cond)
	}
}

func TestCondPrecedence(t *testing.T) {
	a, b, c := atom(mem("a"), 1), atom(mem("b"), 1), atom(mem("c"), 1)
	for _, tc := range []struct {
		src  string
		want spec.Cond
	}{
		{`a=1 \/ b=1 /\ c=1`, spec.Or{L: a, R: spec.And{L: b, R: c}}},
		{`a=1 /\ b=1 \/ c=1`, spec.Or{L: spec.And{L: a, R: b}, R: c}},
		{`~a=1 /\ b=1`, spec.And{L: spec.Not{C: a}, R: b}},
		{`~(a=1 /\ b=1)`, spec.Not{C: spec.And{L: a, R: b}}},
		{`a=1 /\ b=1 /\ c=1`, spec.And{L: spec.And{L: a, R: b}, R: c}},
		{`not=1`, atom(mem("not"), 1)},
		// herd7 reads "<>" as "!=" (herdtools7's PPC/A005).
		{`a<>1 /\ b=1`, spec.And{L: spec.Atom{Ref: mem("a"), Val: prog.IntValue(1), Neq: true}, R: b}},
	} {
		got, err := parseCond("", []byte(tc.src), x86Frontend{})
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %#v, %v; want %#v", tc.src, got, err, tc.want)
		}
	}
}

func TestCondTooDeep(t *testing.T) {
	src := make([]byte, 0, 3*maxCondDepth)
	for i := 0; i < 2*maxCondDepth; i++ {
		src = append(src, '(')
	}
	src = append(src, "x=1"...)
	if _, err := parseCond("", src, x86Frontend{}); err == nil {
		t.Errorf("no error for %d nested parentheses", 2*maxCondDepth)
	}
}
