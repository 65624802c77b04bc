package litmus

import (
	"reflect"
	"testing"
)

// TestHeaderLines: herd7 skips whatever stands between the name line and
// the '{' of the initial state (diy's cycle line, free text), keeps
// key=value lines, and reads a description over several lines.
func TestHeaderLines(t *testing.T) {
	const body = "{ 0:EAX=0; }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=0)\n"
	for _, tc := range []struct {
		name, head string
		doc        string
		meta       map[string]string
	}{
		{"diy lines", "X86 A\n\"Fre PodWR Fre PodWR\"\nCycle=Fre PodWR Fre PodWR\nRelax=\nSafe=Fre PodWR\n" +
			"Generator=diy7 (version 7.56)\nPrefetch=0:x=F,0:y=T\nCom=Fr Fr\nOrig=PodWR Fre PodWR Fre\n",
			"Fre PodWR Fre PodWR",
			map[string]string{"Cycle": "Fre PodWR Fre PodWR", "Relax": "", "Safe": "Fre PodWR",
				"Generator": "diy7 (version 7.56)", "Prefetch": "0:x=F,0:y=T", "Com": "Fr Fr", "Orig": "PodWR Fre PodWR Fre"}},
		{"free text", "X86 A\nThis test was written by hand.\n  Another line: see the paper, p. 3\n# and one more\n",
			"", map[string]string{}},
		{"free text then key", "X86 A\nsome words here\nMode=sc\n", "", map[string]string{"Mode": "sc"}},
		{"multi-line doc", "X86 A\n\"A description\nover three\nlines\"\nHash=abc\n",
			"A description\nover three\nlines", map[string]string{"Hash": "abc"}},
		{"doc on the name line", "X86 A \"short\"\n", "short", map[string]string{}},
		{"free text up to the brace", "X86 A\nfree text ", "", map[string]string{}},
	} {
		tst, err := Parse("t.litmus", []byte(tc.head+body))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if tst.Name != "A" || tst.Doc != tc.doc || !reflect.DeepEqual(tst.Meta, tc.meta) {
			t.Errorf("%s: name %q doc %q meta %v, want doc %q meta %v", tc.name, tst.Name, tst.Doc, tst.Meta, tc.doc, tc.meta)
		}
		if len(tst.Threads) != 1 || len(tst.Init) != 1 {
			t.Errorf("%s: %d threads, init %v", tc.name, len(tst.Threads), tst.Init)
		}
	}
}

// TestHeaderErrors: skipping free text keeps the errors a missing
// initial state or an unterminated description deserve.
func TestHeaderErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"missing init after free text", "X86 t\nfree text\n P0 ;\n NOP ;\nexists (x=1)\n",
			`t.litmus:3:2: expected '{' to start the initial state, found "P0"`},
		{"unterminated doc", "X86 t\n\"doc\nmore\n", `t.litmus:2:1: string not terminated`},
		{"free text to eof", "X86 t\nfree text\n", `t.litmus:3:1: expected '{' to start the initial state`},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
	}
}
