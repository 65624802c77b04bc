package cat

// The abstract syntax of CAT models. Every node knows where it starts.

// File is one parsed source file.
type File struct {
	Name     string // file name as given to the parser
	Title    string // the model's title, "" when absent
	TitlePos Position
	Catdep   bool // the file says catdep: it computes the dependencies itself
	Stmts    []Stmt
}

// Stmt is a top-level instruction (let, check, include, ...).
type Stmt interface {
	Pos() Position
	stmtNode()
}

// Expr is an expression.
type Expr interface {
	Pos() Position
	exprNode()
}

// Pattern is what a let, fun or procedure binds: one name (Tuple false,
// len(Names) == 1) or a tuple of names; "_" discards.
type Pattern struct {
	Names []string
	Tuple bool
}

// Binding is one `name = e`, `(a, b) = e`, `f(x, y) = e` or `f x = e`; the
// function forms are stored with Value a *FunExpr.
type Binding struct {
	At    Position
	Pat   Pattern
	Value Expr
}

// TestKind is the property a check asks for.
type TestKind int

// The three checks of CAT.
const (
	Acyclic TestKind = iota
	Irreflexive
	IsEmpty
)

func (k TestKind) String() string {
	return [...]string{"acyclic", "irreflexive", "empty"}[k]
}

// CheckKind says what a failing check does.
type CheckKind int

// Plain checks reject; flags are reported when their test holds; undefined
// checks mark the execution undefined when their test fails; asserts are
// treated as plain checks.
const (
	Check CheckKind = iota
	Flag
	UndefinedUnless
	Assert
)

// Test is `[~](acyclic|irreflexive|empty) e [as name]`.
type Test struct {
	At     Position
	Negate bool
	Kind   TestKind
	X      Expr
	Name   string // "" when no `as`
	Text   string // source text of the test, for messages
}

type (
	// LetStmt is `let [rec] b1 and b2 ... [when test]`.
	LetStmt struct {
		At    Position
		Rec   bool
		Binds []*Binding
		When  *Test
	}
	// CheckStmt is a check, flag, undefined_unless or assert.
	CheckStmt struct {
		At   Position
		Kind CheckKind
		Test *Test
	}
	// ShowStmt is `show e as n`, `show a, b` or `unshow a, b`; no effect.
	ShowStmt struct {
		At     Position
		Unshow bool
		Names  []string
		X      Expr // for `show e as n`
		As     string
	}
	// IncludeStmt is `include "file.cat"`.
	IncludeStmt struct {
		At   Position
		Path string
	}
	// BlockStmt holds the statements of an included file.
	BlockStmt struct {
		At    Position
		File  string
		Stmts []Stmt
	}
	// ProcStmt is `procedure p(args) = stmts end`.
	ProcStmt struct {
		At     Position
		Name   string
		Params Pattern
		Body   []Stmt
	}
	// CallStmt is `call p arg [as name]`.
	CallStmt struct {
		At   Position
		Name string
		Arg  Expr
		As   string
	}
	// ForallStmt is `forall x in e do stmts end`.
	ForallStmt struct {
		At   Position
		Var  string
		Set  Expr
		Body []Stmt
	}
	// WithStmt is `with x from e`.
	WithStmt struct {
		At  Position
		Var string
		Set Expr
	}
	// EnumStmt is `enum Name = 'a || 'b`.
	EnumStmt struct {
		At   Position
		Name string
		Tags []string
	}
	// EventsStmt is a bell declaration `instructions R[...]` or
	// `default R[...]`; it has no effect on checking.
	EventsStmt struct {
		At   Position
		Name string
		Args []Expr
	}
	// IfStmt is `if cond stmts [else stmts] end`.
	IfStmt struct {
		At   Position
		Cond Cond
		Then []Stmt
		Else []Stmt
	}
	// MatchStmt is `match e with || 'tag -> stmts ... [|| _ -> stmts] end`.
	MatchStmt struct {
		At      Position
		X       Expr
		Clauses []StmtClause
		Default []Stmt
		HasDef  bool
	}
	// DebugStmt is `debug e`; no effect.
	DebugStmt struct {
		At Position
		X  Expr
	}
)

// StmtClause is one `'tag -> stmts` of a statement match.
type StmtClause struct {
	Tag  string
	Body []Stmt
}

func (s *LetStmt) Pos() Position     { return s.At }
func (s *CheckStmt) Pos() Position   { return s.At }
func (s *ShowStmt) Pos() Position    { return s.At }
func (s *IncludeStmt) Pos() Position { return s.At }
func (s *BlockStmt) Pos() Position   { return s.At }
func (s *ProcStmt) Pos() Position    { return s.At }
func (s *CallStmt) Pos() Position    { return s.At }
func (s *ForallStmt) Pos() Position  { return s.At }
func (s *WithStmt) Pos() Position    { return s.At }
func (s *EnumStmt) Pos() Position    { return s.At }
func (s *EventsStmt) Pos() Position  { return s.At }
func (s *IfStmt) Pos() Position      { return s.At }
func (s *MatchStmt) Pos() Position   { return s.At }
func (s *DebugStmt) Pos() Position   { return s.At }

func (*LetStmt) stmtNode()     {}
func (*CheckStmt) stmtNode()   {}
func (*ShowStmt) stmtNode()    {}
func (*IncludeStmt) stmtNode() {}
func (*BlockStmt) stmtNode()   {}
func (*ProcStmt) stmtNode()    {}
func (*CallStmt) stmtNode()    {}
func (*ForallStmt) stmtNode()  {}
func (*WithStmt) stmtNode()    {}
func (*EnumStmt) stmtNode()    {}
func (*EventsStmt) stmtNode()  {}
func (*IfStmt) stmtNode()      {}
func (*MatchStmt) stmtNode()   {}
func (*DebugStmt) stmtNode()   {}

