package cat

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/fuzzlimit"
)

// FuzzParse feeds arbitrary text to the parser: it must return a File or
// an ErrorList with positions, never panic or hang. What parses is
// printed and parsed again (the printer and the parser must agree), then
// compiled and evaluated on a small execution with a step budget.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"T\nlet a = po | rf ; co\nacyclic a as x\n",
		"\"M\"\nlet rec f x = match x with || {} -> 0 || e ++ s -> e ++ f s end\nlet y = f W\n",
		"let x = try X with {} | (try A with {})\nlet f(a, b) = a & b\nflag ~empty f(R, W) as fl\n",
		"T\nif \"v\" let a = 0 else let a = po end\nwith c from {po, rf}\nempty c \\ a\n",
		"T\nprocedure p(a) = irreflexive a end\ncall p(po)\nforall e in R do empty [e] end\n",
		"T\nenum E = 'a || 'b\nlet t = match 'a with || 'a -> po || _ -> 0 end\nshow t as u\n",
		"(* (* nested *) *) // line\n# hash\nlet x = (a, b)\nlet (c, d) = x\n",
		"T\nlet x = [W] ; (po^-1 | rf^+)* ; [R]? \\ id\nlet y = domain(x) * range(x)\n",
		"T\nlet rec a = b | po and b = a ; po\nempty a & ~b\n",
	} {
		f.Add([]byte(s))
	}
	// The reference models too, when the corpus is there (not copied into
	// the repository).
	files, _ := filepath.Glob(herdDir + "*.cat")
	more, _ := filepath.Glob(dat3mDir + "*.cat")
	for _, p := range append(files, more...) {
		if data, err := os.ReadFile(p); err == nil && len(data) < 3000 {
			f.Add(data)
		}
	}
	x := build(&testing.T{}, shapes[0].exec).x
	f.Fuzz(func(t *testing.T, src []byte) {
		var file *File
		var err error
		fuzzlimit.Within(t, time.Second, func() { file, err = ParseFile("f.cat", src) })
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T is not an ErrorList: %v", err, err)
			}
			for _, e := range list {
				if !e.Pos.IsValid() || e.Msg == "" {
					t.Fatalf("error without position: %v", e)
				}
			}
			return
		}
		for _, st := range file.Stmts {
			let, ok := st.(*LetStmt)
			if !ok || len(let.Binds) != 1 || let.Binds[0].Pat.Tuple {
				continue
			}
			printed := ExprString(let.Binds[0].Value)
			again, err := ParseFile("g.cat", []byte("let e = "+printed))
			if err != nil {
				t.Fatalf("printed form does not parse: %s\n%v", printed, err)
			}
			if got := ExprString(again.Stmts[0].(*LetStmt).Binds[0].Value); got != printed {
				t.Fatalf("print/parse mismatch:\n%s\n%s", printed, got)
			}
		}
		if strings.Contains(string(src), "include") {
			return // includes need files
		}
		var m *Model
		fuzzlimit.Within(t, time.Second, func() { m, err = compileModel(file.Title, "f.cat", file.Stmts) })
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("compile error %T is not an ErrorList: %v", err, err)
			}
			for _, e := range list {
				if !e.Pos.IsValid() || e.Msg == "" {
					t.Fatalf("compile error without position: %v", e)
				}
			}
			return
		}
		n := 0
		fuzzlimit.Within(t, time.Second, func() {
			_ = m.Check(x, CheckOptions{unboundEmpty: true, stepLimit: 20000}, func(Outcome) bool {
				n++
				return n < 50
			})
		})
	})
}
