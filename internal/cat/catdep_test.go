package cat

import "testing"

func TestKeepExecutionDeps(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // the names the lets still bind
	}{
		{"M\ncatdep\nlet data = 0\nlet addr = 0 and x = po\nlet ctrl = po\nlet y = data", []string{"x", "y"}},
		{"M\nlet data = 0\nlet z = po", []string{"data", "z"}},
		{"M\ncatdep\nlet data(r) = r", []string{"data"}},
		// a catdep file's pick relations give way to Musket's, which
		// follow lrs, where the file defined the first of them
		{"M\ncatdep\nlet a = po\nlet pick-addr-dep = 0\nlet b = po\nlet pick-dep = 0\nlet c = pick-dep", []string{
			"a", "musket-pick-lrs", "musket-pick-mem", "pick-addr-dep", "pick-data-dep", "pick-ctrl-dep", "pick-basic-dep", "pick-dep", "b", "c"}},
		{"M\nlet pick-dep = 0", []string{"pick-dep"}},
	} {
		f, err := ParseFile("m.cat", []byte(tc.src))
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		keepExecutionDeps(f)
		var got []string
		for _, st := range f.Stmts {
			if let, ok := st.(*LetStmt); ok {
				for _, b := range let.Binds {
					got = append(got, b.Pat.Names...)
				}
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q: binds %v, want %v", tc.src, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q: binds %v, want %v", tc.src, got, tc.want)
				break
			}
		}
	}
}
