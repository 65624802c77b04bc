package cat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

func parseExpr(t *testing.T, src string) Expr {
	t.Helper()
	f, err := ParseFile("e.cat", []byte("let e = "+src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return f.Stmts[0].(*LetStmt).Binds[0].Value
}

func TestPrecedence(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a | b ; c", "(a | (b ; c))"},
		{"a ; b | c", "((a ; b) | c)"},
		{"a | b | c", "(a | (b | c))"},
		{"a \\ b \\ c", "((a \\ b) \\ c)"},
		{"a & b \\ c", "((a & b) \\ c)"},
		{"a \\ b & c", "(a \\ (b & c))"},
		{"a ; b \\ c", "(a ; (b \\ c))"},
		{"a & b & c", "(a & (b & c))"},
		{"W * R & po", "((W * R) & po)"},
		{"po & W*R & ((M * A) | (A * M))", "(po & ((W * R) & ((M * A) | (A * M))))"},
		{"~a | b", "(~a | b)"},
		{"~a * b", "(~a * b)"},
		{"~a^-1", "~(a)^-1"},
		{"r^-1 ; s", "((r)^-1 ; s)"},
		{"(rf) ^ -1", "(rf)^-1"},
		{"rf -1", "(rf)^-1"},
		{"r^+ | r^*", "((r)+ | (r)*)"},
		{"r* ; s", "((r)* ; s)"},
		{"(po-loc | rf)*", "((po-loc | rf))*"},
		{"r+ | s? ", "((r)+ | (s)?)"},
		{"po;[M];po", "(po ; ([M] ; po))"},
		{"[R \\ range(rf)];loc", "([(R \\ (range rf))] ; loc)"},
		{"x ++ y ++ z", "(x ++ (y ++ z))"},
		{"a | b ++ c", "(a | (b ++ c))"},
		{"a ++ b | c", "((a ++ b) | c)"},
		{"a ; b ++ c", "((a ; b) ++ c)"},
		{"f x | g y", "((f x) | (g y))"},
		{"f x^-1", "((f x))^-1"},
		{"map f S", "(map f S)"},
		{"f (~a) (b)*", "((f (~a) b))*"},
		{"f (~a) ((b)*)", "(f (~a) ((b)*))"},
		{"f(x, y)", "(f (x, y))"},
		{"f()", "(f ())"},
		{"domain(r) * range(r)", "((domain r) * (range r))"},
		{"_ * B", "(_ * B)"},
		{"0", "0"},
		{"{}", "{}"},
		{"{a, 'b, 0}", "{a, 'b, 0}"},
		{"fun x -> x | y", "(fun x -> (x | y))"},
		{"fun (a, _) -> a", "(fun (a, _) -> a)"},
		{"try X with {}", "(try X with {})"},
		{"(try X with {})|(try A with {})", "((try X with {}) | (try A with {}))"},
		{`if "vmsa" && not "x" || "y" then _ else 0`, `(if "vmsa" && not "x" || "y" then _ else 0)`},
		{"if a = b then c else d", "(if a = b then c else d)"},
		{"let x = a and y = b in x ; y", "(let x = a and y = b in (x ; y))"},
		{"let rec f x = f x in f", "(let rec f = (fun x -> (f x)) in f)"},
		{"match S with || {} -> 0 || e ++ s -> e end", "(match S with || {} -> 0 || e ++ s -> e end)"},
		{"match S with e ++ s -> e || {} -> 0 end", "(match S with || {} -> 0 || e ++ s -> e end)"},
		{"match t with || 'a -> x || 'b -> y || _ -> z end", "(match t with || 'a -> x || 'b -> y || _ -> z end)"},
		{"begin a | b end ; c", "((a | b) ; c)"},
		{"fence.r.r | dsb.full | _RMW | x'", "(fence.r.r | (dsb.full | (_RMW | x')))"},
	}
	for _, tc := range tests {
		if got := ExprString(parseExpr(t, tc.src)); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestTitleAndStatements(t *testing.T) {
	tests := []struct {
		src   string
		title string
		kinds string // statement types, in order
	}{
		{"X86 TSO\ninclude \"a.cat\"", "X86 TSO", "Include"},
		{"\"X86 TSO\"\nlet a = b", "X86 TSO", "Let"},
		{"BPF \"BPF model\"\nacyclic po", "BPF model", "Check"},
		{"stdlib\n(* c *)\nlet a = 0", "stdlib", "Let"},
		{"let choices rf = rf", "", "Let"},
		{"M\ncatdep\nempty 0 as e", "M", "Check"},
		{"// dat3m comment\nlet x = y // trailing\n", "", "Let"},
		{"T\n#ppo\nlet x = y\n/* c style */ show x", "T", "Let Show"},
		{"T\nlet a = b in\nshow a", "T", "Let Show"},
		{"T\nflag ~empty a as f\nundefined_unless empty b as u\nassert acyclic c\n~irreflexive d", "T", "Check Check Check Check"},
		{"T\nshow a, b\nunshow c\nshow a \\ id as x", "T", "Show Show Show"},
		{"T\nprocedure p(a, b) = empty a \\ b end\ncall p(x, y) as n", "T", "Proc Call"},
		{"T\nprocedure q x = acyclic x end\ncall q(x)", "T", "Proc Call"},
		{"T\nforall e in S do empty [e] end", "T", "Forall"},
		{"T\nwith co from generate_cos(co0)", "T", "With"},
		{"T\nenum Memorder = 'rlx || 'acq\nenum E = || 'a", "T", "Enum Enum"},
		{"T\ninstructions R[{'rlx,'acq}]\ndefault W['rlx]", "T", "Events Events"},
		{"T\nif \"cos-opt\" include \"a.cat\" else include \"b.cat\" end", "T", "If"},
		{"T\nif \"v\" then let a = b end", "T", "If"},
		{"T\nmatch t with || 'a -> let x = y || _ -> show x end", "T", "Match"},
		{"T\nlet rec U = U0 | U;U when acyclic U as sc", "T", "Let"},
		{"T\nlet WW(r) = r & (W * W)\nand RR(r) = r & (R * R)", "T", "Let"},
		{"T\nlet (a, b) = (c, d)", "T", "Let"},
		{"T\ndebug x", "T", "Debug"},
	}
	for _, tc := range tests {
		f, err := ParseFile("t.cat", []byte(tc.src))
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if f.Title != tc.title {
			t.Errorf("%q: title %q, want %q", tc.src, f.Title, tc.title)
		}
		var kinds []string
		for _, s := range f.Stmts {
			k := strings.TrimSuffix(strings.TrimPrefix(typeName(s), "*cat."), "Stmt")
			kinds = append(kinds, k)
		}
		if got := strings.Join(kinds, " "); got != tc.kinds {
			t.Errorf("%q: statements %q, want %q", tc.src, got, tc.kinds)
		}
	}
}

func typeName(v any) string {
	switch v.(type) {
	case *LetStmt:
		return "Let"
	case *CheckStmt:
		return "Check"
	case *ShowStmt:
		return "Show"
	case *IncludeStmt:
		return "Include"
	case *ProcStmt:
		return "Proc"
	case *CallStmt:
		return "Call"
	case *ForallStmt:
		return "Forall"
	case *WithStmt:
		return "With"
	case *EnumStmt:
		return "Enum"
	case *EventsStmt:
		return "Events"
	case *IfStmt:
		return "If"
	case *MatchStmt:
		return "Match"
	case *DebugStmt:
		return "Debug"
	}
	return "?"
}

func TestCheckDetails(t *testing.T) {
	f, err := ParseFile("t.cat", []byte("T\nflag ~empty  rmw &\n  (fre;coe)\nacyclic po as sc"))
	if err != nil {
		t.Fatal(err)
	}
	c := f.Stmts[0].(*CheckStmt)
	if c.Kind != Flag || !c.Test.Negate || c.Test.Kind != IsEmpty || c.Test.Text != "~empty rmw & (fre;coe)" || c.Test.Name != "" {
		t.Errorf("flag parsed as %+v %+v", c, c.Test)
	}
	if c.Test.At.String() != "t.cat:2:6" {
		t.Errorf("position %s", c.Test.At)
	}
	c = f.Stmts[1].(*CheckStmt)
	if c.Test.Name != "sc" || c.Test.Kind != Acyclic || c.Test.Negate {
		t.Errorf("check parsed as %+v", c.Test)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"let x = ", "e.cat:1:9: unexpected end of file, expected an expression"},
		{"let x = a $ b", "e.cat:1:11: invalid character '$'"},

		{"T\nlet a = 0\nfoo bar", "e.cat:3:1: unexpected identifier foo, expected a statement"},
		{"(* open\nlet a = b", "e.cat:1:1: comment not terminated"},
		{"let x = (a | b", "e.cat:1:15: unexpected end of file, expected ')'"},
		{"let = a", "e.cat:1:5: unexpected '=', expected a name"},
		{"acyclic", "e.cat:1:8: unexpected end of file, expected an expression"},
		{"let x = a ^ b", "e.cat:1:13: unexpected identifier b, expected -1, + or * after ^"},
		{"include foo", "e.cat:1:9: unexpected identifier foo, expected a file name string"},
		{"let x = match s with || {} -> 0 end", "e.cat:1:9: a match on a set needs a {} clause and an e ++ s clause"},
		{"procedure p(a) = empty a", "e.cat:1:25: unexpected end of file, expected 'end'"},
		{"let x = \"str\"", "e.cat:1:9: unexpected string \"str\", expected an expression"},
		{"let x = 01", "e.cat:1:9: invalid number"},
		{"let a = b\nlet c = \nlet d = e\nlet f = ;", "e.cat:4:1: unexpected keyword let, expected 'in'\ne.cat:4:9: unexpected ';', expected an expression"},
	}
	for _, tc := range tests {
		_, err := ParseFile("e.cat", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, err, tc.want)
		}
		if _, ok := err.(ErrorList); !ok {
			t.Errorf("%q: error is %T, not an ErrorList", tc.src, err)
		}
	}
}

func TestParseCorpus(t *testing.T) {
	root := "../../../shared/corpus/cat"
	n, links := 0, 0
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !(strings.HasSuffix(path, ".cat") || strings.HasSuffix(path, ".bell")) {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if target, ok := linkText(src); ok {
			links++
			l := &loader{}
			through, err := l.readFile(path, path)
			if err != nil {
				t.Errorf("%s: a link to %s that cannot be read: %v", rel, target, err)
			} else if _, perr := ParseFile(through.name, through.data); perr != nil {
				t.Errorf("%s: the link's target: %v", rel, perr)
			}
			return nil
		}
		if _, perr := ParseFile(path, src); perr != nil {
			t.Errorf("%s: %v", rel, perr)
		}
		return nil
	})
	if err != nil {
		testcorpus.Dir(t) // a missing corpus skips, or fails under CI
		t.Fatal(err)
	}
	if n < 150 {
		t.Errorf("only %d corpus files found", n)
	}
	t.Logf("parsed %d corpus files (%d are links stored as text)", n, links)
}

