package cat

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestBuiltinCross checks Musket's own cross.cat: cross(oss) is the set of
// the unions of one relation from each member of oss.
func TestBuiltinCross(t *testing.T) {
	x := sbExec(t).x
	tests := []struct {
		name, oss string
		want      string // sorted outcomes of `empty r \ po as not-po`
	}{
		{"no sets", "{}", "ok"}, // {0}
		{"one empty choice", "{{}}", ""},
		{"one set", "{{po, rf}}", "fail:not-po ok"},
		{"two sets", "{{po, rf}, {0, po}}", "fail:not-po fail:not-po ok"}, // po, rf, rf|po
		{"same union twice", "{{po, 0}, {po, 0}}", "ok ok"},               // po, 0
	}
	for _, tc := range tests {
		src := "T\ninclude \"cross.cat\"\nwith r from cross(" + tc.oss + ")\nempty r \\ po as not-po\n"
		m, err := modelFrom(t, src, LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := strings.Fields(summary(outcomes(t, m, x)))
		sort.Strings(got)
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s: outcomes %q, want %q", tc.name, g, tc.want)
		}
	}
}

// TestBuiltinCosOpt checks Musket's own cos-opt.cat against the coherence
// orders herd's cos.cat gives: the 3! orders of three writes to x.
func TestBuiltinCosOpt(t *testing.T) {
	te := testExec{locs: []string{"x", "y"}, threads: [][]evSpec{{wx, wy}, {wx}, {wx}}}
	b := build(t, te)
	m, err := modelFrom(t, "T\ninclude \"cos-opt.cat\"\n", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range outcomes(t, m, b.withoutCo()) {
		if !o.Accepted {
			t.Fatalf("rejected: %s", o.Failed)
		}
		co, _ := o.Rel("co")
		if !co.Has(b.ev("x0"), b.ev("T1.0")) || !co.Has(b.ev("y0"), b.ev("T0.1")) || co.Len() != 7 || !co.Acyclic() {
			t.Errorf("bad co %v", co)
		}
		seen[co.String()] = true
	}
	if len(seen) != 6 {
		t.Errorf("%d coherence orders, want 6", len(seen))
	}
}

// TestBellNamedByUser checks that a bell file the user names is read or
// refused with its name, never replaced by the built-in bell in silence.
func TestBellNamedByUser(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.cat")
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("m.cat", "m\nacyclic po\n")
	own := write("own.bell", "\"own\"\nlet mine = 0\n")
	dangling := write("linux-kernel.bell", "../missing/linux-kernel.bell\n")
	tests := []struct {
		bell    string
		wantErr string // "" = loads
	}{
		{own, ""},
		{filepath.Join(dir, "absent.bell"), "absent.bell"},
		{dangling, "a link to a missing file"},
		{"linux-kernel.bell", ""}, // a bare name that is no file: the built-in bell
	}
	for _, tc := range tests {
		_, err := Load(model, LoadOptions{Bell: tc.bell})
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("bell %s: %v", tc.bell, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "bell file")):
			t.Errorf("bell %s: error %v, want one naming the file and %q", tc.bell, err, tc.wantErr)
		}
	}
}