// Op is a unary or binary operator.
type Op int

// The operators of CAT expressions.
const (
	OpUnion Op = iota // |
	OpInter           // &
	OpDiff            // \
	OpSeq             // ;
	OpCross           // * (binary)
	OpAdd             // ++
	OpCompl           // ~
	OpStar            // * (postfix), ^*
	OpPlus            // + (postfix), ^+
	OpOpt             // ?
	OpInv             // ^-1
	OpToID            // [e]
)

var opNames = [...]string{"|", "&", "\\", ";", "*", "++", "~", "*", "+", "?", "^-1", "[]"}

func (o Op) String() string { return opNames[o] }

type (
	// Ident is a name.
	Ident struct {
		At   Position
		Name string
	}
	// EmptyLit is 0.
	EmptyLit struct{ At Position }
	// UniverseLit is _.
	UniverseLit struct{ At Position }
	// TagLit is 'tag.
	TagLit struct {
		At   Position
		Name string
	}
	// SetLit is {e1, e2, ...}.
	SetLit struct {
		At    Position
		Elems []Expr
	}
	// TupleLit is (e1, e2, ...) with zero or at least two elements.
	TupleLit struct {
		At    Position
		Elems []Expr
	}
	// UnaryExpr is a prefix or postfix operator, or [e].
	UnaryExpr struct {
		At Position
		Op Op
		X  Expr
	}
	// BinaryExpr is a binary operator.
	BinaryExpr struct {
		At   Position
		Op   Op
		X, Y Expr
	}
	// AppExpr is f x (and f(x, y), applying f to a tuple).
	AppExpr struct {
		At  Position
		Fun Expr
		Arg Expr
	}
	// FunExpr is fun pat -> body (and the sugar of let f x = ...).
	FunExpr struct {
		At     Position
		Params Pattern
		Body   Expr
		Name   string // the bound name for let-defined functions
	}
	// LetExpr is let [rec] binds in body.
	LetExpr struct {
		At    Position
		Rec   bool
		Binds []*Binding
		Body  Expr
	}
	// IfExpr is if cond then x else y.
	IfExpr struct {
		At   Position
		Cond Cond
		Then Expr
		Else Expr
	}
	// TryExpr is try x with y.
	TryExpr struct {
		At   Position
		X, Y Expr
	}
	// MatchTagExpr is match x with || 'a -> e ... [|| _ -> e] end.
	MatchTagExpr struct {
		At      Position
		X       Expr
		Clauses []TagClause
		Default Expr // nil when absent
	}
	// MatchSetExpr is match x with || {} -> e || elem ++ rest -> e end.
	MatchSetExpr struct {
		At         Position
		X          Expr
		Empty      Expr
		Elem, Rest string
		NonEmpty   Expr
	}
)

// TagClause is one `'tag -> e` of a match.
type TagClause struct {
	Tag  string
	Body Expr
}

func (e *Ident) Pos() Position        { return e.At }
func (e *EmptyLit) Pos() Position     { return e.At }
func (e *UniverseLit) Pos() Position  { return e.At }
func (e *TagLit) Pos() Position       { return e.At }
func (e *SetLit) Pos() Position       { return e.At }
func (e *TupleLit) Pos() Position     { return e.At }
func (e *UnaryExpr) Pos() Position    { return e.At }
func (e *BinaryExpr) Pos() Position   { return e.At }
func (e *AppExpr) Pos() Position      { return e.At }
func (e *FunExpr) Pos() Position      { return e.At }
func (e *LetExpr) Pos() Position      { return e.At }
func (e *IfExpr) Pos() Position       { return e.At }
func (e *TryExpr) Pos() Position      { return e.At }
func (e *MatchTagExpr) Pos() Position { return e.At }
func (e *MatchSetExpr) Pos() Position { return e.At }

func (*Ident) exprNode()        {}
func (*EmptyLit) exprNode()     {}
func (*UniverseLit) exprNode()  {}
func (*TagLit) exprNode()       {}
func (*SetLit) exprNode()       {}
func (*TupleLit) exprNode()     {}
func (*UnaryExpr) exprNode()    {}
func (*BinaryExpr) exprNode()   {}
func (*AppExpr) exprNode()      {}
func (*FunExpr) exprNode()      {}
func (*LetExpr) exprNode()      {}
func (*IfExpr) exprNode()       {}
func (*TryExpr) exprNode()      {}
func (*MatchTagExpr) exprNode() {}
func (*MatchSetExpr) exprNode() {}

// Cond is the condition of an if: a variant name, a negation, a
// conjunction or disjunction, or a comparison of two expressions.
type Cond interface{ condNode() }

type (
	// VariantCond is "name": true when the variant is set.
	VariantCond struct {
		At   Position
		Name string
	}
	// NotCond is not c.
	NotCond struct{ X Cond }
	// AndCond is c1 && c2.
	AndCond struct{ X, Y Cond }
	// OrCond is c1 || c2.
	OrCond struct{ X, Y Cond }
	// CompareCond is x = y, x subset y, or x in y.
	CompareCond struct {
		At   Position
		Op   Token // EQ, SUBSET or IN
		X, Y Expr
	}
)

func (*VariantCond) condNode() {}
func (*NotCond) condNode()     {}
func (*AndCond) condNode()     {}
func (*OrCond) condNode()      {}
func (*CompareCond) condNode() {}
