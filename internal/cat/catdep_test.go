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
