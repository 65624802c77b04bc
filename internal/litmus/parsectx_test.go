package litmus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseFileContext: a parse whose context is done stops at the table
// with the context's error (robust5: the parse and hash of a test of
// megabytes did not look at -timeout); with a live context the test is
// the one ParseWith gives, hash included.
func TestParseFileContext(t *testing.T) {
	var b strings.Builder
	b.WriteString("X86 big\n{ x=0; }\n P0 | P1 ;\n")
	for i := 0; i < 3000; i++ {
		b.WriteString(" MOV [x],$1 | MOV EAX,[x] ;\n")
	}
	b.WriteString("exists (1:EAX=1)\n")
	path := filepath.Join(t.TempDir(), "big.litmus")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if tst, err := ParseFileContext(done, path); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %v, %v; want context.Canceled", tst, err)
	}
	got, err := ParseFileContext(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseWith(path, []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if got.Hash == "" || got.Hash != want.Hash || len(got.Threads) != 2 || len(got.Threads[0].Code) != len(want.Threads[0].Code) {
		t.Errorf("live context: hash %q, %d threads; want hash %q", got.Hash, len(got.Threads), want.Hash)
	}
}
