package litmus

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

const x86Corpus = "../../../shared/corpus/litmus/X86"

func corpusFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(x86Corpus, "*.litmus"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("X86 corpus not found at " + x86Corpus)
		}
		t.Skip("X86 corpus not found at " + x86Corpus)
	}
	return files
}

func TestParseCorpus(t *testing.T) {
	files := corpusFiles(t)
	if len(files) != 359 {
		t.Errorf("found %d X86 corpus files, want 359", len(files))
	}
	parsed, generated := 0, 0
	for _, f := range files {
		tst, err := ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		parsed++
		if tst.Arch != "X86" || tst.Name == "" || len(tst.Threads) == 0 || tst.Cond == nil {
			t.Errorf("%s: incomplete test: arch %q name %q %d threads cond %v", f, tst.Arch, tst.Name, len(tst.Threads), tst.Cond)
		}
		for _, th := range tst.Threads {
			if len(th.Pos) != len(th.Code) {
				t.Errorf("%s: %s has %d instructions and %d positions", f, th.Name, len(th.Code), len(th.Pos))
			}
			if _, err := th.Labels(); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
		// The conditions diy writes are herd's own printing: ours must
		// print them back unchanged.
		if _, ok := tst.Meta["Cycle"]; ok {
			generated++
			want := condSource(t, f, tst.Quant)
			if got := spec.FormatCond(tst.Cond); got != want {
				t.Errorf("%s: FormatCond\n got %s\nwant %s", f, got, want)
			}
		}
	}
	t.Logf("parsed %d of %d X86 corpus files (%d with herd-printed conditions checked)", parsed, len(files), generated)
}

// condSource returns the condition of a generated test as written: the
// text after the quantifier on its last line, without the parentheses of
// "exists (...)" when they enclose the whole condition.
func condSource(t *testing.T, file string, q spec.Quant) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")
	last := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[len(lines)-1]), q.String()))
	if strings.HasPrefix(last, "(") && strings.HasSuffix(last, ")") {
		c, err1 := parseCond("", []byte(last), x86Frontend{})
		c2, err2 := parseCond("", []byte(last[1:len(last)-1]), x86Frontend{})
		if err1 == nil && err2 == nil && reflect.DeepEqual(c, c2) {
			last = last[1 : len(last)-1]
		}
	}
	return last
}

func mustParseFile(t *testing.T, name string) *spec.Test {
	t.Helper()
	tst, err := ParseFile(filepath.Join(x86Corpus, name))
	if err != nil {
		t.Fatal(err)
	}
	return tst
}

func codeString(th *prog.Thread) string {
	var s []string
	for _, in := range th.Code {
		s = append(s, prog.InstrString(in))
	}
	return strings.Join(s, "; ")
}

func reg0(th int, name string) spec.Ref { return spec.Ref{Thread: th, Name: name} }
func mem(name string) spec.Ref          { return spec.Ref{Thread: -1, Name: name} }

func atom(r spec.Ref, v int64) spec.Cond { return spec.Atom{Ref: r, Val: prog.IntValue(v)} }

func TestSpotLB(t *testing.T) {
	corpusFiles(t)
	tst := mustParseFile(t, "LB.litmus")
	if tst.Name != "LB" || tst.Doc != "PodRW Rfe PodRW Rfe" || tst.Alias != "" {
		t.Errorf("header: name %q doc %q alias %q", tst.Name, tst.Doc, tst.Alias)
	}
	wantMeta := map[string]string{
		"Cycle": "Rfe PodRW Rfe PodRW", "Relax": "", "Safe": "Rfe PodRW",
		"Prefetch": "0:x=F,0:y=W,1:y=F,1:x=W", "Com": "Rf Rf", "Orig": "PodRW Rfe PodRW Rfe",
	}
	if !reflect.DeepEqual(tst.Meta, wantMeta) {
		t.Errorf("meta = %v, want %v", tst.Meta, wantMeta)
	}
	if len(tst.Init) != 0 || len(tst.Threads) != 2 {
		t.Fatalf("init %v, %d threads", tst.Init, len(tst.Threads))
	}
	if got, want := codeString(tst.Threads[0]), "EAX = load [x]; store [y] 1"; got != want {
		t.Errorf("P0 = %s, want %s", got, want)
	}
	if got, want := codeString(tst.Threads[1]), "EAX = load [y]; store [x] 1"; got != want {
		t.Errorf("P1 = %s, want %s", got, want)
	}
	if th := tst.Threads[1]; th.ID != 1 || th.Name != "P1" || th.Pos[0].Line != 12 || th.Pos[0].Col != 16 {
		t.Errorf("P1: id %d name %s pos %v", th.ID, th.Name, th.Pos[0])
	}
	want := spec.Or{
		L: spec.And{L: atom(reg0(0, "EAX"), 0), R: spec.Or{L: atom(reg0(1, "EAX"), 1), R: atom(reg0(1, "EAX"), 0)}},
		R: spec.And{L: atom(reg0(0, "EAX"), 1), R: atom(reg0(1, "EAX"), 0)},
	}
	if tst.Quant != spec.Forall || !reflect.DeepEqual(tst.Cond, want) {
		t.Errorf("cond = %v %#v", tst.Quant, tst.Cond)
	}
	if got, want := tst.ConditionLine(), `forall (0:EAX=0 /\ (1:EAX=1 \/ 1:EAX=0) \/ 0:EAX=1 /\ 1:EAX=0)`; got != want {
		t.Errorf("ConditionLine = %s, want %s", got, want)
	}
}

