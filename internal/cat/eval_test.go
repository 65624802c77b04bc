package cat

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/rel"
)

// modelFrom writes src to a temporary m.cat (with the extra files) and
// loads it.
func modelFrom(t *testing.T, src string, opts LoadOptions, extra ...string) (*Model, error) {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i+1 < len(extra); i += 2 {
		if err := os.WriteFile(filepath.Join(dir, extra[i]), []byte(extra[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "m.cat")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(p, opts)
}

func mustModel(t *testing.T, src string, extra ...string) *Model {
	t.Helper()
	m, err := modelFrom(t, src, LoadOptions{}, extra...)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return m
}

// sbExec is SB's relaxed outcome with co given.
func sbExec(t *testing.T) *builtExec { return build(t, shapes[0].exec) }

func TestGenerateCos(t *testing.T) {
	// x has an initial write and three writes from three threads, y one:
	// herd's cos.cat must give the 3! coherence orders of x.
	te := testExec{locs: []string{"x", "y"},
		threads: [][]evSpec{{wx, wy}, {wx}, {wx}}}
	b := build(t, te)
	m, err := modelFrom(t, "T\ninclude \"cos.cat\"\n", LoadOptions{IncludeDirs: []string{herdDir}})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Binds("co") || m.Binds("fr") {
		t.Errorf("Binds(co)=%v Binds(fr)=%v", m.Binds("co"), m.Binds("fr"))
	}
	for _, variant := range []string{"", "cos-opt"} {
		seen := map[string]bool{}
		for _, o := range outcomes(t, m, b.withoutCo(), variant) {
			if !o.Accepted {
				t.Fatalf("%q: rejected: %s", variant, o.Failed)
			}
			co, ok := o.Rel("co")
			if !ok {
				t.Fatalf("no co")
			}
			// Each co is a strict total order per location, initial write first.
			x0, y0 := b.ev("x0"), b.ev("y0")
			for _, w := range []string{"T0.0", "T1.0", "T2.0"} {
				if !co.Has(x0, b.ev(w)) {
					t.Errorf("co lacks x0 -> %s: %v", w, co)
				}
			}
			if !co.Has(y0, b.ev("T0.1")) || co.Len() != 6+1 || !co.Acyclic() {
				t.Errorf("bad co %v", co)
			}
			fr, _ := o.Rel("fr")
			if !fr.IsEmpty() { // no reads
				t.Errorf("fr = %v", fr)
			}
			seen[co.String()] = true
		}
		if len(seen) != 6 {
			t.Errorf("%q: %d coherence orders, want 6", variant, len(seen))
		}
	}
	// Check stops when yield returns false.
	calls := 0
	if err := m.Check(b.withoutCo(), CheckOptions{}, func(Outcome) bool { calls++; return false }); err != nil || calls != 1 {
		t.Errorf("early stop: calls=%d err=%v", calls, err)
	}
}

func TestFixpoints(t *testing.T) {
	b := sbExec(t)
	x := b.x
	// po of SB plus a chain, to have something to close.
	x.Rels["r0"] = rel.RelOf(x.N, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4})
	m := mustModel(t, `T
let rec tc = r0 | tc ; tc
let rec ev = a | od ; r0 and od = ev ; r0
  and a = [domain(r0) \ range(r0)]
let rec len S = match S with || {} -> {} || e ++ s -> e ++ len s end
let n = len (domain r0)
let rec U = po-loc | U;U when acyclic U as sc-per-location
empty tc \ r0^+ as sound
empty r0^+ \ tc as complete
`)
	os := outcomes(t, m, x)
	if len(os) != 1 || !os[0].Accepted {
		t.Fatalf("outcomes %s", summary(os))
	}
	o := os[0]
	get := func(name string) rel.Rel {
		r, ok := o.Rel(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		return r
	}
	if tc := get("tc"); !tc.Equal(x.Rels["r0"].Plus()) {
		t.Errorf("tc = %v", tc)
	}
	// even/odd steps along the chain 0 -> 1 -> 2 -> 3 -> 4 from 0.
	if ev, od := get("ev"), get("od"); ev.String() != "{(0,0),(0,2),(0,4)}" || od.String() != "{(0,1),(0,3)}" {
		t.Errorf("ev = %v, od = %v", ev, od)
	}
	if n := get("n"); n.Len() != 4 { // the identity of the set itself
		t.Errorf("len = %v", n)
	}
	// A definition that oscillates is an error, not a hang.
	m = mustModel(t, "T\nlet rec a = ~a\n")
	err := m.Check(x, CheckOptions{}, func(Outcome) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "m.cat:2:1: recursive definition does not converge") {
		t.Errorf("oscillation: %v", err)
	}
	// Unbounded recursion is an error too.
	m = mustModel(t, "T\nlet rec f x = f x | x\nlet y = f 0\n")
	err = m.Check(x, CheckOptions{}, func(Outcome) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "recursion too deep") {
		t.Errorf("deep recursion: %v", err)
	}
}

func TestEvalErrors(t *testing.T) {
	x := sbExec(t).x
	tests := []struct{ src, want string }{
		{"T\nlet a = po | nothere\n", "m.cat:2:14: unbound name nothere"},
		{"T\nlet f(a, b) = a\nlet c = f(po)\n", "m.cat:3:9: expected a tuple of 2, got relation"},
		{"T\nacyclic R * 'a\n", "m.cat:2:11: cannot apply * to event set and tag"},
		{"T\nlet f x = x ; 'a\nlet c = f po\n", "m.cat:2:13: cannot apply ; to relation and tag (in f called at m.cat:3:9)"},
		{"T\nlet t = match 'c with || 'a -> 0 || 'b -> 0 end\n", "m.cat:2:9: no clause matches 'c"},
		{"T\ncall nothing(po)\n", "m.cat:2:1: unbound name nothing"},
		{"T\nwith x from 'a\n", "m.cat:2:1: cannot iterate over tag"},
		// Dat3M's base names: what they are, what to write instead.
		{"T\nlet a = po | casdep\n", "m.cat:2:14: unbound name casdep: Dat3M's compare-and-swap dependency (the read of a CAS to its write), which herd7 and Musket do not define; bind it before its use, e.g. `let casdep = rmw & (R * W)` (every read-modify-write, exchanges included) or `let casdep = 0`"},
	}
	for _, tc := range tests {
		m := mustModel(t, tc.src)
		err := m.Check(x, CheckOptions{}, func(Outcome) bool { return true })
		if err == nil || !strings.HasSuffix(dropDirs(err.Error()), tc.want) {
			t.Errorf("%q:\n got %v\nwant ...%s", tc.src, err, tc.want)
		}
	}
}

// dropDirs removes the folders of file names in a message.
func dropDirs(s string) string { return dirRE.ReplaceAllString(s, "") }

var dirRE = regexp.MustCompile(`[^ ()]*/`)

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		src   string
		extra []string
		want  string
	}{
		{"T\ninclude \"missing.cat\"\n", nil, "m.cat:2:1: cannot find included file \"missing.cat\""},
		{"T\ninclude \"a.cat\"\n", []string{"a.cat", "A\ninclude \"b.cat\"", "b.cat", "B\ninclude \"a.cat\""}, "b.cat:2:1: include cycle: a.cat -> b.cat -> a.cat"},
		{"T\ninclude \"bad.cat\"\n", []string{"bad.cat", "B\nlet = 0"}, "bad.cat:2:5: unexpected '=', expected a name"},
	}
	for _, tc := range tests {
		_, err := modelFrom(t, tc.src, LoadOptions{}, tc.extra...)
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant ...%s", tc.src, err, tc.want)
		}
	}
	if _, err := Load("/nonexistent/x.cat", LoadOptions{}); err == nil {
		t.Errorf("missing model loads")
	}
	if _, err := LoadBuiltin("nope"); err == nil || !strings.Contains(err.Error(), "sc, tso") {
		t.Errorf("LoadBuiltin(nope): %v", err)
	}
}

