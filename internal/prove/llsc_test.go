package prove

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/bmc"
)

// TestStoreConditional checks the semantics Maleehuan's JAIST 2018
// thesis gives to load-link / store-conditional in both engines: a store-conditional may fail
// spuriously, and it succeeds only if no other write to the location
// came (in coherence order) between the write its load-link read and its
// own write.
func TestStoreConditional(t *testing.T) {
	cases := []struct {
		name, src string
		models    []string
		want      bool
	}{
		{"spurious failure", `ARM llsc-spurious
{ 0:R1=x; }
 P0               ;
 MOV R2,#1        ;
 LDREX R0,[R1]    ;
 STREX R4,R2,[R1] ;
exists (0:R4=1 /\ x=0)`, []string{"sc", "tso", "pso", "armv7"}, true},
		{"success", `ARM llsc-success
{ 0:R1=x; }
 P0               ;
 MOV R2,#1        ;
 LDREX R0,[R1]    ;
 STREX R4,R2,[R1] ;
exists (0:R4=0 /\ x=1)`, []string{"sc", "tso", "pso", "armv7"}, true},
		{"intervening write makes it fail", `ARM llsc-intervene
{ 0:R1=x; 1:R1=x; }
 P0               | P1          ;
 MOV R2,#2        | MOV R2,#1   ;
 LDREX R0,[R1]    | STR R2,[R1] ;
 STREX R4,R2,[R1] |             ;
exists (0:R0=0 /\ 0:R4=0 /\ x=2)`, []string{"sc", "tso", "pso", "armv7"}, false},
		{"write before the pair", `ARM llsc-after
{ 0:R1=x; 1:R1=x; }
 P0               | P1          ;
 MOV R2,#2        | MOV R2,#1   ;
 LDREX R0,[R1]    | STR R2,[R1] ;
 STREX R4,R2,[R1] |             ;
exists (0:R0=1 /\ 0:R4=0 /\ x=2)`, []string{"sc", "tso", "pso", "armv7"}, true},
		{"two increments both succeed only atomically", `ARM llsc-inc
{ 0:R1=x; 1:R1=x; }
 P0               | P1               ;
 LDREX R0,[R1]    | LDREX R0,[R1]    ;
 ADD R0,R0,#1     | ADD R0,R0,#1     ;
 STREX R4,R0,[R1] | STREX R4,R0,[R1] ;
exists (0:R4=0 /\ 1:R4=0 /\ x=1)`, []string{"sc", "tso", "pso", "armv7"}, false},
	}
	dir := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(dir, c.name+".litmus")
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, m := range c.models {
			for _, engine := range []string{"smt", "enum"} {
				pr, err := bmc.CheckLitmus(context.Background(), path, bmc.LitmusOptions{Model: m, Engine: engine})
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if pr.Reachable != c.want {
					t.Errorf("%s under %s (%s): reachable %v, want %v", c.name, m, engine, pr.Reachable, c.want)
				}
			}
		}
	}
}
