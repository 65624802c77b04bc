// Package cat reads memory models written in herd7's CAT language and
// evaluates them on candidate executions.
//
// It owns the whole language: the lexer and parser (ParseFile, with
// positions and error lists in the style of go/scanner and go/parser),
// the abstract syntax (File, Stmt, Expr), include resolution and the
// implicit standard library (Load), the built-in models written for
// Musket (LoadBuiltin, Builtins, embedded from models/), and the
// evaluator (Model.Check).
//
// # Evaluation
//
// Loading compiles a model once: every name is resolved to a slot of a
// frame, or to an input the execution gives (po, rf, R, W, MFENCE, ...),
// so that Check, which runs once per candidate execution, makes no map
// look-ups on its hot path but one per input. A model that binds a
// relation with `with x from S` evaluates the rest of the model once per
// element of S; Check reports one Outcome per such branch. The top-level
// lets and checks are memoised from one Check to the next: a statement
// is recomputed only when the inputs it reads or the values of the names
// it reads have changed, so that the library part of a model (herd7's
// stdlib, fence and filter definitions, the coherence orders cos.cat
// generates) and whatever an rf or co choice does not change are computed
// once. The parts of a let rec that do not depend on the names it defines
// are computed once per fixpoint. A sequence a ; b ; c is composed in
// one pass, row by row, with [S], r? and r* folded in rather than built;
// r & (S * T) filters r without building the product; |, & and \ work in
// place in an operand the evaluation has just made (see owned.go).
//
// Inputs the execution lacks default as herd7 defines them: id, sm
// (the identity without mixed-size accesses), same-instance (the
// identity), Exp (all events), M (R | W), amo (rmw), loc (from Loc),
// empty sets for B, ADDR, DATA, CTRL, NDATA, EX, X, PTE, LKW, UB, NExp,
// emptyset, and empty relations for addr, data, ctrl, iico_data,
// iico_ctrl, lxsx. pco (herd7's precomputed coherence constraints, for
// the "cos-opt" variant) is computed from po, loc, rf, R, W, IW, FW.
//
// # Choices where herd7 is not explicit
//
// Flags raise when their test holds and do not reject;
// undefined_unless records (does not reject) when its test fails; assert
// rejects like a check. A file included again on every path to the
// include is not read again when it runs checks or choices; a file that
// only binds names (lets, procedures, shows) is read again, rebinding its
// names against the current ones as herd7's include does (herd7's
// cos-opt.cat reads cross.cat again after lock.cat has added LKW to W).
// An include cycle is an error. The title is
// the leading name(s) or string of a file; a name and a string give the
// string. Comments (* *) nest; a file that only parses with flat
// comments (Dat3M's) is read that way. Matching e ++ s takes the least
// event of an event set, the first pair of a relation, the first
// element of a set of values; events and pairs act as singletons where a
// set or a relation is needed.
package cat
