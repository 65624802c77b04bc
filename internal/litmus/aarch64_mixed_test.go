package litmus

import (
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"slices"
	"strings"
	"testing"
)

// TestAArch64Sizes checks the access size the translation records.
func TestAArch64Sizes(t *testing.T) {
	for _, tc := range []struct {
		src  string
		size int
	}{
		{"LDR W0,[X1]", 4}, {"LDR X0,[X1]", 8}, {"STR W0,[X1,#4]", 4}, {"STR X0,[X1]", 8},
		{"LDRB W0,[X1]", 1}, {"STRB W0,[X1,#1]", 1}, {"LDRH W0,[X1]", 2}, {"STRH W0,[X1,W2,SXTW]", 2},
		{"LDARB W0,[X1]", 1}, {"STLRH W0,[X1]", 2}, {"LDAR X0,[X1]", 8}, {"STLR W0,[X1]", 4},
		{"LDXR X0,[X1]", 8}, {"STXR W2,W0,[X1]", 4}, {"STXR W2,X0,[X1]", 8},
		{"SWPALB W0,W1,[X1]", 1}, {"SWP X0,X1,[X1]", 8}, {"LDADDH W0,W1,[X1]", 2}, {"CASB W0,W1,[X1]", 1},
	} {
		th, err := a64Frontend{}.Thread(0, []Cell{{Text: tc.src}})
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		// CAS's selection of its compare register follows the access
		// (aarch64_pick.go): no access, size 0.
		if len(th.Sizes) == 0 || th.Sizes[0] != tc.size || slices.ContainsFunc(th.Sizes[1:], func(s int) bool { return s != 0 }) {
			t.Errorf("%s: sizes %v, want [%d]", tc.src, th.Sizes, tc.size)
		}
	}
}