func TestSpotAmd5(t *testing.T) {
	corpusFiles(t)
	tst := mustParseFile(t, "amd5.litmus")
	if tst.Name != "amd5" || tst.Alias != "amdFive" ||
		tst.Doc != "Loads may not be reordered with older stores to different locations, with MFENCE" {
		t.Errorf("header: name %q alias %q doc %q", tst.Name, tst.Alias, tst.Doc)
	}
	wantInit := []spec.InitEntry{
		{Ref: mem("x"), Val: prog.IntValue(0), Pos: prog.Pos{File: tst.File, Line: 2, Col: 2}},
		{Ref: mem("y"), Val: prog.IntValue(0), Pos: prog.Pos{File: tst.File, Line: 2, Col: 9}},
	}
	if !reflect.DeepEqual(tst.Init, wantInit) {
		t.Errorf("init = %v, want %v", tst.Init, wantInit)
	}
	if got, want := codeString(tst.Threads[0]), "store [x] 1; fence.MFENCE; EAX = load [y]"; got != want {
		t.Errorf("P0 = %s, want %s", got, want)
	}
	if got, want := codeString(tst.Threads[1]), "store [y] 1; fence.MFENCE; EBX = load [x]"; got != want {
		t.Errorf("P1 = %s, want %s", got, want)
	}
	// "final (...)" with a "with" block and "<< >>" blocks: exists.
	if got, want := tst.ConditionLine(), `exists (0:EAX=0 /\ 1:EBX=0)`; got != want {
		t.Errorf("ConditionLine = %s, want %s", got, want)
	}
}

func TestSpotM12(t *testing.T) {
	corpusFiles(t)
	tst := mustParseFile(t, "m12.litmus")
	if want := []spec.Ref{reg0(1, "EAX"), mem("x")}; !reflect.DeepEqual(tst.Locations, want) {
		t.Errorf("locations = %v, want %v", tst.Locations, want)
	}
	want := spec.And{L: atom(reg0(1, "EAX"), 1), R: atom(mem("x"), 2)}
	if tst.Quant != spec.NotExists || !reflect.DeepEqual(tst.Cond, want) {
		t.Errorf("cond = %v %v", tst.Quant, tst.Cond)
	}
	if got, want := tst.ConditionLine(), `~exists (1:EAX=1 /\ [x]=2)`; got != want {
		t.Errorf("ConditionLine = %s, want %s", got, want)
	}
	if got, want := codeString(tst.Threads[0]), "store [x] 2; store [y] 1"; got != want {
		t.Errorf("P0 = %s, want %s", got, want)
	}
}

