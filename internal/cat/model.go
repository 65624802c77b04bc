package cat

import (
	"context"
	"sync"

	"github.com/musket-verify/musket/internal/rel"
)

// Execution is one candidate execution as the engines give it to a model.
type Execution struct {
	N    int                // events are 0..N-1
	Sets map[string]rel.Set // predefined sets: R, W, M, F, IW, FW, B, every tag set (MFENCE, X, A, ...), Exp, NExp, ...
	Rels map[string]rel.Rel // predefined relations: po, loc, int, ext, id, addr, data, ctrl, rmw, amo, same-instance, rf, and co, fr, ... unless the model binds co itself
	// Over, when not nil, holds relations by name that the execution has
	// besides Rels, and in place of Rels' entry of the same name: an
	// engine that evaluates many candidates of one program keeps the
	// relations of the program in Rels and sets the few that change from
	// one candidate to the next (rf, co, fr, ...) here, which costs no
	// map write and no hash of the name (Check reads them by index,
	// Inputs, and by name only in the defaults of builtins.go). Every
	// read of the execution's relations by name is Execution.Rel.
	Over []NamedRel
	Loc  []int // Loc[e] is the location class of event e, -1 for none
	// SameValue, when not nil, tells whether events i and j carry the
	// same value (different-values); without it distinct events differ.
	SameValue func(i, j int) bool
	// Inputs, when not nil, holds the execution's value of each of the
	// model's inputs by index (Model.InputIndex), so that Check finds
	// them without hashing their names: a caller that evaluates many
	// executions of one program builds it once and updates the entries
	// that change. Sets, Rels and Over must still hold the same values
	// (the defaults of names the execution lacks are derived from them).
	Inputs []Input
}

// NamedRel is a relation of an execution and its name (Execution.Over).
type NamedRel struct {
	Name string
	Rel  rel.Rel
}

// Rel is the execution's relation name: Over's entry of that name, else
// Rels'. Over is a handful of entries, so a scan costs less than a hash
// of the name.
func (x *Execution) Rel(name string) (rel.Rel, bool) {
	for i := range x.Over {
		if x.Over[i].Name == name {
			return x.Over[i].Rel, true
		}
	}
	r, ok := x.Rels[name]
	return r, ok
}

// Input is the value of one of a model's inputs in an execution
// (Execution.Inputs).
type Input struct {
	Kind InputKind
	Set  rel.Set // when Kind is SetInput
	Rel  rel.Rel // when Kind is RelInput
}

// InputKind says what an execution has under an input's name.
type InputKind uint8

// The kinds of Input.
const (
	NoInput  InputKind = iota // neither Sets nor Rels has the name
	SetInput                  // Sets has it
	RelInput                  // Rels has it (and Sets does not)
)

// NumInputs is the number of the model's inputs: the names nothing in it
// binds, which Check looks up in the execution.
func (m *Model) NumInputs() int { return len(m.inputNames) }

// InputName is the name of input i (see NumInputs).
func (m *Model) InputName(i int) string { return m.inputNames[i] }

// InputIndex is the index of the input name (see NumInputs), -1 when the
// model does not look name up in the execution.
func (m *Model) InputIndex(name string) int {
	if i, ok := m.inputIndex[name]; ok {
		return i
	}
	return -1
}

// CheckOptions are the options of one evaluation.
type CheckOptions struct {
	Variants map[string]bool // the variants `if "name"` tests
	// Ctx, when set, stops a Check that runs past its deadline (fixpoints,
	// recursive functions, forall and with loops look at it): Check then
	// returns Ctx.Err().
	Ctx context.Context
	// Skip, when set, names the checks not to apply (herd7's
	// -skipchecks): an execution that fails one of them goes on to the
	// next statement as if it had passed.
	Skip func(name string) bool
	// Transient says that the caller reads each Outcome (Rel, Flags,
	// Undefined) only while yield runs, never after: Check may then
	// reuse its working storage (the run, its top frame, the outcome's
	// Rel function) from one Check to the next, which saves four
	// allocations per Check and one per outcome.
	Transient bool

	unboundEmpty bool // tests: names nothing binds are 0
	stepLimit    int  // tests: a smaller budget than maxSteps
}

// Outcome is the verdict of the model on one branch of an execution: a
// model with `with x from S` has one branch per element of S.
type Outcome struct {
	Accepted  bool     // every check passed on this branch
	Failed    string   // name of the first failed check (its `as` name, or its text) when !Accepted
	Flags     []string // names of the flags raised
	Undefined []string // names of the failed undefined_unless checks
	// Rel returns the value a relation (or set, as the pairs of its
	// identity) name has at the end of this branch, e.g. "co" when the
	// model binds it with `with co from`. Names the model does not bind
	// come from the execution. It stays valid after Check returns.
	Rel func(name string) (rel.Rel, bool)
}

// Model is a loaded and compiled CAT model. It is immutable; Check may
// run concurrently from several goroutines.
type Model struct {
	title string
	path  string

	prog     []stmtCode
	topSlots int

	inputNames []string       // free names, resolved against the execution
	noDefault  []bool         // noDefault[i]: fallback gives inputNames[i] no value, whatever the execution
	inputIndex map[string]int // the index of each input name
	topNames   map[string]int // the final top-level slot of every name the model binds
	withNames  map[string]bool

	memoCount  int       // memoised statements
	staticSlot []bool    // the top-level slots of memoised lets
	memos      sync.Pool // of *memo, one per goroutine at a time

	syntax []Stmt // the statements after include expansion, stdlib first
}

// Syntax returns the model's statements after include expansion: a
// BlockStmt for the implicit standard library (when one was loaded), then
// a BlockStmt for the model's file, whose included files are nested
// BlockStmts. Engines that evaluate the model their own way (the SMT
// encoder) read it; callers must not modify it.
func (m *Model) Syntax() []Stmt { return m.syntax }

// Title returns the model's title ("X86 TSO"), or "" if it has none.
func (m *Model) Title() string { return m.title }

// Path returns the file the model was loaded from ("builtin:NAME" for the
// built-in models).
func (m *Model) Path() string { return m.path }

// Binds tells whether the model (after includes) binds name with
// `with name from`; engines then leave that relation to the model.
func (m *Model) Binds(name string) bool { return m.withNames[name] }
