package litmus_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// sparcThread parses one SPARC thread given as cells, one a line.
func sparcThread(t *testing.T, src string) (*prog.Thread, error) {
	t.Helper()
	fe, err := litmus.Lookup("SPARC")
	if err != nil {
		t.Fatal(err)
	}
	var cells []litmus.Cell
	for i, line := range strings.Split(strings.TrimSpace(src), "\n") {
		line = strings.TrimSpace(line)
		if line != "" {
			cells = append(cells, litmus.Cell{Text: line, Pos: prog.Pos{File: "t.litmus", Line: i + 1, Col: 1}})
		}
	}
	return fe.Thread(0, cells)
}

func code(th *prog.Thread) string {
	var lines []string
	for _, in := range th.Code {
		lines = append(lines, prog.InstrString(in))
	}
	return strings.Join(lines, "\n")
}

func TestSPARCTranslation(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"loads and stores", `
ld [x],%o1
st %o1,[y]
stb %g0,[z]
ld [%o2+4],%g0`, `
o1 = load [x]
store [y] o1
store [z] 0
 = load [(o2 + 4)]`},
		{"atomics", `
ldstub [l],%o5
swap [x],%l1
cas [%i0],%o1,%o2`, `
o5 = rmw.X/.X [l] 255
l1 = rmw.X/.X [x] l1
o2 = rmw.X/.X [i0] o2 if (old == o1)`},
		{"fences", `
membar #StoreLoad
membar #LoadLoad+#StoreStore
membar 0x40
stbar`, `
fence.MEMBAR.StoreLoad.MFENCE
fence.MEMBAR.LoadLoad.StoreStore
fence.MEMBAR.LoadLoad.StoreLoad.LoadStore.StoreStore.MFENCE
fence.STBAR.StoreStore`},
		{"register aliases and arithmetic", `
mov 1,%r9
add %sp,%o1,%fp
subcc %o1,1,%o1
cmp %o1,x`, `
o1 = 1
i6 = (o6 + o1)
o1 = (o1 - 1)
%ccL = o1
%ccR = 0
%ccL = o1
%ccR = x`},
		// A conditional branch: the condition is taken before the delay
		// slot, which runs on both edges.
		{"delay slot", `
L: ld [y],%o1
brnz %o1,L
ld [x],%o1`, `
L:
o1 = load [y]
%br = (o1 != 0)
o1 = load [x]
if %br goto L`},
		// An annulled branch runs its delay slot only when it jumps.
		{"annulled delay slot", `
L: ld [y],%o1
cmp %o1,0
be,a,pt %icc,L
ld [x],%o2
nop`, `
L:
o1 = load [y]
%ccL = o1
%ccR = 0
if !(%ccL == %ccR) goto %L1
o2 = load [x]
goto L
%L1:`},
		// ba runs its delay slot; ba,a does not; a labelled delay slot is
		// also an ordinary instruction under its label.
		{"labelled delay slot", `
ba CS
L2: ldub [l],%o5
brnz,pt %o5,L2
nop
ba,a L1
nop
L1: nop
CS: nop`, `
o5 = load [l]
goto CS
L2:
o5 = load [l]
%br = (o5 != 0)
if %br goto L2
goto L1
L1:
CS:`},
		{"bn", `
bn,a L
ld [x],%o1
bn L
ld [y],%o1
L: nop`, `
o1 = load [y]
L:`},
	}
	for _, tt := range tests {
		th, err := sparcThread(t, tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got, want := code(th), strings.TrimPrefix(tt.want, "\n"); got != want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", tt.name, got, want)
		}
	}
}

func TestSPARCErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"frob %o1", `t.litmus:1:1: unknown SPARC instruction "frob"`},
		{"ld [x],%o1\nld [x],%o1\n#StoreStore", "t.litmus:3:1: membar mask continued after '|'"},
		{"ld [x],%o1\nldub [x],%o2", "t.litmus:2:6: unsupported SPARC feature: mixed-size accesses to x"},
		{"ba L\nbne L\nL: nop", "t.litmus:2:1: unsupported SPARC feature: branch bne in the delay slot of ba (DCTI couple)"},
		{"nop\nba L", "t.litmus:2:1: ba has no delay slot"},
		{"membar #Lookaside", "t.litmus:1:8: unsupported SPARC feature: membar #Lookaside"},
		{"membar #Foo", `t.litmus:1:8: unknown membar mask "#Foo"`},
		{"ld [o1],%o2", "t.litmus:1:5: register o1 needs '%' in an address"},
		{"mov 1,%q1", `t.litmus:1:7: unknown SPARC register "%q1"`},
		{"ba M\nnop", "t.litmus:1:1: jump to undefined label M"},
		{"st 1,[x]", "t.litmus:1:4: st stores a register"},
		{"ld [x]", "t.litmus:1:1: ld takes 2 operands, found 1"},
	}
	for _, tt := range tests {
		_, err := sparcThread(t, tt.src)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.src, err, tt.want)
		}
	}
}

