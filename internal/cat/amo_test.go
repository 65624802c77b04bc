package cat

import (
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestSingleEventAMOs: herd7's and Musket's RISC-V models take an AMO as
// one event; Dat3M's, whose library defines fr = rf^-1;co | ... (an event
// in R and W would be in fr with itself), as a load and a store.
func TestSingleEventAMOs(t *testing.T) {
	m, err := LoadBuiltin("riscv")
	if err != nil {
		t.Fatal(err)
	}
	if !m.SingleEventAMOs() {
		t.Error("built-in riscv: want one event")
	}
	src := map[string]bool{
		"acyclic po | fr": true,
		"let fr = (rf^-1;co) \\ id\nacyclic po | fr":  true,
		"let fr = rf^-1;co\nacyclic po | fr":          false,
		"let fr = rf^-1;co | [R];loc;[W]\nempty fr":   false,
		"let rmw = amo | lxsx\nacyclic po | rmw | fr": true,
		"let fr = try fr with 0\nacyclic po | fr":     true,
	}
	for text, want := range src {
		f, err := ParseFile("t.cat", []byte("T\n"+text))
		if err != nil {
			t.Fatal(err)
		}
		if got := !frKeepsIdentity(f.Stmts); got != want {
			t.Errorf("%q: one event %v, want %v", text, got, want)
		}
	}
	corpus := testcorpus.Dir(t)
	lib := filepath.Join(testcorpus.HerdReferencePath(), "lib")
	for file, want := range map[string]bool{
		filepath.Join(corpus, "cat", "herd", "riscv.cat"):  true,
		filepath.Join(corpus, "cat", "dat3m", "riscv.cat"): false,
		filepath.Join(lib, "riscv.cat"):                    true,
	} {
		m, err := Load(file, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.SingleEventAMOs(); got != want {
			t.Errorf("%s: one event %v, want %v", file, got, want)
		}
	}
}