func TestSpotXCHG(t *testing.T) {
	corpusFiles(t)
	tst := mustParseFile(t, "n3.litmus")
	if len(tst.Threads) != 4 {
		t.Fatalf("%d threads", len(tst.Threads))
	}
	want := prog.RMW{Dst: "EAX", Addr: prog.Addr("x"), New: prog.Reg{Name: "EAX"}, RTags: []string{"X"}, WTags: []string{"X"}}
	if got := tst.Threads[0].Code; len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("P0 = %v, want %v", codeString(tst.Threads[0]), prog.InstrString(want))
	}
	if got, want := codeString(tst.Threads[3]), "ESI = load [x]; EDI = load [y]; EBP = load [y]"; got != want {
		t.Errorf("P3 = %s, want %s", got, want)
	}
	if e := tst.Init[2]; e.Ref != reg0(0, "EAX") || e.Val != prog.IntValue(1) {
		t.Errorf("init[2] = %v", e)
	}
	tst = mustParseFile(t, "iwp2.8.a.litmus") // "~ exists", lower-case xchg
	if tst.Quant != spec.NotExists || codeString(tst.Threads[1]) != "ECX = rmw.X/.X [y] ECX; EDX = load [x]" {
		t.Errorf("iwp2.8.a: %v %s", tst.Quant, codeString(tst.Threads[1]))
	}
}

func TestSpotRagged(t *testing.T) {
	corpusFiles(t)
	tst := mustParseFile(t, "m34if.litmus") // an empty first cell in P1
	if got, want := codeString(tst.Threads[1]), "store [y] 1; fence.MFENCE; ECX = load [x]"; got != want {
		t.Errorf("m34if P1 = %s, want %s", got, want)
	}
	tst = mustParseFile(t, "frmap.litmus") // rows of empty cells, comments after
	if got, want := codeString(tst.Threads[2]), "store [x] 2"; got != want {
		t.Errorf("frmap P2 = %s, want %s", got, want)
	}
	tst = mustParseFile(t, "test.intel.1.litmus") // a comment before the init, "/" in the name
	if tst.Name != "iwp2.1/amd1" || tst.Alias != "iwp" {
		t.Errorf("test.intel.1: name %q alias %q", tst.Name, tst.Alias)
	}
}

func TestTypedInit(t *testing.T) {
	src := `X86 typed
{ int x=0; uint64_t y; int *p = &x; int 0:EAX=1; 1:ebx=x; P1:ECX=-3; unsigned long z = 0x10
  [w]=2
}
 P0          | P1          ;
 MOV [y],EAX | MOV EDX,[x] ;
exists (0:EAX=1 /\ 1:EDX=0)
`
	tst, err := Parse("typed.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		ref  spec.Ref
		val  prog.Value
		typ  string
		line int
		col  int
	}{
		{mem("x"), prog.IntValue(0), "int", 2, 7},
		{mem("y"), prog.IntValue(0), "uint64_t", 2, 21},
		{mem("p"), prog.AddrValue("x"), "int*", 2, 29},
		{reg0(0, "EAX"), prog.IntValue(1), "int", 2, 41},
		{reg0(1, "EBX"), prog.AddrValue("x"), "", 2, 50},
		{reg0(1, "ECX"), prog.IntValue(-3), "", 2, 59},
		{mem("z"), prog.IntValue(16), "unsigned long", 2, 84},
		{mem("w"), prog.IntValue(2), "", 3, 3},
	}
	if len(tst.Init) != len(want) {
		t.Fatalf("init = %v", tst.Init)
	}
	for i, w := range want {
		e := tst.Init[i]
		if e.Ref != w.ref || e.Val != w.val || e.Type != w.typ || e.Pos.Line != w.line || e.Pos.Col != w.col {
			t.Errorf("init[%d] = %v %v %q %d:%d, want %v %v %q %d:%d", i, e.Ref, e.Val, e.Type, e.Pos.Line, e.Pos.Col,
				w.ref, w.val, w.typ, w.line, w.col)
		}
	}
}

func TestInitForms(t *testing.T) {
	for _, init := range []string{
		"{x=0;y=0}",
		"{x=0;y=0};",
		"{ x = 0; y = 0 }",
		"{\nx=0\ny=0\n}",
		"{\nx=0;\ny=0;\n}",
		"{ x=0; ; y=0; }",
	} {
		src := "X86 t\n" + init + "\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=0)\n"
		tst, err := Parse("t", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", init, err)
			continue
		}
		if len(tst.Init) != 2 || tst.Init[0].Ref != mem("x") || tst.Init[1].Ref != mem("y") {
			t.Errorf("%q: init = %v", init, tst.Init)
		}
	}
}

