package prove

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse makes sure no invariant comment makes Parse panic, and that
// a test Parse accepts has its loops found or refused without a panic.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"mp.litmus", "toppers-spinlock.litmus", "peterson.litmus"} {
		src, err := os.ReadFile(filepath.Join(examples, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("SPARC T\n{ x=0; }\n P0 ;\n L: ld [x],%o1 ;\n(* invariant P0:L *)\nexists (0:o1=0)\n"))
	f.Add([]byte("SPARC T\n{ x=0; }\n P0 ;\n ld [x],%o1 ;\n(*invariant P9:x 0:o1= *)\nexists (0:o1=0)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		test, invs, err := Parse("fuzz.litmus", src)
		if err != nil {
			return
		}
		for _, inv := range invs {
			if l, err := findLoop(test.Threads[inv.Thread], inv); err == nil {
				repeatWrites(test.Threads[inv.Thread], l)
				abstract(test.Threads[inv.Thread], []loop{l}, plan{check: 0, blocks: []int{2}})
				abstract(test.Threads[inv.Thread], []loop{l}, plan{assume: true, check: -1, blocks: []int{1}})
			}
		}
	})
}