func TestSPARCRegName(t *testing.T) {
	fe, _ := litmus.Lookup("SPARC")
	for in, want := range map[string]string{
		"o1": "o1", "%O1": "o1", "g0": "g0", "r0": "g0", "r8": "o0", "r31": "i7", "sp": "o6", "fp": "i6", "l7": "l7",
		"o8": "", "r32": "", "x": "", "g": "", "o01": "", "icc": "",
	} {
		got, ok := fe.RegName(in)
		if ok != (want != "") || got != want {
			t.Errorf("RegName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestSPARCVerdicts runs classic shapes under the SPARC models (and sc):
// Ok means the condition's state is reachable.
func TestSPARCVerdicts(t *testing.T) {
	const (
		sb = `SPARC SB%s
{ x=0; y=0; }
 P0          | P1          ;
 mov 1,%%o1  | mov 1,%%o1  ;
 st %%o1,[x] | st %%o1,[y] ;
 %s          | %s          ;
 ld [y],%%o2 | ld [x],%%o2 ;
exists (0:o2=0 /\ 1:o2=0)`
		mp = `SPARC MP%s
{ x=0; y=0; }
 P0          | P1          ;
 mov 1,%%o1  | ld [y],%%o1 ;
 st %%o1,[x] | %s          ;
 %s          | ld [x],%%o2 ;
 st %%o1,[y] |             ;
exists (1:o1=1 /\ 1:o2=0)`
		lb = `SPARC LB%s
{ x=0; y=0; }
 P0          | P1          ;
 ld [x],%%o1 | ld [y],%%o1 ;
 %s          | %s          ;
 mov 1,%%o2  | mov 1,%%o2  ;
 st %%o2,[y] | st %%o2,[x] ;
exists (0:o1=1 /\ 1:o1=1)`
	)
	models := []string{"sc", "tso", "pso", "rmo", "alpha"}
	tests := []struct {
		name string
		src  string
		ok   []bool // per model
	}{
		{"SB", fmt.Sprintf(sb, "", "nop", "nop"), []bool{false, true, true, true, true}},
		{"SB+membar-sl", fmt.Sprintf(sb, "+membars", "membar #StoreLoad", "membar #StoreLoad"), []bool{false, false, false, false, true}},
		{"SB+membar-all", fmt.Sprintf(sb, "+syncs", "membar #Sync", "membar #Sync"), []bool{false, false, false, false, false}},
		{"SB+stbar", fmt.Sprintf(sb, "+stbars", "stbar", "stbar"), []bool{false, true, true, true, true}},
		{"SB+swap", fmt.Sprintf(sb, "+swaps", "swap [z],%o3", "swap [z],%o3"), []bool{false, false, true, true, true}},
		{"MP", fmt.Sprintf(mp, "", "nop", "nop"), []bool{false, false, true, true, true}},
		{"MP+stbar", fmt.Sprintf(mp, "+stbar", "nop", "stbar"), []bool{false, false, false, true, true}},
		{"MP+stbar+membar-ll", fmt.Sprintf(mp, "+stbar+ll", "membar #LoadLoad", "stbar"), []bool{false, false, false, false, true}},
		{"MP+membar-ss+ll", fmt.Sprintf(mp, "+ss+ll", "membar #LoadLoad", "membar #StoreStore"), []bool{false, false, false, false, true}},
		{"LB", fmt.Sprintf(lb, "", "nop", "nop"), []bool{false, false, false, true, true}},
		{"LB+membar-ls", fmt.Sprintf(lb, "+ls", "membar #LoadStore", "membar #LoadStore"), []bool{false, false, false, false, true}},
	}
	loaded := map[string]*cat.Model{}
	for _, m := range models {
		cm, err := cat.LoadBuiltin(m)
		if err != nil {
			t.Fatal(err)
		}
		loaded[m] = cm
	}
	fe, _ := litmus.Lookup("SPARC")
	for _, tt := range tests {
		test, err := litmus.Parse(tt.name+".litmus", []byte(tt.src))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for i, m := range models {
			r := enum.Run(context.Background(), test, loaded[m], m, enum.Options{TagNames: fe.Tags()})
			if r.Status != result.Done {
				t.Fatalf("%s under %s: %v", tt.name, m, r.Err)
			}
			if r.Ok() != tt.ok[i] {
				t.Errorf("%s under %s: Ok = %v, want %v", tt.name, m, r.Ok(), tt.ok[i])
			}
		}
	}
}

// TestSPARCSemantics checks the values the instructions compute, under
// sc: delay slots, annulment, atomics, %g0.
func TestSPARCSemantics(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // the final states
	}{
		{"delay slot runs before the jump, condition taken before it", `SPARC D1
{ x=7; }
 P0             ;
 mov 1,%o1      ;
 brnz %o1,L     ;
 mov 0,%o1      ;
 mov 5,%o2      ;
 L: ld [x],%o3  ;
locations [0:o1; 0:o2; 0:o3;]`, []string{"0;0;7;"}},
		{"annulled branch not taken skips its slot", `SPARC D2
{ }
 P0             ;
 mov 0,%o1      ;
 brnz,a %o1,L   ;
 mov 3,%o2      ;
 mov 4,%o3      ;
 L: nop         ;
locations [0:o2; 0:o3;]`, []string{"0;4;"}},
		{"ba,a annuls, ba does not", `SPARC D3
{ }
 P0             ;
 ba,a L         ;
 mov 3,%o2      ;
 L: ba M        ;
 mov 4,%o3      ;
 M: nop         ;
locations [0:o2; 0:o3;]`, []string{"0;4;"}},
		{"ldstub, swap, cas, g0", `SPARC A1
{ l=0; x=2; y=5; }
 P0                ;
 ldstub [l],%o1    ;
 mov 9,%o2         ;
 swap [x],%o2      ;
 mov 5,%o3         ;
 mov 6,%o4         ;
 cas [y],%o3,%o4   ;
 mov 8,%g0         ;
 add %g0,1,%o5     ;
locations [l; x; y; 0:o1; 0:o2; 0:o4; 0:o5;]`, []string{"0;2;5;1;255;9;6;"}},
	}
	m, err := cat.LoadBuiltin("sc")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		test, err := litmus.Parse(tt.name+".litmus", []byte(tt.src))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		r := enum.Run(context.Background(), test, m, "sc", enum.Options{})
		if r.Status != result.Done {
			t.Fatalf("%s: %v", tt.name, r.Err)
		}
		var got []string
		for _, s := range r.States {
			got = append(got, s.Key())
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: states %v, want %v", tt.name, got, tt.want)
		}
	}
}