func TestTrailers(t *testing.T) {
	for _, tc := range []struct {
		trailer string
		line    string
		filter  string
		locs    int
	}{
		{"exists (0:EAX=1)", "exists (0:EAX=1)", "", 0},
		{"exists 0:EAX=1;", "exists (0:EAX=1)", "", 0},
		{"~exists(0:EAX=1)", "~exists (0:EAX=1)", "", 0},
		{"forall (0:EAX=1 \\/ 0:EAX=0)", `forall (0:EAX=1 \/ 0:EAX=0)`, "", 0},
		{"locations [x; 0:EAX]\nfilter 0:EAX=1\nexists x=1", "exists ([x]=1)", "0:EAX=1", 2},
		{"filter ~x=1 exists (true)", "exists (true)", "~x=1", 0},
		{"exists (not (x=1) /\\ false)", `exists (not ([x]=1) /\ false)`, "", 0},
		{"final (x = 1);\nwith\ntso: ~exists;\ncc: exists;\n<< foo >>\n(* c *)", "exists ([x]=1)", "", 0},
		{"locations [x;]", "forall (true)", "", 1},
		{"exists (0:EAX=x /\\ x!=1 /\\ x=[y] /\\ 0:EAX=1:EAX /\\ [x]=2 /\\ x=&y)", `exists (0:EAX=x /\ not ([x]=1) /\ [x]=[y] /\ 0:EAX=1:EAX /\ [x]=2 /\ [x]=y)`, "", 0},
	} {
		src := "X86 t\n{}\n P0 | P1 ;\n MOV EAX,[x] | ;\n" + tc.trailer + "\n"
		tst, err := Parse("t", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", tc.trailer, err)
			continue
		}
		filter := ""
		if tst.Filter != nil {
			filter = spec.FormatCond(tst.Filter)
		}
		if got := tst.ConditionLine(); got != tc.line || filter != tc.filter || len(tst.Locations) != tc.locs {
			t.Errorf("%q: got %q filter %q %d locations, want %q %q %d", tc.trailer, got, filter, len(tst.Locations), tc.line, tc.filter, tc.locs)
		}
	}
}

