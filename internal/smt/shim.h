// C helpers for package smt. Every helper performs one logical operation
// (possibly several Z3 calls) in a single cgo crossing, reports Z3 errors
// through a result field instead of aborting, and takes a reference on
// every Z3 object it hands back to Go.

#ifndef MUSKET_SMT_SHIM_H
#define MUSKET_SMT_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <z3.h>

// Sort kinds understood by the helpers (mirrors SortKind in Go).
enum {
	MUSKET_SORT_BOOL = 1,
	MUSKET_SORT_INT = 2,
	MUSKET_SORT_REAL = 3,
	MUSKET_SORT_BV = 4,
};

// Term-building operations (see musket_app).
enum {
	// unary
	MUSKET_OP_NOT = 1,
	MUSKET_OP_NEG,
	MUSKET_OP_TO_REAL,
	MUSKET_OP_TO_INT,
	MUSKET_OP_IS_INT,
	MUSKET_OP_BVNOT,
	MUSKET_OP_BVNEG,
	MUSKET_OP_EXTRACT,  // k1 = high, k2 = low
	MUSKET_OP_ZERO_EXT, // k1 = extra bits
	MUSKET_OP_SIGN_EXT, // k1 = extra bits
	MUSKET_OP_INT2BV,   // k1 = width
	MUSKET_OP_BV2INT,   // k1 = signed
	MUSKET_OP_SIMPLIFY,
	// binary
	MUSKET_OP_IMPLIES,
	MUSKET_OP_IFF,
	MUSKET_OP_XOR,
	MUSKET_OP_EQ,
	MUSKET_OP_DIV,
	MUSKET_OP_MOD,
	MUSKET_OP_REM,
	MUSKET_OP_LT,
	MUSKET_OP_LE,
	MUSKET_OP_GT,
	MUSKET_OP_GE,
	MUSKET_OP_BVADD,
	MUSKET_OP_BVSUB,
	MUSKET_OP_BVMUL,
	MUSKET_OP_BVUDIV,
	MUSKET_OP_BVSDIV,
	MUSKET_OP_BVUREM,
	MUSKET_OP_BVSREM,
	MUSKET_OP_BVSMOD,
	MUSKET_OP_BVAND,
	MUSKET_OP_BVOR,
	MUSKET_OP_BVXOR,
	MUSKET_OP_BVSHL,
	MUSKET_OP_BVLSHR,
	MUSKET_OP_BVASHR,
	MUSKET_OP_BVULT,
	MUSKET_OP_BVULE,
	MUSKET_OP_BVUGT,
	MUSKET_OP_BVUGE,
	MUSKET_OP_BVSLT,
	MUSKET_OP_BVSLE,
	MUSKET_OP_BVSGT,
	MUSKET_OP_BVSGE,
	MUSKET_OP_CONCAT,
	// ternary
	MUSKET_OP_ITE,
	// n-ary
	MUSKET_OP_AND,
	MUSKET_OP_OR,
	MUSKET_OP_ADD,
	MUSKET_OP_SUB,
	MUSKET_OP_MUL,
	MUSKET_OP_DISTINCT,
	MUSKET_OP_ATMOST,  // k1 = bound
	MUSKET_OP_ATLEAST, // k1 = bound
	MUSKET_OP_EXACTLY, // k1 = bound (pseudo-Boolean equality, unit coefficients)
	MUSKET_OP_AMO_PAIRWISE, // pairwise at-most-one
	MUSKET_OP_EO_PAIRWISE,  // pairwise at-most-one plus at-least-one clause
};

// Result of creating a term: on success ast is non-NULL and carries one
// reference owned by the caller; otherwise err is a Z3_error_code != 0.
typedef struct {
	Z3_ast ast;
	unsigned id;
	int err;
} musket_res;

// Object kinds in a release batch.
enum {
	MUSKET_OBJ_AST = 1,
	MUSKET_OBJ_SOLVER,
	MUSKET_OBJ_MODEL,
};

typedef struct {
	void *ptr;
	int kind;
} musket_obj;

// Value extracted from a model.
typedef struct {
	int ok;
	int64_t a;
	int64_t b;
} musket_val;

