package herdhash

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/randtext"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// The regular expressions the hand-written matchers of match.go stand
// for; TestMatchers checks that each matcher returns what its expression
// returns.
var (
	reLabelDef      = regexp.MustCompile(`^([A-Za-z_][\w.]*)\s*:\s*`)
	reMem           = regexp.MustCompile(`^(-?\w*)\((\w+)\)$`)
	reCProcHead     = regexp.MustCompile(`^(?:static\s+)?(?:void\s+)?P(\d+)\s*\(`)
	reAtomicInit    = regexp.MustCompile(`^ATOMIC_INIT\s*\(\s*(.*?)\s*\)$`)
	reTypedLoc      = regexp.MustCompile(`^(.*?)\s*(\*?)\s*((?:P?\d+\s*:\s*)?[A-Za-z_%\[][\w.\]]*)\s*(?:\[\s*(\d+)\s*\])?$`)
	reLocationsList = regexp.MustCompile(`(?s)locations\s*\[(.*?)\]`)
	reFilterWord    = regexp.MustCompile(`\bfilter\b`)
	reCondKeyword   = regexp.MustCompile(`\b(exists|forall|final|observed)\b`)
	reAtom          = regexp.MustCompile(`((?:P?\d+\s*:\s*)?\[?[A-Za-z_%][\w.]*\]?(?:\[\d+\])?)\s*(?:==|!=|=)\s*(-?[\w.&:\[\]]+)`)
	reFault         = regexp.MustCompile(`fault\s*\(\s*P?\d+(?::\w+)?\s*,\s*([A-Za-z_]\w*)`)
	reRegRHS        = regexp.MustCompile(`^P?\d+:`)
	reIndexedName   = regexp.MustCompile(`^(\w+)\[(\d+)\]$`)
)

// checkMatchers compares every matcher with its expression on s.
func checkMatchers(t *testing.T, s string) {
	t.Helper()
	fail := func(what string, got, want any) {
		t.Helper()
		t.Errorf("%s(%q): got %q, the expression gives %q", what, s, got, want)
	}
	{
		var want []string
		if m := reLabelDef.FindStringSubmatch(s); m != nil {
			want = []string{m[1], m[0]}
		}
		var got []string
		if l, end, ok := matchLabelDef(s); ok {
			got = []string{l, s[:end]}
		}
		if !slices.Equal(got, want) {
			fail("matchLabelDef", got, want)
		}
	}
	{
		want := reMem.FindStringSubmatch(s)
		var got []string
		if d, r, ok := matchMem(s); ok {
			got = []string{s, d, r}
		}
		if !slices.Equal(got, want) {
			fail("matchMem", got, want)
		}
	}
	{
		var want []string
		if m := reCProcHead.FindStringSubmatchIndex(s); m != nil {
			want = []string{s[m[2]:m[3]], s[:m[1]]}
		}
		var got []string
		if p, end, ok := matchCProcHead(s); ok {
			got = []string{p, s[:end]}
		}
		if !slices.Equal(got, want) {
			fail("matchCProcHead", got, want)
		}
	}
	{
		var want []string
		if m := reAtomicInit.FindStringSubmatch(s); m != nil {
			want = m[1:]
		}
		var got []string
		if v, ok := matchAtomicInit(s); ok {
			got = []string{v}
		}
		if !slices.Equal(got, want) {
			fail("matchAtomicInit", got, want)
		}
	}
	{
		var want []string
		if m := reTypedLoc.FindStringSubmatch(s); m != nil {
			want = m[1:]
		}
		var got []string
		if ty, star, name, size, ok := matchTypedLoc(s); ok {
			got = []string{ty, star, name, size}
		}
		if !slices.Equal(got, want) {
			fail("matchTypedLoc", got, want)
		}
	}
	{
		want := reLocationsList.FindStringSubmatch(s)
		var got []string
		if whole, items, ok := matchLocationsList(s); ok {
			got = []string{whole, items}
		}
		if !slices.Equal(got, want) {
			fail("matchLocationsList", got, want)
		}
	}
	{
		want := -1
		if m := reFilterWord.FindStringIndex(s); m != nil {
			want = m[0]
		}
		if got := indexWord(s, "filter"); got != want {
			fail("indexWord", got, want)
		}
		want = -1
		if m := reCondKeyword.FindStringIndex(s); m != nil {
			want = m[0]
		}
		if got := indexCondKeyword(s); got != want {
			fail("indexCondKeyword", got, want)
		}
	}
	{
		var want, got []string
		for _, m := range reAtom.FindAllStringSubmatch(s, -1) {
			want = append(want, m[1], m[2])
		}
		for _, a := range allAtoms(s) {
			got = append(got, a[0], a[1])
		}
		if !slices.Equal(got, want) {
			fail("allAtoms", got, want)
		}
	}
	{
		var want []string
		for _, m := range reFault.FindAllStringSubmatch(s, -1) {
			want = append(want, m[1])
		}
		if got := allFaults(s); !slices.Equal(got, want) {
			fail("allFaults", got, want)
		}
	}
	if got, want := isRegRHS(s), reRegRHS.MatchString(s); got != want {
		fail("isRegRHS", got, want)
	}
	{
		var want []string
		if m := reIndexedName.FindStringSubmatch(s); m != nil {
			want = m[1:]
		}
		var got []string
		if n, i, ok := matchIndexedName(s); ok {
			got = []string{n, i}
		}
		if !slices.Equal(got, want) {
			fail("matchIndexedName", got, want)
		}
	}
}

