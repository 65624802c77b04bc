package fix

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestLineAccesses: the index gives, for every line of every thread,
// what accessesAt gives (robust5: accessesAt per line was quadratic).
func TestLineAccesses(t *testing.T) {
	var files []string
	for _, arch := range []string{"X86", "PPC", "AARCH64", "RISCV", "C11"} {
		fs, _ := filepath.Glob(filepath.Join(testcorpus.Dir(t), "litmus", arch, "*.litmus"))
		if len(fs) > 30 {
			fs = fs[:30]
		}
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	n := 0
	for _, f := range files {
		tst, err := litmus.ParseFile(f)
		if err != nil {
			continue
		}
		x := lineAccesses{}
		for _, th := range tst.Threads {
			for l := 0; l <= len(th.Code)+20; l++ {
				want := accessesAt(th, l)
				if got := x.at(th, l); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s P%d line %d: %v, want %v", f, th.ID, l, got, want)
				}
				n += len(want)
			}
		}
	}
	t.Logf("%d files, %d accesses", len(files), n)
}

// TestNewContextStopped: reading a test to repair stops when its context
// is done, with the context's error (robust5: the parse and the listing
// of the candidates of a large test took seconds past -timeout).
func TestNewContextStopped(t *testing.T) {
	var b strings.Builder
	b.WriteString("X86 big\n{ x=0; y=0; }\n P0 | P1 ;\n")
	for i := 0; i < 3000; i++ {
		b.WriteString(" MOV [x],$1 | MOV EAX,[y] ;\n MOV [y],$1 | MOV EBX,[x] ;\n")
	}
	b.WriteString("exists (1:EAX=1 /\\ 1:EBX=0)\n")
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewContext(done, "big.litmus", []byte(b.String()), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %v, want context.Canceled", err)
	}
	s, err := NewContext(context.Background(), "big.litmus", []byte(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Target() == "" {
		t.Error("no target")
	}
	src, err := os.ReadFile("../../examples/litmus/SB.litmus")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewContext(done, "SB.litmus", src, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("SB, done context: %v, want context.Canceled", err)
	}
}
