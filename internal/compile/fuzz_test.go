package compile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/pts"
)

// FuzzPipeline parses, unrolls and compiles any input: nothing may
// panic, and what succeeds is loop-free and keeps one memory access per
// source access.
func FuzzPipeline(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pts"))
	for i, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src, uint8(i%4))
		}
	}
	f.Add([]byte("{x}\nthread a { while true { if r < 2 { r = x.load(_sc) } else { x.store(_rel, r) } } }\nexists x = 1"), uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, k uint8) {
		p, err := pts.Parse("f.pts", src)
		if err != nil {
			return
		}
		u, err := Unroll(p, int(k%5))
		if err != nil {
			return
		}
		for _, th := range u.Threads {
			checkLoopFree(t, th)
		}
		for _, target := range Targets() {
			c, err := CompileMap(u, target)
			if err != nil {
				t.Fatalf("%s: %v", target, err)
			}
			for i, th := range c.Test.Threads {
				if len(memIndex(th)) != len(memIndex(u.Threads[i])) {
					t.Fatalf("%s: accesses changed", target)
				}
				for j, in := range th.Code {
					if isMem(in) && !isMem(u.Threads[i].Code[c.Origin[i][j]]) {
						t.Fatalf("%s: access %s from a non-access", target, prog.InstrString(in))
					}
				}
			}
		}
	})
}
