package playground

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/spec"
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
		// The engine alone, on parsed tests and loaded models.
		var ts []*spec.Test
		var ms []*cat.Model
		var names []string
		for _, r := range reqs {
			t, err := litmus.Parse(r.Name, []byte(r.Test))
			if err != nil {
				b.Fatal(err)
			}
			m, name, err := LoadModel(r, t.Arch, Env{})
			if err != nil {
				b.Fatal(err)
			}
			ts, ms, names = append(ts, t), append(ms, m), append(names, name)
		}
		b.ResetTimer()
		for range b.N {
			for i, t := range ts {
				enum.Run(context.Background(), t, ms[i], names[i], enum.Options{Bound: 2, TagNames: driver.Tags(t.Arch)})
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

// BenchmarkSuites runs the static site's requests on a sample of each
// architecture's suite of the shared corpus, natively or in
// WebAssembly (see BenchmarkX86).
func BenchmarkSuites(b *testing.B) {
	var reqs []*Request
	for _, arch := range []string{"X86", "PPC", "AARCH64", "RISCV", "C11", "LKMM"} {
		files, _ := filepath.Glob(filepath.Join(testcorpus.Dir(b), "litmus", arch, "*.litmus"))
		if len(files) > 80 {
			files = files[:80]
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			reqs = append(reqs, &Request{Name: filepath.Base(f), Test: string(src)})
		}
	}
	b.ResetTimer()
	for range b.N {
		for _, r := range reqs {
			json.Marshal(RunLitmus(context.Background(), r, Env{}))
		}
	}
}