func TestMatchers(t *testing.T) {
	for _, s := range []string{
		"", "L0:", "L0 : mov", "_a.b:c", "0(r2)", "-8(x5)", "(x6)", "8(x6", "-(r1)", "a(b)c",
		"P0(int* x)", "static void P12 (atomic_int* y)", "void P1(", "staticP0(", "static  P3\t(", "voidP0(",
		"ATOMIC_INIT(3)", "ATOMIC_INIT ( 0 )", "ATOMIC_INIT()", "ATOMIC_INIT( a\nb )", "ATOMIC_INIT(\n x \n)", "ATOMIC_INIT(",
		"int x", "uint8_t *y", "int  x[2]", "int x [ 3 ]", "atomic_int* z", "_Atomic int x", "P0:r1", "0 : EAX", "int 1:r0",
		"int *P1:r2", "[x]", "int x[]", "int\n x", "a\nb c", "x[2]", "int x[2] y", "int * * x", "%r1",
		"locations [x; y;] exists (x=1)", "locations[x] locations [y]", "locations [x", "mylocations [a;]",
		"filter (x=1) exists (y=2)", "prefilter filter", "filters", "filter 0:r1=1 /\\ ~exists (x=1)", "notfinal final",
		"exists (0:EAX=1 /\\ x=2 /\\ [y]=3)", "0:r1==-1 /\\ x!=2", "P1:EAX = 1", "x = = 1", "a[2]=3", "[x]=1:r0",
		"fault(P0,x) /\\ fault (P1:L0, y2)", "fault(P0:,x)", "fault(0 , _z)", "fault(Px,y)",
		"0:", "P12:", "P:", "name[12]", "name[]", "[1]",
	} {
		checkMatchers(t, s)
	}
	// Random texts over the bytes the expressions care about.
	const alphabet = "Pafilterxyz019_%.&:;[]()=!-* \t\n,"
	for _, s := range randtext.Texts(alphabet, 6000, 14, 1) {
		checkMatchers(t, s)
	}
}

// TestMatchersCorpus compares the matchers with their expressions on the
// corpus' texts: each line, each item between ';' and '|', each word and
// each final condition.
func TestMatchersCorpus(t *testing.T) {
	dir := testcorpus.Dir(t)
	var files []string
	for _, arch := range []string{"X86", "PPC", "AArch64", "RISCV", "C11"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "litmus", arch, "*.litmus"))
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Fatalf("no litmus files under %s", dir)
	}
	// A sample of each folder by default: the whole corpus takes a few
	// seconds more.
	step := 40
	if os.Getenv("MUSKET_LONG") != "" {
		step = 1
	}
	seen := map[string]bool{}
	check := func(s string) {
		if !seen[s] {
			seen[s] = true
			checkMatchers(t, s)
		}
	}
	for i := 0; i < len(files); i += step {
		b, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		if k := indexCondKeyword(src); k >= 0 {
			check(src[k:])
		}
		if k := strings.Index(src, "locations"); k >= 0 {
			check(src[k:])
		}
		for _, line := range strings.Split(src, "\n") {
			check(line)
			for _, item := range strings.FieldsFunc(line, func(r rune) bool { return r == ';' || r == '|' || r == '{' || r == '}' }) {
				check(item)
				check(strings.TrimSpace(item))
				if lhs, _, ok := strings.Cut(item, "="); ok {
					check(strings.TrimSpace(lhs))
				}
				for _, w := range strings.Fields(item) {
					check(w)
					for _, a := range strings.Split(w, ",") {
						check(a)
					}
				}
			}
		}
	}
}