func TestParseErrors(t *testing.T) {
	const head = "X86 t\n{ x=0; }\n P0 | P1 ;\n"
	for _, tc := range []struct {
		name string
		src  string
		want string
	}{
		{"unknown instruction", head + " FOO EAX | ;\nexists (0:EAX=0)\n",
			`t.litmus:4:2: unknown x86 instruction "FOO"`},
		{"unknown instruction after lock", head + " MOV EAX,$1 | LOCK FROB [x] ;\nexists (0:EAX=0)\n",
			`t.litmus:4:20: LOCK prefix not allowed on FROB`},
		{"bad operand", head + " MOV EAX,[x+] | ;\nexists (0:EAX=0)\n",
			`t.litmus:4:10: bad x86 operand "[x+]"`},
		{"two memory operands", head + " MOV [y],[x] | ;\nexists (0:EAX=0)\n",
			`t.litmus:4:10: MOV cannot take two memory operands`},
		{"lock mov", head + " LOCK MOV [x],1 | ;\nexists (0:EAX=0)\n",
			`t.litmus:4:7: LOCK prefix not allowed on MOV`},
		{"undefined label", head + " JMP L9 | ;\nexists (0:EAX=0)\n",
			`t.litmus:4:2: jump to undefined label L9`},
		{"wrong arity", head + " MFENCE EAX | ;\nexists (0:EAX=0)\n",
			`t.litmus:4:2: MFENCE takes 0 operands, found 1`},
		{"bad condition", head + " MOV EAX,[x] | ;\nexists (0:EAX=)\n",
			`t.litmus:5:15: expected a value after '=', found ')'`},
		{"bad condition operator", head + " MOV EAX,[x] | ;\nexists (0:EAX=1 /\\ )\n",
			`t.litmus:5:20: expected a register or a location, found ')'`},
		{"unclosed condition", head + " MOV EAX,[x] | ;\nexists (0:EAX=1\n",
			`t.litmus:6:1: expected ')' to close the condition, found end of file`},
		{"unterminated comment", head + " MOV EAX,[x] | ;\n(* oops\nexists (0:EAX=1)\n",
			`t.litmus:5:1: comment not terminated`},
		{"missing semicolon", head + " MOV EAX,[x] | MOV [x],1\nexists (0:EAX=1)\n",
			`t.litmus:4:25: missing ';' at the end of the row`},
		{"missing semicolon in names", "X86 t\n{}\n P0 | P1\n MOV EAX,[x] | ;\nexists (0:EAX=1)\n",
			`t.litmus:3:9: missing ';' at the end of the thread names`},
		{"unknown arch", "Z80 t\n{}\n P0 ;\n LD A,(x) ;\nexists (0:A=1)\n",
			`t.litmus:1:1: unsupported architecture Z80`},
		{"duplicate init", "X86 t\n{ x=0; 0:EAX=1;\n x=1; }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=1)\n",
			`t.litmus:3:2: duplicate initial value for x (first at 2:3)`},
		{"duplicate init register case", "X86 t\n{ 0:EAX=1; 0:eax=2 }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=1)\n",
			`t.litmus:2:12: duplicate initial value for 0:EAX (first at 2:3)`},
		{"missing init", "X86 t\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=1)\n",
			`t.litmus:2:2: expected '{' to start the initial state, found "P0"`},
		{"eof in header", "X86 t\n\"doc\"\n", `t.litmus:3:1: expected '{' to start the initial state`},
		{"unclosed init", "X86 t\n{ x=0;\n",
			`t.litmus:3:1: initial state not terminated: missing '}'`},
		{"bad init value", "X86 t\n{ x=(1) }\n P0 ;\n NOP ;\nexists (x=1)\n",
			`t.litmus:2:5: expected an integer or an address as initial value, found '('`},
		{"instruction value", "PPC t\n{ 0:r1=instr:nop; }\n P0 ;\n nop ;\nexists (x=1)\n",
			`t.litmus:2:13: expected an instruction in quotes after instr:`},
		{"instruction value in the condition", "PPC t\n{ 0:r1=instr:\"nop\"; }\n P0 ;\n nop ;\nexists (0:r1=instr:nop)\n",
			`t.litmus:5:20: expected string (an instruction in quotes) after instr:, found "nop"`},
		{"label value in memory", "ARM t\n{ x=P0:foo; }\n P0 ;\n BX R0 ;\n foo: ;\nforall (0:R1=0)\n",
			`t.litmus:2:5: unsupported initial value: code labels as values (P0:foo) are not supported`},
		{"label value observed", "ARM t\n{ 0:R0=P0:foo; }\n P0 ;\n BX R0 ;\n foo: ;\nforall (0:R0=0)\n",
			`t.litmus:2:8: unsupported test: the final value of 0:R0, the code label P0:foo, is observed (code labels are supported only as the target of a jump through a register)`},
		{"symbolic register", "X86 t\n{ %P0_x=x; }\n P0 ;\n NOP ;\nexists (x=1)\n",
			`t.litmus:2:3: unsupported register: herd7's symbolic registers (%name) are supported in AArch64, ARM, MIPS and PPC tests only`},
		{"element of no array", "AArch64 t\n{ 0:X0=y[1]; }\n P0 ;\n NOP ;\nexists (x=1)\n",
			`t.litmus:2:8: y is not an array of the initial state`},
		{"element out of the array", "AArch64 t\n{ int a[2]; 0:X0=a[2]; }\n P0 ;\n NOP ;\nexists (x=1)\n",
			`t.litmus:2:18: array a has 2 cells: no cell 2`},
		{"element of an array of pointers", "AArch64 t\n{ int* a[2]; 0:X0=a[1]; }\n P0 ;\n NOP ;\nexists (x=1)\n",
			`t.litmus:2:19: unsupported initial value: element of array a of type int*, whose size is not known`},
		{"element in an array's values", "AArch64 t\n{ int a[2]; int64_t b[1] = {a[1]}; }\n P0 ;\n NOP ;\nexists (x=1)\n",
			`t.litmus:2:29: unsupported initial value: an array element's address (a[1]) in the values of an array`},
		{"element in PPC", "PPC t\n{ int a[2]; 0:r1=a[1]; }\n P0 ;\n nop ;\nexists (x=1)\n",
			`t.litmus:2:18: unsupported initial value: array elements as addresses (a[1]) are supported in AArch64, ARM, RISC-V and X86_64 tests only`},
		{"unknown register", head + " MOV EAX,[x] | ;\nexists (0:EZX=1)\n",
			`t.litmus:5:11: unknown X86 register "EZX" of thread P0`},
		{"missing thread", head + " MOV EAX,[x] | ;\nexists (2:EAX=1)\n",
			`t.litmus:5:9: thread 2 does not exist (the test has 2)`},
		{"bad thread names", "X86 t\n{}\n P1 | P0 ;\n NOP | NOP ;\nexists (x=1)\n",
			`t.litmus:3:2: expected thread name P0, found "P1"`},
		{"too many columns", head + " NOP | NOP | NOP ;\nexists (x=1)\n",
			`t.litmus:4:14: row has more columns than the 2 threads`},
		{"junk after condition", head + " NOP | ;\nexists (x=1)\nfoo\n",
			`t.litmus:6:1: unexpected "foo" after the final condition`},
		{"missing quantifier", head + " NOP | ;\n(x=1)\n",
			`t.litmus:5:6: missing ';' at the end of the row`},
		{"bad quantifier", head + " NOP | ;\nlocations [x]\n(x=1)\n",
			`t.litmus:6:1: expected the final condition (exists, ~exists or forall), found '('`},
		{"not litmus: text", "Qf some words\nno threads here\n", `t.litmus:1:1: not a litmus test: "Qf" is no architecture and no thread P0 follows`},
		{"not litmus: cub", "type loc = A | B\nvar X : loc\ninit (z) { X = A }\n", `t.litmus:1:1: not a litmus test: "type" is no architecture and no thread P0 follows`},
		{"empty", "", `t.litmus:1:1: not a litmus test: expected the architecture name at the start of the test`},
		{"no name", "X86\n{}\n", `t.litmus:1:4: missing test name after X86`},
		{"bad header", "X86 t\n\"doc\" ? \n{}\n", `t.litmus:2:7: unexpected '?' in the header`},
		{"unterminated block", head + " NOP | ;\nexists (x=1)\n<< foo\n",
			`t.litmus:6:1: '<<' block not terminated`},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		if err == nil {
			t.Errorf("%s: no error, want %s", tc.name, tc.want)
			continue
		}
		first := strings.SplitN(err.Error(), "\n", 2)[0]
		if first != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, err, tc.want)
		}
		var list source.ErrorList
		if !errors.As(err, &list) || len(list) == 0 || list[0].Pos.Line == 0 {
			t.Errorf("%s: error %T %v is not a positioned source.ErrorList", tc.name, err, err)
		}
	}
}