func TestIncludes(t *testing.T) {
	x := sbExec(t).x
	// The including file's folder comes first, then -I folders, then the
	// built-in files; a file that checks something included twice is read
	// once, a file of definitions only is read again (its lets rebound
	// against the names as they are then, as herd7 reads it); the
	// folder's stdlib.cat replaces Musket's.
	inc := t.TempDir()
	os.WriteFile(filepath.Join(inc, "lib.cat"), []byte("L\nlet fromI = po\n"), 0o644)
	os.WriteFile(filepath.Join(inc, "twice.cat"), []byte("L\nlet count = (count, 0)\nflag ~empty 0 as never\n"), 0o644)
	os.WriteFile(filepath.Join(inc, "defs.cat"), []byte("L\nlet again = (again, 0)\n"), 0o644)
	m, err := modelFrom(t, `T
let count = 0
include "lib.cat"
include "local.cat"
include "twice.cat"
include "twice.cat"
if "v" include "twice.cat" else let other = 0 end
empty (if count = (0, 0) then 0 else po) as once
let again = 0
include "defs.cat"
include "defs.cat"
empty (if again = ((0, 0), 0) then 0 else po) as reread
include "sc.cat"
`, LoadOptions{IncludeDirs: []string{inc}},
		"local.cat", "L\nlet local = rf\n",
		"stdlib.cat", "S\nlet mine = 0\n")
	if err != nil {
		t.Fatal(err)
	}
	os := outcomes(t, m, x)
	if len(os) != 1 {
		t.Fatalf("outcomes %s", summary(os))
	}
	// sc.cat is the built-in one: SB's relaxed outcome fails it.
	if os[0].Accepted || os[0].Failed != "sc" {
		t.Errorf("built-in sc.cat not used: %s", summary(os))
	}
	for _, name := range []string{"fromI", "local", "mine"} {
		if _, ok := os[0].Rel(name); !ok {
			t.Errorf("%s not bound", name)
		}
	}
	// Musket's stdlib was not loaded: the folder has its own.
	if _, err := modelFrom(t, "T\nlet a = emptyset\n", LoadOptions{}, "stdlib.cat", "S\n"); err != nil {
		t.Fatal(err)
	}
}

