package param

// The syntax tree of a .cub file, as written: names are not resolved yet
// (check.go does that). Formulas and terms share one expression type.

// File is a parsed .cub file.
type File struct {
	Name        string
	NumberProcs int
	Types       []*TypeDecl
	Globals     []*GlobalDecl
	Inits       []*Formula
	Unsafes     []*Formula
	Invariants  []*Formula
	Predicates  []*PredicateDecl
	Transitions []*TransDecl
}

// TypeDecl is "type t = A | B" (or an abstract "type t").
type TypeDecl struct {
	Pos   Pos
	Name  string
	Ctors []Ident
}

// Ident is a name with its position.
type Ident struct {
	Pos  Pos
	Name string
}

// GlobalKind says how a global was declared.
type GlobalKind int

// The kinds of globals.
const (
	GVar GlobalKind = iota
	GArray
	GConst
)

// GlobalDecl is "[weak] var X : t", "[weak] array A[proc] : t" or
// "const C : t" / "const C[proc] : t".
type GlobalDecl struct {
	Pos     Pos
	Kind    GlobalKind
	Weak    bool
	Local   bool // local_weak (early Cubicle-W): weak, A[p] written by p alone
	Name    string
	Indices []Ident // index types (always proc)
	Type    Ident
}

// Formula is the body of init, unsafe or invariant with its parameters.
type Formula struct {
	Pos    Pos
	Params []Ident
	Body   Expr
}

// PredicateDecl is "predicate p (x y) { e }", expanded where it is used.
type PredicateDecl struct {
	Pos    Pos
	Name   string
	Params []Ident
	Body   Expr
}

// TransDecl is a transition.
type TransDecl struct {
	Pos     Pos
	Name    string
	Params  []Ident
	Actor   int // index in Params of the [i] parameter, or -1
	Guard   Expr
	Lets    []Let // "let x = t in", before the actions
	Actions []*Action
	Fences  Expr // "fences (p)" of early Cubicle-W: p (early.go), else nil
}

// Let is "let x = t in" in a transition's body: x stands for the value
// of t (in the state before the transition) in the actions.
type Let struct {
	Name  Ident
	Value Expr
}

// Action is "X := e", "A[i] := e" or "A[j] := case ...".
type Action struct {
	Pos   Pos
	Name  Ident
	Index []Ident // nil for a variable
	Rhs   Expr
	By    Expr // write(p, X, e) of early Cubicle-W: p (early.go), else nil
}

// Expr is an expression (term or formula).
type Expr interface{ exprPos() Pos }

// Ops of BinExpr.
const (
	OpAnd = "&&"
	OpOr  = "||"
	OpImp = "=>"
	OpIff = "<=>"
	OpEq  = "="
	OpNeq = "<>"
	OpLt  = "<"
	OpLe  = "<="
	OpGt  = ">"
	OpGe  = ">="
	OpAdd = "+"
	OpSub = "-"
	OpMul = "*"
)

type (
	// IdentExpr is a name: variable, constructor, process variable.
	IdentExpr struct {
		Pos  Pos
		Name string
	}
	// IndexExpr is A[i] or A[i, j].
	IndexExpr struct {
		Pos   Pos
		Name  string
		Index []Ident
	}
	// AtExpr is i@X or i@A[j]: the value of a weak X seen by i.
	AtExpr struct {
		Pos  Pos
		Proc Ident
		Of   Expr // *IdentExpr or *IndexExpr
	}
	// NumExpr is an integer or real literal.
	NumExpr struct {
		Pos  Pos
		Text string
		Real bool
	}
	// ProcExpr is #k.
	ProcExpr struct {
		Pos Pos
		N   int
	}
	// NondetExpr is ".", a value chosen non-deterministically.
	NondetExpr struct{ Pos Pos }
	// BinExpr is a binary operation.
	BinExpr struct {
		Pos  Pos
		Op   string
		L, R Expr
	}
	// NotExpr is "not e".
	NotExpr struct {
		Pos Pos
		E   Expr
	}
	// NegExpr is "- e".
	NegExpr struct {
		Pos Pos
		E   Expr
	}
	// CallExpr is fence() or a predicate application p(a, b).
	CallExpr struct {
		Pos  Pos
		Name string
		Args []Expr
	}
	// QuantExpr is forall_other k. e or exists_other k. e, or, with
	// All, forall k. e or exists k. e (every process, the transition's
	// parameters included).
	QuantExpr struct {
		Pos    Pos
		Forall bool
		All    bool
		Var    Ident
		Body   Expr
	}
	// CaseExpr is "case | c1 : e1 | … | _ : e".
	CaseExpr struct {
		Pos      Pos
		Conds    []Expr // nil for "_"
		Branches []Expr
	}
)

func (e *IdentExpr) exprPos() Pos  { return e.Pos }
func (e *IndexExpr) exprPos() Pos  { return e.Pos }
func (e *AtExpr) exprPos() Pos     { return e.Pos }
func (e *NumExpr) exprPos() Pos    { return e.Pos }
func (e *ProcExpr) exprPos() Pos   { return e.Pos }
func (e *NondetExpr) exprPos() Pos { return e.Pos }
func (e *BinExpr) exprPos() Pos    { return e.Pos }
func (e *NotExpr) exprPos() Pos    { return e.Pos }
func (e *NegExpr) exprPos() Pos    { return e.Pos }
func (e *CallExpr) exprPos() Pos   { return e.Pos }
func (e *QuantExpr) exprPos() Pos  { return e.Pos }
func (e *CaseExpr) exprPos() Pos   { return e.Pos }
