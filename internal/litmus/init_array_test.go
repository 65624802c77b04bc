package litmus

import (
	"strings"
	"testing"
)

// TestInitArrays: an array of a C test is one location per cell (a,
// a+1, ...), with its initial values, herd7's "int a[2] = {1,2};" or
// the type left out; "*(&a)" is the address of a; a[i] in the code is
// *(a+i) and in the condition the cell a[i].
func TestInitArrays(t *testing.T) {
	src := `C t
{
int a[3] = {1, -2, 0x3};
b[2] = {&x, *(&a)};
int c[2];
p = *(&b);
}
P0(int *a) { int r0 = READ_ONCE(a[2]); WRITE_ONCE(*(a + 1), r0); }
exists (a[1]=3 /\ 0:r0=3)
`
	lt, err := Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range lt.Init {
		got = append(got, e.Ref.Name+"="+e.Val.String()+":"+e.Type)
	}
	want := "a=1:int[3] a+1=-2:int a+2=3:int b=x:[2] b+1=a: c=0:int[2] c+1=0:int p=b:"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("init\n got %s\nwant %s", s, want)
	}
	if got, want := lt.ConditionLine(), `exists (a[1]=3 /\ 0:r0=3)`; got != want {
		t.Errorf("condition %s, want %s", got, want)
	}
	if got, want := cCode(lt), "%t1 = load.ONCE [(a + 2)]; r0 = %t1; store.ONCE [(a + 1)] r0"; got != want {
		t.Errorf("code\n got %s\nwant %s", got, want)
	}
}

func TestInitArrayErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"too few values", "C t\n{ int a[3] = {1,2}; }\nP0(int *a) {}\nexists (a[0]=1)", `t.litmus:2:14: array a has 3 cells and 2 initial values`},
		{"missing value", "C t\n{ int a[2] = {1,}; }\nP0(int *a) {}\nexists (a[0]=1)", `t.litmus:2:17: missing value in the values of array a`},
		{"no braces", "C t\n{ int a[2] = 1; }\nP0(int *a) {}\nexists (a[0]=1)", `t.litmus:2:14: expected the values of array a in braces: {v0, v1, ...}`},
		{"bad value", "C t\n{ int a[2] = {1,(2)}; }\nP0(int *a) {}\nexists (a[0]=1)", `t.litmus:2:17: expected an integer or an address as initial value, found '('`},
		{"array values outside C", "X86 t\n{ int a[2] = {1,2}; }\n P0 ;\n MOV EAX,[a] ;\nexists (0:EAX=1)", `t.litmus:2:14: initial values of arrays are supported in C, AArch64, ARM, RISC-V and X86_64 tests only`},
		{"cell outside C", "X86 t\n{ }\n P0 ;\n MOV EAX,[a] ;\nexists (a[1]=1)", `t.litmus:5:10: array cells in the condition are supported in C, AArch64, RISC-V and X86_64 tests only`},
		{"cell given a scalar", "C t\n{ int a[2] = {1,2}; a[1] = 3; }\nP0(int *a) {}\nexists (a[0]=1)", `t.litmus:2:28: expected the values of array a in braces: {v0, v1, ...}`},
		{"duplicate array", "C t\n{ int a[2] = {1,2}; a[1] = {3}; }\nP0(int *a) {}\nexists (a[0]=1)", `t.litmus:2:21: duplicate initial value for a (first at 2:7)`},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
	}
}

// A constant of 64 unsigned bits is the signed value with the same bits,
// as herd reads it (uint64_t's -1); one more bit is still an error.
func TestUnsignedConstants(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int64
		ok   bool
	}{
		{"0xffffffffffffffff", -1, true},
		{"18446744073709551615", -1, true},
		{"0x8000000000000000", -1 << 63, true},
		{"0x10000000000000000", 0, false},
	} {
		got, err := parseInt(tc.s, false)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("parseInt(%s) = %d, %v; want %d", tc.s, got, err, tc.want)
		}
	}
}
