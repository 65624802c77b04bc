package bmc

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
)

// TestUAFSyntax: under each model with an order, the use-after-free
// check finds the model's acyclic check it extends (or adds its own),
// and the probe relation occurs exactly once; a model read from a file,
// even under a built-in's name, has no order.
func TestUAFSyntax(t *testing.T) {
	for name, o := range uafOrders {
		t.Run(name, func(t *testing.T) {
			m, err := cat.LoadBuiltin(name)
			if err != nil {
				t.Fatal(err)
			}
			if got := UseAfterFreeOrder(m, name); got != name {
				t.Fatalf("UseAfterFreeOrder = %q", got)
			}
			ss, err := uafSyntax(m.Syntax(), name)
			if err != nil {
				t.Fatal(err)
			}
			var n int
			var checks []string
			var walk func([]cat.Stmt)
			walk = func(ss []cat.Stmt) {
				for _, s := range ss {
					switch s := s.(type) {
					case *cat.CheckStmt:
						if strings.Contains(exprString(s.Test.X), probeName) {
							n++
							checks = append(checks, s.Test.Name)
						}
					case *cat.BlockStmt:
						walk(s.Stmts)
					}
				}
			}
			walk(ss)
			want := o.check
			if want == "" {
				want = "use-after-free"
			}
			if n != 1 || checks[0] != want {
				t.Fatalf("the probe is in %d checks %v, want 1 (%s)", n, checks, want)
			}
			walk(m.Syntax())
			if n != 1 {
				t.Fatalf("the model's own syntax changed")
			}
		})
	}
	m, err := cat.LoadBuiltin("sc")
	if err != nil {
		t.Fatal(err)
	}
	if got := UseAfterFreeOrder(m, "tso"); got != "" {
		t.Fatalf("sc's model under the name tso: %q, want no order", got)
	}
	if got := UseAfterFreeOrder(m, "c11"); got != "" {
		t.Fatalf("sc's model under the name c11: %q, want no order", got)
	}
}

// TestUAFC11Order: the shipped c11 model's hb-acyclic check is over hb
// itself, the relation uaf.go's argument for c11 is about (a change of
// the model must revisit it).
func TestUAFC11Order(t *testing.T) {
	m, err := cat.LoadBuiltin("c11")
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	var walk func([]cat.Stmt)
	walk = func(ss []cat.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *cat.CheckStmt:
				if s.Test.Name != uafOrders["c11"].check {
					continue
				}
				found = true
				if s.Test.Kind != cat.Acyclic || exprString(s.Test.X) != "hb" {
					t.Fatalf("c11's %s checks %v of %q, want acyclic hb", s.Test.Name, s.Test.Kind, exprString(s.Test.X))
				}
			case *cat.BlockStmt:
				walk(s.Stmts)
			}
		}
	}
	walk(m.Syntax())
	if !found {
		t.Fatal("c11 has no hb-acyclic check")
	}
}

// exprString prints an expression's identifiers (enough to find one).
func exprString(x cat.Expr) string {
	switch x := x.(type) {
	case *cat.Ident:
		return x.Name
	case *cat.BinaryExpr:
		return exprString(x.X) + " " + exprString(x.Y)
	}
	return ""
}