func TestErrorListCollectsThreads(t *testing.T) {
	src := "X86 t\n{}\n P0 | P1 ;\n FOO | BAR ;\n MOV [x],[y] | NOP ;\nexists (x=1)\n"
	_, err := Parse("t", []byte(src))
	want := "t:4:2: unknown x86 instruction \"FOO\"\n" +
		"t:4:8: unknown x86 instruction \"BAR\"\n" +
		"t:5:10: MOV cannot take two memory operands"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestLookup(t *testing.T) {
	for _, a := range []string{"X86", "x86"} {
		fe, err := Lookup(a)
		if err != nil || fe.Arch() != "X86" {
			t.Errorf("Lookup(%q) = %v, %v", a, fe, err)
		}
	}
	if _, err := Lookup("PPC7"); err == nil || err.Error() != "unsupported architecture PPC7" {
		t.Errorf("Lookup(PPC7) error = %v", err)
	}
	fe, _ := Lookup("X86")
	if got := fe.Tags(); !reflect.DeepEqual(got, []string{"MFENCE", "LFENCE", "SFENCE", "X"}) {
		t.Errorf("Tags = %v", got)
	}
	found := false
	for _, a := range Archs() {
		found = found || a == "X86"
	}
	if !found {
		t.Errorf("Archs() = %v lacks X86", Archs())
	}
}

func TestCRLFAndBOM(t *testing.T) {
	corpusFiles(t)
	src, err := os.ReadFile(filepath.Join(x86Corpus, "amd5.litmus"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Parse("t", src)
	crlf := append([]byte{0xEF, 0xBB, 0xBF}, bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))...)
	got, err := Parse("t", crlf)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != want.Name || got.Doc != want.Doc || got.ConditionLine() != want.ConditionLine() ||
		codeString(got.Threads[1]) != codeString(want.Threads[1]) {
		t.Errorf("CRLF: got %s %q %s %s", got.Name, got.Doc, got.ConditionLine(), codeString(got.Threads[1]))
	}
}