func TestLanguage(t *testing.T) {
	b := sbExec(t)
	x := b.x
	tests := []struct {
		name     string
		src      string
		variants []string
		want     string // outcomes
		check    map[string]string
	}{
		{name: "flags and undefined", src: `T
flag ~empty po as has-po
flag ~empty 0 as never
undefined_unless empty po as ub
`, want: "ok", check: map[string]string{"flags": "has-po", "undefined": "ub"}},
		{name: "first failed check", src: "T\nacyclic po\nempty po | rf\nacyclic po as later\n", want: "fail:empty po | rf"},
		{name: "negated checks", src: "T\n~empty po as a\n~acyclic po as b\n", want: "fail:b"},
		{name: "irreflexive", src: "T\nirreflexive po\nirreflexive id as idr\n", want: "fail:idr"},
		{name: "assert rejects", src: "T\nassert empty po as asserted\n", want: "fail:asserted"},
		{name: "variant statement", src: "T\nif \"v\" let a = po else let a = 0 end\nempty a as e\n", variants: []string{"v"}, want: "fail:e"},
		{name: "variant statement off", src: "T\nif \"v\" let a = po else let a = 0 end\nempty a as e\n", want: "ok"},
		{name: "variant expression", src: "T\nlet a = if \"v\" && not \"w\" then po else 0\nempty a as e\n", variants: []string{"v"}, want: "fail:e"},
		{name: "if compares", src: "T\nlet a = if po = po then 0 else po\nlet b = if rf subset po then po else 0\nlet c = if 'a in {'a, 'b} then 0 else po\nempty a | b | c as e\n", want: "ok"},
		{name: "with branches", src: "T\nwith r from {po, rf, 0}\nempty r as e\n", want: "fail:e fail:e ok"},
		{name: "with on events", src: "T\nwith e from W\nempty [e] ; po as e\n", want: "ok ok fail:e fail:e"},
		{name: "procedure", src: "T\nprocedure sub(a, b) = empty a \\ b end\ncall sub(rfe, rf)\ncall sub(po, rf) as not-sub\n", want: "fail:not-sub"},
		{name: "forall", src: "T\nforall e in R do empty po ; [e] end\nlet y = 0\n", want: "fail:empty po ; [e]"},
		{name: "forall pass", src: "T\nforall e in R do acyclic [e] ; po end\nempty R \\ R as done\n", want: "ok"},
		{name: "try", src: "T\nlet a = try nothere with po\nlet b = try (po ; R) with rf\nempty a \\ po\nempty b \\ rf\n", want: "ok"},
		{name: "tags and enum", src: "T\nenum Mode = 'fast || 'slow\nlet f m = match m with || 'fast -> po || _ -> 0 end\nlet all = map f Mode\nempty f('slow) as slow\n~empty f('fast) as fast\nlet n = tag2events('MFENCE)\n", want: "ok"},
		{name: "sets of values", src: "T\nlet s = {po, rf} | {po}\nlet t = s \\ {rf}\nlet u = po ++ 0\nempty (t \\ {po}) as t-is-po\n~empty u as u\nlet k = {{}} ++ {}\n", want: "ok"},
		{name: "pairs", src: "T\nlet rec first S = match S with || {} -> 0 || p ++ s -> p ++ 0 end\nlet one = first po\n~empty one\nempty one \\ po\nlet inv = map (fun p -> p^-1) po\n", want: "ok"},
		{name: "linearisations", src: "T\nlet ls = linearisations(W, 0)\nlet n = map (fun l -> 0) ls\nlet two = linearisations(IW, IW * IW)\nempty two as cyclic-gives-none\n", want: "ok"},
		{name: "classes-loc", src: "T\nlet c = classes-loc(M)\nlet ws = partition(W)\nforall s in ws do empty (s * s) & ext & (W * W) \\ id as same-thread end\n", want: "fail:same-thread"},
		{name: "tuples", src: "T\nlet (a, b) = (po, rf)\nlet swap (x, y) = (y, x)\nlet (c, d) = swap(a, b)\nempty c \\ rf\nempty d \\ po\n", want: "ok"},
		{name: "let in and shadowing", src: "T\nlet a = po\nlet b = let a = rf in a\nlet a = a | rf\nempty b \\ rf\nempty (po | rf) \\ a\n", want: "ok"},
		{name: "universe and complement", src: "T\nlet a = ~0 & po\nlet b = _ * R\nlet c = ~R\nempty po \\ a\nempty c & R\n~empty b\n", want: "ok"},
		{name: "closures", src: "T\nlet add x = fun y -> x | y\nlet f = add po\nlet g = f rf\nempty g \\ (po | rf)\n", want: "ok"},
		{name: "fencerel", src: "T\nlet f = fencerel(F)\nempty f\n", want: "ok"},
	}
	for _, tc := range tests {
		m, err := modelFrom(t, tc.src, LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		os := outcomes(t, m, x, tc.variants...)
		if got := summary(os); got != tc.want {
			t.Errorf("%s: outcomes %q, want %q", tc.name, got, tc.want)
			continue
		}
		if len(os) > 0 {
			if want, ok := tc.check["flags"]; ok && strings.Join(os[0].Flags, ",") != want {
				t.Errorf("%s: flags %v, want %s", tc.name, os[0].Flags, want)
			}
			if want, ok := tc.check["undefined"]; ok && strings.Join(os[0].Undefined, ",") != want {
				t.Errorf("%s: undefined %v, want %s", tc.name, os[0].Undefined, want)
			}
		}
	}
}

func TestBuiltins(t *testing.T) {
	bs := Builtins()
	var names []string
	for _, b := range bs {
		names = append(names, b.Name)
		if b.Doc == "" {
			t.Errorf("%s has no doc", b.Name)
		}
	}
	// Each architecture adds its own: the list is sorted, has sc and tso,
	// and every model loads.
	if !slices.IsSorted(names) || !slices.Contains(names, "sc") || !slices.Contains(names, "tso") {
		t.Errorf("builtins %v", names)
	}
	for _, name := range names {
		if _, err := LoadBuiltin(name); err != nil {
			t.Errorf("builtin %s: %v", name, err)
		}
	}
	m, err := LoadBuiltin("tso")
	if err != nil {
		t.Fatal(err)
	}
	if m.Title() != "x86-TSO" || m.Binds("co") || m.Path() != "builtin:tso.cat" {
		t.Errorf("tso: title %q binds co %v path %s", m.Title(), m.Binds("co"), m.Path())
	}
	if m, _ := Load(herdDir+"x86tso.cat", LoadOptions{}); m == nil || m.Title() != "X86 TSO" {
		t.Errorf("x86tso title")
	}
}

// TestCheckHonoursContext: a Check whose context is done stops its
// recursions, fixpoints and loops with the context's error (never a
// verdict), long before its step budget runs out.
func TestCheckHonoursContext(t *testing.T) {
	x := sbExec(t).x
	tests := []struct{ name, src string }{
		{"recursion", "T\nlet rec f x = f x\nlet y = f 0\n"},
		{"with", "T\nlet rec f x = f x\nwith s from (W * W)\nlet y = f s\n"},
		{"forall", "T\nlet rec f x = f x\nforall e in M do let y = f e end\n"},
		{"statements", "T\n" + strings.Repeat("let a = po ; po\n", 100)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustModel(t, tc.src)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			n := 0
			err := m.Check(x, CheckOptions{Ctx: ctx}, func(Outcome) bool { n++; return true })
			if !errors.Is(err, context.Canceled) || n != 0 {
				t.Errorf("got %v after %d outcomes, want context.Canceled and none", err, n)
			}
		})
	}
}
