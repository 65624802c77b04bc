package playground

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// BenchmarkX86 runs the explicit engine on a sample of the shared X86
// suite, phase by phase, natively or as the static site runs it, to
// compare the two:
//
//	go test -run - -bench X86 ./internal/playground
//	GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run - -bench X86 ./internal/playground
func BenchmarkX86(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(testcorpus.Dir(b), "litmus", "X86", "*.litmus"))
	if len(files) > 60 {
		files = files[:60]
	}
	var reqs []*Request
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		reqs = append(reqs, &Request{Name: filepath.Base(f), Test: string(src)})
	}
	b.Run("parse", func(b *testing.B) {
		for range b.N {
			for _, r := range reqs {
				litmus.Parse(r.Name, []byte(r.Test))
			}
		}
	})
	b.Run("enum", func(b *testing.B) {
		for range b.N {
			for _, r := range reqs {
				t, _ := litmus.Parse(r.Name, []byte(r.Test))
				m, name, _ := LoadModel(r, t.Arch, Env{})
				enum.Run(context.Background(), t, m, name, enum.Options{Bound: 2, TagNames: driver.Tags(t.Arch)})
			}
		}
	})
	b.Run("run+json", func(b *testing.B) {
		for range b.N {
			for _, r := range reqs {
				json.Marshal(RunLitmus(context.Background(), r, Env{}))
			}
		}
	})
}