// TestAArch64Lowering checks the chunks of mixed-size tests, the per-chunk
// code, the initial values and the condition.
func TestAArch64Lowering(t *testing.T) {
	for _, tc := range []struct {
		name, init, code, cond         string
		chunks, p0, initVals, wantCond string
	}{
		{
			name: "a 32-bit store into the upper half, a 64-bit load",
			init: "uint64_t x; 0:X1=x; 0:X2=0x0102030405060708;", code: "STR W2,[X1,#4] ; LDR X3,[X1]", cond: "x=0x0506070800000000",
			chunks:   "x:x@0/4,x+4@4/4",
			p0:       "store [(X1 + 4)] (X2 % 4294967296); %chunk0 = load [X1]; + %chunk1 = load [(X1 + 4)]; X3 = (%chunk0 + (%chunk1 * 4294967296))",
			initVals: "x=0 x+4=0", wantCond: "x=0 /\\ x[4]=84281096",
		},
		{
			name: "a 64-bit store over two 32-bit chunks, initial value split",
			init: "uint64_t x = 0x100000002; 0:X1=x;", code: "STR X2,[X1] ; LDR W3,[X1]", cond: "~x=0x300000004",
			chunks:   "x:x@0/4,x+4@4/4",
			p0:       "store [X1] (X2 % 4294967296); + store [(X1 + 4)] ((X2 / 4294967296) % 4294967296); X3 = load [X1]",
			initVals: "x=2 x+4=1", wantCond: "~(x=4 /\\ x[4]=3)",
		},
		{
			name: "bytes and half-words in an untyped location (an int)",
			init: "0:X1=x;", code: "STRB W0,[X1,#1] ; LDRH W2,[X1]", cond: "x=0x100",
			chunks:   "x:x@0/1,x+1@1/1,x+2@2/2",
			p0:       "store [(X1 + 1)] (X0 % 256); %chunk0 = load [X1]; + %chunk1 = load [(X1 + 1)]; X2 = (%chunk0 + (%chunk1 * 256))",
			initVals: "x=0 x+1=0 x+2=0", wantCond: "x=0 /\\ x[1]=1 /\\ x[2]=0",
		},
		{
			name: "a 64-bit swap over two 32-bit chunks: a swap per chunk, one access",
			init: "uint64_t x; 0:X1=x;", code: "STR W0,[X1,#4] ; SWP X0,X2,[X1]", cond: "0:X2=0",
			chunks:   "x:x@0/4,x+4@4/4",
			p0:       "store [(X1 + 4)] (X0 % 4294967296); %chunk0 = rmw.X/.X [X1] (X0 % 4294967296); + %chunk1 = rmw.X/.X [(X1 + 4)] ((X0 / 4294967296) % 4294967296); X2 = (%chunk0 + (%chunk1 * 4294967296))",
			initVals: "x=0 x+4=0", wantCond: "0:X2=0",
		},
		{
			name: "a 64-bit exclusive pair over two 32-bit chunks: parts that succeed together",
			init: "uint64_t x; 0:X1=x;", code: "STR W0,[X1,#4] ; LDXR X2,[X1] ; STXR W3,X2,[X1]", cond: "0:X3=0",
			chunks:   "x:x@0/4,x+4@4/4",
			p0:       "store [(X1 + 4)] (X0 % 4294967296); %chunk0 = load.EX [X1]; + %chunk1 = load.EX [(X1 + 4)]; X2 = (%chunk0 + (%chunk1 * 4294967296)); X3 = storecond.EX [X1] (X2 % 4294967296); +  = storecond.EX [(X1 + 4)] ((X2 / 4294967296) % 4294967296)",
			initVals: "x=0 x+4=0", wantCond: "0:X3=0",
		},
		{
			name: "a false address dependency keeps a static offset",
			init: "uint64_t x; 0:X1=x;", code: "LDR W0,[X1] ; EOR W2,W0,W0 ; ADD W2,W2,#4 ; LDR W3,[X1,W2,SXTW]", cond: "0:X3=0",
			chunks:   "x:x@0/4,x+4@4/4",
			p0:       "X0 = load [X1]; X2 = (X0 ^ X0); X2 = (X2 + 4); X3 = load [(X1 + X2)]",
			initVals: "x=0 x+4=0", wantCond: "0:X3=0",
		},
		{
			name: "a misaligned half-word: one access, a chunk at an odd offset",
			init: "0:X1=x;", code: "STRH W0,[X1,#1] ; LDR W2,[X1]", cond: "x=0x1100",
			chunks:   "x:x@0/1,x+1@1/2,x+3@3/1",
			p0:       "store [(X1 + 1)] (X0 % 65536); %chunk0 = load [X1]; + %chunk1 = load [(X1 + 1)]; + %chunk2 = load [(X1 + 3)]; X2 = ((%chunk0 + (%chunk1 * 256)) + (%chunk2 * 16777216))",
			initVals: "x=0 x+1=0 x+3=0", wantCond: "x=0 /\\ x[1]=17 /\\ x[3]=0",
		},
		{
			name: "an array of bytes: chunks where accesses fall, none for the cells never accessed",
			init: "uint8_t x[128]; 0:X1=x;", code: "STRH W0,[X1,#63] ; LDRB W2,[X1,#64]", cond: "0:X2=0",
			chunks:   "x:x+63@63/1,x+64@64/1",
			p0:       "store [(X1 + 63)] (X0 % 256); + store [((X1 + 63) + 1)] ((X0 / 256) % 256); X2 = load [(X1 + 64)]",
			initVals: "x+63=0 x+64=0", wantCond: "0:X2=0",
		},
		{
			name: "an index read from memory: the location in chunks of the grain every offset keeps",
			init: "uint16_t x; 0:X1=x;", code: "LDRH W0,[X1] ; AND W3,W0,#1 ; STRB W0,[X1,W3,SXTW]", cond: "x=0x0101",
			chunks:   "x:x@0/1,x+1@1/1",
			p0:       "%chunk0 = load [X1]; + %chunk1 = load [(X1 + 1)]; X0 = (%chunk0 + (%chunk1 * 256)); X3 = (X0 & 1); store [(X1 + X3)] (X0 % 256)",
			initVals: "x=0 x+1=0", wantCond: "x=1 /\\ x[1]=1",
		},
		{
			name: "an index that can only be 0 within the location keeps the chunks of the other accesses",
			init: "uint64_t x; 0:X1=x;", code: "STR W0,[X1,#4] ; LDR W2,[X1] ; AND W3,W2,#128 ; LDR X4,[X1,W3,SXTW]", cond: "0:X4=0",
			chunks:   "x:x@0/4,x+4@4/4",
			p0:       "store [(X1 + 4)] (X0 % 4294967296); X2 = load [X1]; X3 = (X2 & 128); %chunk0 = load [(X1 + X3)]; + %chunk1 = load [((X1 + X3) + 4)]; X4 = (%chunk0 + (%chunk1 * 4294967296))",
			initVals: "x=0 x+4=0", wantCond: "0:X4=0",
		},
		{
			name: "an untyped location is as large as an access at a computed offset needs at offset 0",
			init: "0:X1=x;", code: "LDRH W0,[X1,#2] ; AND W3,W0,#128 ; LDR X4,[X1,W3,SXTW]", cond: "0:X4=0",
			chunks:   "x:x@0/2,x+2@2/2,x+4@4/2,x+6@6/2",
			p0:       "X0 = load [(X1 + 2)]; X3 = (X0 & 128); %chunk0 = load [(X1 + X3)]; + %chunk1 = load [((X1 + X3) + 2)]; + %chunk2 = load [((X1 + X3) + 4)]; + %chunk3 = load [((X1 + X3) + 6)]; X4 = (((%chunk0 + (%chunk1 * 65536)) + (%chunk2 * 4294967296)) + (%chunk3 * 281474976710656))",
			initVals: "x=0 x+2=0 x+4=0 x+6=0", wantCond: "0:X4=0",
		},
	} {
		src := fmt.Sprintf("AArch64 T\n{\n%s\n}\n P0 ;\n %s ;\nexists (%s)\n", tc.init, strings.ReplaceAll(tc.code, " ; ", " ;\n "), tc.cond)
		tst, err := Parse("t.litmus", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !tst.Mixed {
			t.Errorf("%s: not lowered", tc.name)
		}
		var cs []string
		for _, c := range tst.Chunks["x"] {
			cs = append(cs, fmt.Sprintf("%s@%d/%d", c.Loc, c.Off, c.Size))
		}
		if got := "x:" + strings.Join(cs, ","); got != tc.chunks {
			t.Errorf("%s: chunks %s, want %s", tc.name, got, tc.chunks)
		}
		if got := codeString(tst.Threads[0]); got != tc.p0 {
			t.Errorf("%s: P0\n got %s\nwant %s", tc.name, got, tc.p0)
		}
		var iv []string
		for _, e := range tst.Init {
			if !e.Ref.IsReg() {
				iv = append(iv, e.Ref.Name+"="+e.Val.String())
			}
		}
		if got := strings.Join(iv, " "); got != tc.initVals {
			t.Errorf("%s: initial values %s, want %s", tc.name, got, tc.initVals)
		}
		if got := spec.FormatCond(tst.Cond); got != tc.wantCond {
			t.Errorf("%s: condition %s, want %s", tc.name, got, tc.wantCond)
		}
	}
}

// TestAArch64NotMixed checks that a test without sizes stays whole.
func TestAArch64NotMixed(t *testing.T) {
	src := "AArch64 T\n{\n0:X1=x; 0:X2=x;\n}\n P0 ;\n STR W0,[X1] ;\n LDR X3,[X2] ;\nexists (x=1)\n"
	tst, err := Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if tst.Mixed || codeString(tst.Threads[0]) != "store [X1] X0; X3 = load [X2]" || spec.FormatCond(tst.Cond) != "x=1" {
		t.Errorf("lowered: %s, %s", codeString(tst.Threads[0]), spec.FormatCond(tst.Cond))
	}
}

// TestAArch64MixedUnsupported checks what the lowering refuses, by name.
func TestAArch64MixedUnsupported(t *testing.T) {
	for _, tc := range []struct{ init, code, want string }{
		{"uint64_t x; 0:X1=x;", "LDR X0,[X1] ; LDR W2,[X0]", "not known before running and is not an offset from a location"},
		{"uint8_t x[128]; 0:X1=x;", "LDRB W0,[X1] ; LDRB W2,[X1,W0,SXTW]", "location x has 128 bytes and an access reaches it at an offset computed at run time: 128 chunks of 1 bytes (at most 64)"},
		{"void *x[4]; 0:X1=x;", "LDRB W0,[X1,#3]", "location x is an array of void*[4]"},
		{"uint64_t x; 0:X1=x;", "STR W0,[X1,#4] ; LDADD X0,X2,[X1]", "atomic read-modify-write of 8 bytes over 2 chunks of x (only a swap"},
		{"uint32_t x; 0:X1=x;", "STR X0,[X1]", "access to bytes 0..7 of x, which has 4"},
	} {
		src := fmt.Sprintf("AArch64 T\n{\n%s\n}\n P0 ;\n %s ;\nexists (0:X0=0)\n", tc.init, strings.ReplaceAll(tc.code, " ; ", " ;\n "))
		_, err := Parse("t.litmus", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.code, err, tc.want)
		}
	}
}