// TestNesting: generated models nest deep and chain long; the parser
// takes them (herd7 does), and refuses hostile depths with an error, not
// a stack overflow.
func TestNesting(t *testing.T) {
	x := sbExec(t).x
	union := func(n int) string {
		terms := make([]string, n)
		for i := range terms {
			terms[i] = []string{"po", "rf", "co", "fr"}[i%4]
		}
		return strings.Join(terms, " | ")
	}
	for _, tc := range []struct {
		name, src string
	}{
		{"60 parentheses", "T\nlet a = " + strings.Repeat("(", 60) + "po" + strings.Repeat(")", 60) + "\nacyclic a\n"},
		{"900 parentheses", "T\nlet a = " + strings.Repeat("(", 900) + "po" + strings.Repeat(")", 900) + "\nacyclic a\n"},
		{"500-term union", "T\nlet a = " + union(500) + "\nempty a \\ (po | rf | co | fr)\n"},
		{"100000-term union", "T\nlet a = " + union(100000) + "\nempty a \\ (po | rf | co | fr)\n"},
		{"20000-term sequence", "T\nlet a = " + strings.Repeat("po ; ", 20000) + "po\nlet b = " + strings.Repeat("W & ", 20000) + "W\nempty a\n"},
		{"300 nested ifs", "T\n" + strings.Repeat("if \"v\" ", 300) + "let a = po" + strings.Repeat(" end", 300) + "\n"},
	} {
		m, err := modelFrom(t, tc.src, LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if err := m.Check(x, CheckOptions{}, func(Outcome) bool { return true }); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	for _, tc := range []struct {
		name, src string
	}{
		{"parentheses", "T\nlet a = " + strings.Repeat("(", 100000) + "po" + strings.Repeat(")", 100000) + "\n"},
		{"brackets", "T\nlet a = " + strings.Repeat("[", 100000) + "W" + strings.Repeat("]", 100000) + "\n"},
		{"complements", "T\nlet a = " + strings.Repeat("~", 100000) + "po\n"},
		{"lets", "T\nlet a = " + strings.Repeat("let b = po in ", 100000) + "po\n"},
		{"funs", "T\nlet a = " + strings.Repeat("fun x -> ", 100000) + "po\n"},
		{"conditions", "T\nif " + strings.Repeat("not ", 100000) + "\"v\" let a = po end\n"},
		{"blocks", "T\n" + strings.Repeat("if \"v\" ", 100000) + "let a = po" + strings.Repeat(" end", 100000) + "\n"},
		{"sets", "T\nlet a = " + strings.Repeat("{", 100000) + strings.Repeat("}", 100000) + "\n"},
		{"unclosed", "T\nlet a = " + strings.Repeat("(", 100000) + "\n"},
	} {
		_, err := ParseFile("deep.cat", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), "nested more than 1000 deep") {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestParseErrorOnce: a character the lexer refuses is said once, by the
// lexer; a byte that is not UTF-8 is said as a byte (robust7: "invalid
// character '\ufffd'", then the parser's "unexpected "ÿ"", the byte read
// as Latin-1).
func TestParseErrorOnce(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"let r\xff = po", "e.cat:1:6: unexpected byte 0xff (not UTF-8 text)"},
		{"let r = \xe9t\xe9", "e.cat:1:9: unexpected byte 0xe9 (not UTF-8 text)\ne.cat:1:11: unexpected byte 0xe9 (not UTF-8 text)"},
		{"let r = \u00e9", "e.cat:1:9: invalid character 'é'"},
		{"let x = a $ b", "e.cat:1:11: invalid character '$'"},
		{"let x = ' b", "e.cat:1:9: tag name expected after '"},
	} {
		_, err := ParseFile("e.cat", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v, want %s", tc.src, err, tc.want)
		}
	}
}