enum {
	MUSKET_VAL_BOOL = 1,
	MUSKET_VAL_INT64,
	MUSKET_VAL_RATIONAL,
	MUSKET_VAL_UINT64,
};

Z3_context musket_mk_context(void);
uintptr_t musket_sigint_handler(void);
void musket_release(Z3_context c, const musket_obj *objs, size_t n);
const char *musket_error_msg(Z3_context c, int err);

musket_res musket_const(Z3_context c, const char *name, size_t len, int kind, unsigned width);
musket_res musket_bool_val(Z3_context c, int v);
musket_res musket_int64(Z3_context c, int64_t v, int kind, unsigned width);
musket_res musket_numeral(Z3_context c, const char *num, size_t len, int kind, unsigned width);
musket_res musket_app(Z3_context c, int op, unsigned n, const Z3_ast *args, unsigned k1, unsigned k2);
musket_res musket_app1(Z3_context c, int op, Z3_ast a, unsigned k1, unsigned k2);
musket_res musket_app2(Z3_context c, int op, Z3_ast a, Z3_ast b);
musket_res musket_app3(Z3_context c, int op, Z3_ast a, Z3_ast b, Z3_ast d);
int musket_sort_of(Z3_context c, Z3_ast a, unsigned *width);
const char *musket_ast_string(Z3_context c, Z3_ast a);

Z3_solver musket_mk_solver(Z3_context c, const char *logic, size_t len, int simple, int *err);
int musket_assert(Z3_context c, Z3_solver s, unsigned n, const Z3_ast *args);
int musket_check(Z3_context c, Z3_solver s, unsigned n, const Z3_ast *args, int *err);
int musket_push(Z3_context c, Z3_solver s);
int musket_pop(Z3_context c, Z3_solver s, unsigned n);
int musket_reset(Z3_context c, Z3_solver s);
unsigned musket_num_scopes(Z3_context c, Z3_solver s);
int musket_set_param(Z3_context c, Z3_solver s, const char *name, size_t len, int is_bool, unsigned v);
const char *musket_reason_unknown(Z3_context c, Z3_solver s);
const char *musket_solver_string(Z3_context c, Z3_solver s);
Z3_model musket_get_model(Z3_context c, Z3_solver s);
Z3_ast_vector musket_get_core(Z3_context c, Z3_solver s, unsigned *n);
void musket_take_vector(Z3_context c, Z3_ast_vector v, musket_res *out, unsigned n);
Z3_stats musket_get_stats(Z3_context c, Z3_solver s, unsigned *n);
const char *musket_stats_entry(Z3_context c, Z3_stats st, unsigned i, double *val);
const char *musket_stats_string(Z3_context c, Z3_stats st);
void musket_stats_release(Z3_context c, Z3_stats st);

musket_val musket_eval(Z3_context c, Z3_model m, Z3_ast t, int mode);
musket_res musket_eval_term(Z3_context c, Z3_model m, Z3_ast t);
const char *musket_model_string(Z3_context c, Z3_model m);


// Acyclicity theory (acyclic.go): a Z3 user propagator whose callbacks
// call back into Go (the exported musketProp* functions) with the Go
// handle of the theory's state. A copy of the solver made by Z3 (the
// fresh callback) gets an inert state: it propagates nothing.
typedef struct {
	Z3_context c;
	uintptr_t handle; // 0: inert
	unsigned fresh;   // copies Z3 made of the propagator
	// What musket_watch_raw learnt of the subterms it walked, by AST id
	// (an open-addressing table: ids + 1, 0 free; 1 clean, 2 not).
	unsigned *walk_ids;
	unsigned char *walk_state;
	size_t walk_cap, walk_used;
} musket_prop;

musket_prop *musket_prop_init(Z3_context c, Z3_solver s, uintptr_t handle, int *err);
void musket_prop_free(musket_prop *p);
unsigned musket_prop_register(Z3_context c, Z3_solver s, Z3_ast e, int *err);
void musket_prop_conflict(Z3_context c, Z3_solver_callback cb, unsigned n, const unsigned *ids);
int musket_watch_raw(musket_prop *p, Z3_ast e);
void musket_watch_forget(musket_prop *p);

#endif
