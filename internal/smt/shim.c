#include "shim.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

// Error capture. Z3 calls the handler synchronously on the thread that made
// the failing API call, so a thread-local slot written by the handler and
// read back by the same helper (one cgo call, one OS thread) is exact.
static __thread int musket_err;

static void musket_on_error(Z3_context c, Z3_error_code e) {
	(void)c;
	musket_err = (int)e;
}

Z3_context musket_mk_context(void) {
	Z3_config cfg = Z3_mk_config();
	if (cfg == NULL) {
		return NULL;
	}
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (c != NULL) {
		Z3_set_error_handler(c, musket_on_error);
		Z3_set_ast_print_mode(c, Z3_PRINT_SMTLIB2_COMPLIANT);
	}
	return c;
}

void musket_release(Z3_context c, const musket_obj *objs, size_t n) {
	musket_err = 0;
	for (size_t i = 0; i < n; i++) {
		switch (objs[i].kind) {
		case MUSKET_OBJ_AST:
			Z3_dec_ref(c, (Z3_ast)objs[i].ptr);
			break;
		case MUSKET_OBJ_SOLVER:
			Z3_solver_dec_ref(c, (Z3_solver)objs[i].ptr);
			break;
		case MUSKET_OBJ_MODEL:
			Z3_model_dec_ref(c, (Z3_model)objs[i].ptr);
			break;
		}
	}
	musket_err = 0;
}

const char *musket_error_msg(Z3_context c, int err) {
	return Z3_get_error_msg(c, (Z3_error_code)err);
}

// finish turns the raw result of a Z3 constructor into a musket_res,
// taking a reference on success.
static musket_res finish(Z3_context c, Z3_ast r) {
	musket_res out;
	out.ast = NULL;
	out.id = 0;
	out.err = musket_err;
	if (out.err == 0 && r == NULL) {
		out.err = Z3_EXCEPTION;
	}
	if (out.err == 0) {
		Z3_inc_ref(c, r);
		out.ast = r;
		out.id = Z3_get_ast_id(c, r);
	}
	return out;
}

// mk_sort returns a sort carrying one reference (NULL on error).
static Z3_sort mk_sort(Z3_context c, int kind, unsigned width) {
	Z3_sort s = NULL;
	switch (kind) {
	case MUSKET_SORT_BOOL:
		s = Z3_mk_bool_sort(c);
		break;
	case MUSKET_SORT_INT:
		s = Z3_mk_int_sort(c);
		break;
	case MUSKET_SORT_REAL:
		s = Z3_mk_real_sort(c);
		break;
	case MUSKET_SORT_BV:
		s = Z3_mk_bv_sort(c, width);
		break;
	default:
		musket_err = Z3_INVALID_ARG;
		return NULL;
	}
	if (s != NULL && musket_err == 0) {
		Z3_inc_ref(c, Z3_sort_to_ast(c, s));
		return s;
	}
	return NULL;
}

static void drop_sort(Z3_context c, Z3_sort s) {
	if (s != NULL) {
		int saved = musket_err;
		Z3_dec_ref(c, Z3_sort_to_ast(c, s));
		musket_err = saved;
	}
}

// with_cstr copies a (ptr, len) Go string into a NUL-terminated buffer.
#define MUSKET_SMALL 128
static char *cstr(const char *p, size_t len, char *small) {
	char *buf = len < MUSKET_SMALL ? small : (char *)malloc(len + 1);
	if (buf == NULL) {
		return NULL;
	}
	if (len > 0) {
		memcpy(buf, p, len);
	}
	buf[len] = 0;
	return buf;
}

static void free_cstr(char *buf, char *small) {
	if (buf != small) {
		free(buf);
	}
}

musket_res musket_const(Z3_context c, const char *name, size_t len, int kind, unsigned width) {
	musket_err = 0;
	char small[MUSKET_SMALL];
	char *buf = cstr(name, len, small);
	if (buf == NULL) {
		musket_res out = {NULL, 0, Z3_MEMOUT_FAIL};
		return out;
	}
	Z3_sort s = mk_sort(c, kind, width);
	Z3_ast r = NULL;
	if (s != NULL) {
		Z3_symbol sym = Z3_mk_string_symbol(c, buf);
		if (musket_err == 0) {
			r = Z3_mk_const(c, sym, s);
		}
	}
	musket_res out = finish(c, r);
	drop_sort(c, s);
	free_cstr(buf, small);
	return out;
}

musket_res musket_bool_val(Z3_context c, int v) {
	musket_err = 0;
	return finish(c, v ? Z3_mk_true(c) : Z3_mk_false(c));
}

musket_res musket_int64(Z3_context c, int64_t v, int kind, unsigned width) {
	musket_err = 0;
	Z3_sort s = mk_sort(c, kind, width);
	Z3_ast r = NULL;
	if (s != NULL) {
		r = Z3_mk_int64(c, v, s);
	}
	musket_res out = finish(c, r);
	drop_sort(c, s);
	return out;
}

musket_res musket_numeral(Z3_context c, const char *num, size_t len, int kind, unsigned width) {
	musket_err = 0;
	char small[MUSKET_SMALL];
	char *buf = cstr(num, len, small);
	if (buf == NULL) {
		musket_res out = {NULL, 0, Z3_MEMOUT_FAIL};
		return out;
	}
	Z3_sort s = mk_sort(c, kind, width);
	Z3_ast r = NULL;
	if (s != NULL) {
		r = Z3_mk_numeral(c, buf, s);
	}
	musket_res out = finish(c, r);
	drop_sort(c, s);
	free_cstr(buf, small);
	return out;
}

static Z3_ast mk_pb(Z3_context c, int op, unsigned n, const Z3_ast *args, unsigned k) {
	switch (op) {
	case MUSKET_OP_ATMOST:
		return Z3_mk_atmost(c, n, args, k);
	case MUSKET_OP_ATLEAST:
		return Z3_mk_atleast(c, n, args, k);
	}
	int small[64];
	int *coeffs = n <= 64 ? small : (int *)malloc(sizeof(int) * n);
	if (coeffs == NULL) {
		musket_err = Z3_MEMOUT_FAIL;
		return NULL;
	}
	for (unsigned i = 0; i < n; i++) {
		coeffs[i] = 1;
	}
	Z3_ast r = Z3_mk_pbeq(c, n, args, coeffs, (int)k);
	if (coeffs != small) {
		free(coeffs);
	}
	return r;
}

// mk_pairwise builds the conjunction of (not a_i or not a_j) for i < j,
// plus (a_1 or ... or a_n) if at_least_one. Intermediate terms hold a
// reference until the result (which references them) exists.
static Z3_ast mk_pairwise(Z3_context c, unsigned n, const Z3_ast *args, int at_least_one) {
	size_t npairs = (size_t)n * (n - 1) / 2;
	size_t cap = n + npairs + 1;
	Z3_ast *tmp = (Z3_ast *)malloc(sizeof(Z3_ast) * cap);
	if (tmp == NULL) {
		musket_err = Z3_MEMOUT_FAIL;
		return NULL;
	}
	Z3_ast *negs = tmp;
	Z3_ast *clauses = tmp + n;
	size_t nneg = 0, ncl = 0;
	Z3_ast r = NULL;
	for (unsigned i = 0; i < n; i++) {
		Z3_ast x = Z3_mk_not(c, args[i]);
		if (x == NULL || musket_err != 0) {
			goto out;
		}
		Z3_inc_ref(c, x);
		negs[nneg++] = x;
	}
	if (at_least_one) {
		Z3_ast x = n == 1 ? args[0] : Z3_mk_or(c, n, args);
		if (x == NULL || musket_err != 0) {
			goto out;
		}
		Z3_inc_ref(c, x);
		clauses[ncl++] = x;
	}
	for (unsigned i = 0; i < n; i++) {
		for (unsigned j = i + 1; j < n; j++) {
			Z3_ast pair[2] = {negs[i], negs[j]};
			Z3_ast x = Z3_mk_or(c, 2, pair);
			if (x == NULL || musket_err != 0) {
				goto out;
			}
			Z3_inc_ref(c, x);
			clauses[ncl++] = x;
		}
	}
	if (ncl == 0) {
		r = Z3_mk_true(c);
	} else if (ncl == 1) {
		r = clauses[0];
	} else {
		r = Z3_mk_and(c, (unsigned)ncl, clauses);
	}
	if (r != NULL && musket_err == 0) {
		Z3_inc_ref(c, r); // keep r alive while the parts are released
	} else {
		r = NULL;
	}
out:;
	int saved = musket_err;
	for (size_t i = 0; i < nneg; i++) {
		Z3_dec_ref(c, negs[i]);
	}
	for (size_t i = 0; i < ncl; i++) {
		Z3_dec_ref(c, clauses[i]);
	}
	free(tmp);
	musket_err = saved;
	return r;
}

musket_res musket_app(Z3_context c, int op, unsigned n, const Z3_ast *args, unsigned k1, unsigned k2) {
	musket_err = 0;
	Z3_ast a = n > 0 ? args[0] : NULL;
	Z3_ast b = n > 1 ? args[1] : NULL;
	Z3_ast r = NULL;
	switch (op) {
	case MUSKET_OP_NOT: r = Z3_mk_not(c, a); break;
	case MUSKET_OP_NEG: r = Z3_mk_unary_minus(c, a); break;
	case MUSKET_OP_TO_REAL: r = Z3_mk_int2real(c, a); break;
	case MUSKET_OP_TO_INT: r = Z3_mk_real2int(c, a); break;
	case MUSKET_OP_IS_INT: r = Z3_mk_is_int(c, a); break;
	case MUSKET_OP_BVNOT: r = Z3_mk_bvnot(c, a); break;
	case MUSKET_OP_BVNEG: r = Z3_mk_bvneg(c, a); break;
	case MUSKET_OP_EXTRACT: r = Z3_mk_extract(c, k1, k2, a); break;
	case MUSKET_OP_ZERO_EXT: r = Z3_mk_zero_ext(c, k1, a); break;
	case MUSKET_OP_SIGN_EXT: r = Z3_mk_sign_ext(c, k1, a); break;
	case MUSKET_OP_INT2BV: r = Z3_mk_int2bv(c, k1, a); break;
	case MUSKET_OP_BV2INT: r = Z3_mk_bv2int(c, a, k1 != 0); break;
	case MUSKET_OP_SIMPLIFY: r = Z3_simplify(c, a); break;

	case MUSKET_OP_IMPLIES: r = Z3_mk_implies(c, a, b); break;
	case MUSKET_OP_IFF: r = Z3_mk_iff(c, a, b); break;
	case MUSKET_OP_XOR: r = Z3_mk_xor(c, a, b); break;
	case MUSKET_OP_EQ: r = Z3_mk_eq(c, a, b); break;
	case MUSKET_OP_DIV: r = Z3_mk_div(c, a, b); break;
	case MUSKET_OP_MOD: r = Z3_mk_mod(c, a, b); break;
	case MUSKET_OP_REM: r = Z3_mk_rem(c, a, b); break;
	case MUSKET_OP_LT: r = Z3_mk_lt(c, a, b); break;
	case MUSKET_OP_LE: r = Z3_mk_le(c, a, b); break;
	case MUSKET_OP_GT: r = Z3_mk_gt(c, a, b); break;
	case MUSKET_OP_GE: r = Z3_mk_ge(c, a, b); break;
	case MUSKET_OP_BVADD: r = Z3_mk_bvadd(c, a, b); break;
	case MUSKET_OP_BVSUB: r = Z3_mk_bvsub(c, a, b); break;
	case MUSKET_OP_BVMUL: r = Z3_mk_bvmul(c, a, b); break;
	case MUSKET_OP_BVUDIV: r = Z3_mk_bvudiv(c, a, b); break;
	case MUSKET_OP_BVSDIV: r = Z3_mk_bvsdiv(c, a, b); break;
	case MUSKET_OP_BVUREM: r = Z3_mk_bvurem(c, a, b); break;
	case MUSKET_OP_BVSREM: r = Z3_mk_bvsrem(c, a, b); break;
	case MUSKET_OP_BVSMOD: r = Z3_mk_bvsmod(c, a, b); break;
	case MUSKET_OP_BVAND: r = Z3_mk_bvand(c, a, b); break;
	case MUSKET_OP_BVOR: r = Z3_mk_bvor(c, a, b); break;
	case MUSKET_OP_BVXOR: r = Z3_mk_bvxor(c, a, b); break;
	case MUSKET_OP_BVSHL: r = Z3_mk_bvshl(c, a, b); break;
	case MUSKET_OP_BVLSHR: r = Z3_mk_bvlshr(c, a, b); break;
	case MUSKET_OP_BVASHR: r = Z3_mk_bvashr(c, a, b); break;
	case MUSKET_OP_BVULT: r = Z3_mk_bvult(c, a, b); break;
	case MUSKET_OP_BVULE: r = Z3_mk_bvule(c, a, b); break;
	case MUSKET_OP_BVUGT: r = Z3_mk_bvugt(c, a, b); break;
	case MUSKET_OP_BVUGE: r = Z3_mk_bvuge(c, a, b); break;
	case MUSKET_OP_BVSLT: r = Z3_mk_bvslt(c, a, b); break;
	case MUSKET_OP_BVSLE: r = Z3_mk_bvsle(c, a, b); break;
	case MUSKET_OP_BVSGT: r = Z3_mk_bvsgt(c, a, b); break;
	case MUSKET_OP_BVSGE: r = Z3_mk_bvsge(c, a, b); break;
	case MUSKET_OP_CONCAT: r = Z3_mk_concat(c, a, b); break;

	case MUSKET_OP_ITE: r = Z3_mk_ite(c, a, b, args[2]); break;

	case MUSKET_OP_AND: r = Z3_mk_and(c, n, args); break;
	case MUSKET_OP_OR: r = Z3_mk_or(c, n, args); break;
	case MUSKET_OP_ADD: r = Z3_mk_add(c, n, args); break;
	case MUSKET_OP_SUB: r = Z3_mk_sub(c, n, args); break;
	case MUSKET_OP_MUL: r = Z3_mk_mul(c, n, args); break;
	case MUSKET_OP_DISTINCT: r = Z3_mk_distinct(c, n, args); break;
	case MUSKET_OP_ATMOST:
	case MUSKET_OP_ATLEAST:
	case MUSKET_OP_EXACTLY:
		r = mk_pb(c, op, n, args, k1);
		break;
	case MUSKET_OP_AMO_PAIRWISE:
	case MUSKET_OP_EO_PAIRWISE: {
		r = mk_pairwise(c, n, args, op == MUSKET_OP_EO_PAIRWISE);
		musket_res out = finish(c, r);
		if (r != NULL) {
			Z3_dec_ref(c, r); // drop mk_pairwise's extra reference
		}
		return out;
	}
	default:
		musket_err = Z3_INVALID_ARG;
	}
	return finish(c, r);
}

musket_res musket_app1(Z3_context c, int op, Z3_ast a, unsigned k1, unsigned k2) {
	Z3_ast args[1] = {a};
	return musket_app(c, op, 1, args, k1, k2);
}

musket_res musket_app2(Z3_context c, int op, Z3_ast a, Z3_ast b) {
	Z3_ast args[2] = {a, b};
	return musket_app(c, op, 2, args, 0, 0);
}

musket_res musket_app3(Z3_context c, int op, Z3_ast a, Z3_ast b, Z3_ast d) {
	Z3_ast args[3] = {a, b, d};
	return musket_app(c, op, 3, args, 0, 0);
}

int musket_sort_of(Z3_context c, Z3_ast a, unsigned *width) {
	musket_err = 0;
	*width = 0;
	Z3_sort s = Z3_get_sort(c, a);
	if (s == NULL || musket_err != 0) {
		return 0;
	}
	switch (Z3_get_sort_kind(c, s)) {
	case Z3_BOOL_SORT:
		return MUSKET_SORT_BOOL;
	case Z3_INT_SORT:
		return MUSKET_SORT_INT;
	case Z3_REAL_SORT:
		return MUSKET_SORT_REAL;
	case Z3_BV_SORT:
		*width = Z3_get_bv_sort_size(c, s);
		return MUSKET_SORT_BV;
	default:
		return 0;
	}
}

const char *musket_ast_string(Z3_context c, Z3_ast a) {
	musket_err = 0;
	const char *s = Z3_ast_to_string(c, a);
	return musket_err == 0 ? s : NULL;
}

Z3_solver musket_mk_solver(Z3_context c, const char *logic, size_t len, int simple, int *err) {
	musket_err = 0;
	Z3_solver s = NULL;
	if (simple) {
		s = Z3_mk_simple_solver(c);
	} else if (logic == NULL || len == 0) {
		s = Z3_mk_solver(c);
	} else {
		char small[MUSKET_SMALL];
		char *buf = cstr(logic, len, small);
		if (buf == NULL) {
			*err = Z3_MEMOUT_FAIL;
			return NULL;
		}
		Z3_symbol sym = Z3_mk_string_symbol(c, buf);
		if (musket_err == 0) {
			s = Z3_mk_solver_for_logic(c, sym);
		}
		free_cstr(buf, small);
	}
	*err = musket_err;
	if (s == NULL && *err == 0) {
		*err = Z3_EXCEPTION;
	}
	if (*err != 0) {
		return NULL;
	}
	Z3_solver_inc_ref(c, s);
	// Z3 installs its own SIGINT handler for the duration of a check
	// unless the solver's "ctrl_c" parameter is false (Z3 4.8.12 has no
	// global parameter for it). That handler is installed and restored
	// with signal(2), without SA_ONSTACK, and checks running at the same
	// time in other threads restore each other's handlers in the wrong
	// order, leaving a handler that points at a finished check: a Ctrl-C
	// then crashes the process (SIGSEGV) or is swallowed. Go owns the
	// signals; Musket stops a check with Z3_interrupt.
	Z3_params p = Z3_mk_params(c);
	if (p != NULL && musket_err == 0) {
		Z3_params_inc_ref(c, p);
		Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
		if (musket_err == 0) {
			Z3_solver_set_params(c, s, p);
		}
		int saved = musket_err;
		Z3_params_dec_ref(c, p);
		musket_err = saved;
	}
	if (musket_err != 0) {
		*err = musket_err;
		Z3_solver_dec_ref(c, s);
		musket_err = 0;
		return NULL;
	}
	return s;
}

uintptr_t musket_sigint_handler(void) {
	struct sigaction sa;
	if (sigaction(SIGINT, NULL, &sa) != 0) {
		return 0;
	}
	return (uintptr_t)sa.sa_handler;
}

int musket_assert(Z3_context c, Z3_solver s, unsigned n, const Z3_ast *args) {
	musket_err = 0;
	for (unsigned i = 0; i < n && musket_err == 0; i++) {
		Z3_solver_assert(c, s, args[i]);
	}
	return musket_err;
}

int musket_check(Z3_context c, Z3_solver s, unsigned n, const Z3_ast *args, int *err) {
	musket_err = 0;
	Z3_lbool r = n == 0 ? Z3_solver_check(c, s) : Z3_solver_check_assumptions(c, s, n, args);
	*err = musket_err;
	return *err == 0 ? (int)r : (int)Z3_L_UNDEF;
}

int musket_push(Z3_context c, Z3_solver s) {
	musket_err = 0;
	Z3_solver_push(c, s);
	return musket_err;
}

int musket_pop(Z3_context c, Z3_solver s, unsigned n) {
	musket_err = 0;
	Z3_solver_pop(c, s, n);
	return musket_err;
}

int musket_reset(Z3_context c, Z3_solver s) {
	musket_err = 0;
	Z3_solver_reset(c, s);
	return musket_err;
}

unsigned musket_num_scopes(Z3_context c, Z3_solver s) {
	musket_err = 0;
	unsigned n = Z3_solver_get_num_scopes(c, s);
	return musket_err == 0 ? n : 0;
}

int musket_set_param(Z3_context c, Z3_solver s, const char *name, size_t len, int is_bool, unsigned v) {
	musket_err = 0;
	char small[MUSKET_SMALL];
	char *buf = cstr(name, len, small);
	if (buf == NULL) {
		return Z3_MEMOUT_FAIL;
	}
	Z3_params p = Z3_mk_params(c);
	if (p != NULL && musket_err == 0) {
		Z3_params_inc_ref(c, p);
		Z3_symbol k = Z3_mk_string_symbol(c, buf);
		if (is_bool) {
			Z3_params_set_bool(c, p, k, v != 0);
		} else {
			Z3_params_set_uint(c, p, k, v);
		}
		if (musket_err == 0) {
			Z3_solver_set_params(c, s, p);
		}
		int saved = musket_err;
		Z3_params_dec_ref(c, p);
		musket_err = saved;
	}
	free_cstr(buf, small);
	return musket_err;
}

const char *musket_reason_unknown(Z3_context c, Z3_solver s) {
	musket_err = 0;
	const char *r = Z3_solver_get_reason_unknown(c, s);
	return musket_err == 0 ? r : NULL;
}

const char *musket_solver_string(Z3_context c, Z3_solver s) {
	musket_err = 0;
	const char *r = Z3_solver_to_string(c, s);
	return musket_err == 0 ? r : NULL;
}

Z3_model musket_get_model(Z3_context c, Z3_solver s) {
	musket_err = 0;
	Z3_model m = Z3_solver_get_model(c, s);
	if (m == NULL || musket_err != 0) {
		return NULL;
	}
	Z3_model_inc_ref(c, m);
	return m;
}

Z3_ast_vector musket_get_core(Z3_context c, Z3_solver s, unsigned *n) {
	musket_err = 0;
	*n = 0;
	Z3_ast_vector v = Z3_solver_get_unsat_core(c, s);
	if (v == NULL || musket_err != 0) {
		return NULL;
	}
	Z3_ast_vector_inc_ref(c, v);
	*n = Z3_ast_vector_size(c, v);
	return v;
}

// musket_take_vector moves the first n elements of v into out (each with
// a reference) and releases v.
void musket_take_vector(Z3_context c, Z3_ast_vector v, musket_res *out, unsigned n) {
	for (unsigned i = 0; i < n; i++) {
		musket_err = 0;
		out[i] = finish(c, Z3_ast_vector_get(c, v, i));
	}
	Z3_ast_vector_dec_ref(c, v);
	musket_err = 0;
}

Z3_stats musket_get_stats(Z3_context c, Z3_solver s, unsigned *n) {
	musket_err = 0;
	*n = 0;
	Z3_stats st = Z3_solver_get_statistics(c, s);
	if (st == NULL || musket_err != 0) {
		return NULL;
	}
	Z3_stats_inc_ref(c, st);
	*n = Z3_stats_size(c, st);
	return st;
}

const char *musket_stats_entry(Z3_context c, Z3_stats st, unsigned i, double *val) {
	musket_err = 0;
	const char *key = Z3_stats_get_key(c, st, i);
	if (Z3_stats_is_uint(c, st, i)) {
		*val = (double)Z3_stats_get_uint_value(c, st, i);
	} else {
		*val = Z3_stats_get_double_value(c, st, i);
	}
	return musket_err == 0 ? key : NULL;
}

const char *musket_stats_string(Z3_context c, Z3_stats st) {
	musket_err = 0;
	const char *r = Z3_stats_to_string(c, st);
	return musket_err == 0 ? r : NULL;
}

void musket_stats_release(Z3_context c, Z3_stats st) {
	Z3_stats_dec_ref(c, st);
	musket_err = 0;
}

musket_val musket_eval(Z3_context c, Z3_model m, Z3_ast t, int mode) {
	musket_val out = {0, 0, 0};
	musket_err = 0;
	Z3_ast v = NULL;
	if (!Z3_model_eval(c, m, t, true, &v) || v == NULL || musket_err != 0) {
		musket_err = 0;
		return out;
	}
	Z3_inc_ref(c, v);
	switch (mode) {
	case MUSKET_VAL_BOOL: {
		Z3_lbool b = Z3_get_bool_value(c, v);
		if (b != Z3_L_UNDEF) {
			out.ok = 1;
			out.a = b == Z3_L_TRUE;
		}
		break;
	}
	case MUSKET_VAL_INT64: {
		int64_t i = 0;
		if (Z3_is_numeral_ast(c, v) && Z3_get_numeral_int64(c, v, &i)) {
			out.ok = 1;
			out.a = i;
		}
		break;
	}
	case MUSKET_VAL_RATIONAL: {
		int64_t num = 0, den = 0;
		if (Z3_is_numeral_ast(c, v) && Z3_get_numeral_rational_int64(c, v, &num, &den)) {
			out.ok = 1;
			out.a = num;
			out.b = den;
		}
		break;
	}
	case MUSKET_VAL_UINT64: {
		uint64_t u = 0;
		if (Z3_is_numeral_ast(c, v) && Z3_get_numeral_uint64(c, v, &u)) {
			out.ok = 1;
			out.a = (int64_t)u;
		}
		break;
	}
	}
	if (musket_err != 0) {
		out.ok = 0;
	}
	Z3_dec_ref(c, v);
	musket_err = 0;
	return out;
}

musket_res musket_eval_term(Z3_context c, Z3_model m, Z3_ast t) {
	musket_err = 0;
	Z3_ast v = NULL;
	if (!Z3_model_eval(c, m, t, true, &v) && musket_err == 0) {
		musket_err = Z3_EXCEPTION;
	}
	return finish(c, v);
}

const char *musket_model_string(Z3_context c, Z3_model m) {
	musket_err = 0;
	const char *r = Z3_model_to_string(c, m);
	return musket_err == 0 ? r : NULL;
}

// ---- Acyclicity theory: the user propagator's trampolines into Go.

#include "_cgo_export.h"

static void prop_push(void *ctx) {
	musket_prop *p = (musket_prop *)ctx;
	if (p->handle != 0) {
		musketPropPush(p->handle);
	}
}

static void prop_pop(void *ctx, unsigned n) {
	musket_prop *p = (musket_prop *)ctx;
	if (p->handle != 0) {
		musketPropPop(p->handle, n);
	}
}

// A copy of the solver (Z3 makes them for parallel or translated
// solving, which Musket does not ask for) gets an inert state of its own:
// sharing the original's would corrupt it.
static void *prop_fresh(void *ctx, Z3_context nc) {
	musket_prop *p = (musket_prop *)ctx;
	p->fresh++;
	musket_prop *q = (musket_prop *)calloc(1, sizeof(musket_prop));
	if (q != NULL) {
		q->c = nc;
	}
	return q;
}

// Only edges that become true matter to acyclicity.
static void prop_fixed(void *ctx, Z3_solver_callback cb, unsigned id, Z3_ast value) {
	musket_prop *p = (musket_prop *)ctx;
	if (p == NULL || p->handle == 0) {
		return;
	}
	if (Z3_get_bool_value(p->c, value) == Z3_L_TRUE) {
		musketPropFixed(p->handle, cb, id);
	}
}

static void prop_final(void *ctx, Z3_solver_callback cb) {
	musket_prop *p = (musket_prop *)ctx;
	if (p != NULL && p->handle != 0) {
		musketPropFinal(p->handle, cb);
	}
}

musket_prop *musket_prop_init(Z3_context c, Z3_solver s, uintptr_t handle, int *err) {
	musket_err = 0;
	musket_prop *p = (musket_prop *)calloc(1, sizeof(musket_prop));
	if (p == NULL) {
		*err = Z3_MEMOUT_FAIL;
		return NULL;
	}
	p->c = c;
	p->handle = handle;
	Z3_solver_propagate_init(c, s, p, prop_push, prop_pop, prop_fresh);
	if (musket_err == 0) {
		Z3_solver_propagate_fixed(c, s, prop_fixed);
	}
	if (musket_err == 0) {
		Z3_solver_propagate_final(c, s, prop_final);
	}
	*err = musket_err;
	return p;
}

void musket_prop_free(musket_prop *p) {
	free(p->walk_ids);
	free(p->walk_state);
	free(p);
}

unsigned musket_prop_register(Z3_context c, Z3_solver s, Z3_ast e, int *err) {
	musket_err = 0;
	unsigned id = Z3_solver_propagate_register(c, s, e);
	*err = musket_err;
	return id;
}

void musket_prop_conflict(Z3_context c, Z3_solver_callback cb, unsigned n, const unsigned *ids) {
	musket_err = 0;
	Z3_solver_propagate_consequence(c, cb, n, ids, 0, NULL, NULL, Z3_mk_false(c));
	musket_err = 0;
}

// musket_watch_raw tells whether e can be given to the user propagator as
// it is (1), or only through a variable asserted equivalent to it (0:
// see register.go), or the walk ran out of memory (-1). e cannot when it
// is itself a theory atom (an argument not Boolean: Z3 refuses it,
// "malformed atomic constraint"), or when it holds a comparison Z3's
// arithmetic solver takes only preprocessed: x < y or x > y, or x <= y,
// x >= y other than a term against a number. Each subterm is visited once per propagator: what was
// found of it is kept in p's table by AST id (the subterms the literals
// of one encoding share are many: walking each literal's whole DAG made
// big_struct_ret's encoding under Power twice as long). The ids stay
// valid: the solver holds every literal it watched or asserted.
static int unpreprocessed(Z3_context c, Z3_ast t) {
	if (Z3_get_ast_kind(c, t) != Z3_APP_AST) {
		return 0;
	}
	Z3_app a = Z3_to_app(c, t);
	switch (Z3_get_decl_kind(c, Z3_get_app_decl(c, a))) {
	case Z3_OP_LT:
	case Z3_OP_GT:
		return 1;
	case Z3_OP_LE:
	case Z3_OP_GE:
		return Z3_get_app_num_args(c, a) != 2 || Z3_is_numeral_ast(c, Z3_get_app_arg(c, a, 0)) ||
			!Z3_is_numeral_ast(c, Z3_get_app_arg(c, a, 1));
	default:
		return 0;
	}
}

// walk_find returns the slot of id in p's table: its own, or the free
// one where it goes.
static size_t walk_find(musket_prop *p, unsigned id) {
	size_t h = (size_t)id * 2654435761u & (p->walk_cap - 1);
	while (p->walk_ids[h] != 0 && p->walk_ids[h] != id) {
		h = (h + 1) & (p->walk_cap - 1);
	}
	return h;
}

// walk_put records id's state; 0 on success, -1 out of memory.
static int walk_put(musket_prop *p, unsigned id, unsigned char st) {
	if ((p->walk_used + 1) * 2 > p->walk_cap) {
		size_t ocap = p->walk_cap, ncap = ocap ? ocap * 2 : 1024;
		unsigned *oids = p->walk_ids;
		unsigned char *ost = p->walk_state;
		unsigned *nids = (unsigned *)calloc(ncap, sizeof(unsigned));
		unsigned char *nst = (unsigned char *)malloc(ncap);
		if (nids == NULL || nst == NULL) {
			free(nids);
			free(nst);
			return -1;
		}
		p->walk_ids = nids;
		p->walk_state = nst;
		p->walk_cap = ncap;
		for (size_t i = 0; i < ocap; i++) {
			if (oids[i] != 0) {
				size_t k = walk_find(p, oids[i]);
				p->walk_ids[k] = oids[i];
				p->walk_state[k] = ost[i];
			}
		}
		free(oids);
		free(ost);
	}
	size_t h = walk_find(p, id);
	if (p->walk_ids[h] == 0) {
		p->walk_used++;
	}
	p->walk_ids[h] = id;
	p->walk_state[h] = st;
	return 0;
}

static unsigned char walk_get(musket_prop *p, unsigned id) {
	if (p->walk_cap == 0) {
		return 0;
	}
	size_t h = walk_find(p, id);
	return p->walk_ids[h] == id ? p->walk_state[h] : 0;
}

// musket_watch_forget empties p's table (after a reset of the solver,
// which releases the literals: their ids may be given to new terms).
void musket_watch_forget(musket_prop *p) {
	free(p->walk_ids);
	free(p->walk_state);
	p->walk_ids = NULL;
	p->walk_state = NULL;
	p->walk_cap = 0;
	p->walk_used = 0;
}

int musket_watch_raw(musket_prop *p, Z3_ast e) {
	Z3_context c = p->c;
	musket_err = 0;
	if (Z3_get_ast_kind(c, e) == Z3_APP_AST) {
		Z3_app a = Z3_to_app(c, e);
		unsigned n = Z3_get_app_num_args(c, a);
		for (unsigned i = 0; i < n; i++) {
			if (Z3_get_sort_kind(c, Z3_get_sort(c, Z3_get_app_arg(c, a, i))) != Z3_BOOL_SORT) {
				musket_err = 0;
				return 0;
			}
		}
	}
	// A depth-first walk, each subterm's state recorded after its
	// arguments' (the table is kept across calls: the subterms the
	// literals of one solver share are walked once). A stack entry is an
	// AST, its low bit set for the visit after the arguments.
	size_t top = 0, scap = 64;
	uintptr_t *stack = (uintptr_t *)malloc(scap * sizeof(uintptr_t));
	int r = -1;
	if (stack == NULL) {
		goto out;
	}
	stack[top++] = (uintptr_t)e;
	while (top > 0) {
		uintptr_t x = stack[--top];
		Z3_ast t = (Z3_ast)(x & ~(uintptr_t)1);
		unsigned id = Z3_get_ast_id(c, t) + 1;
		if (x & 1) {
			unsigned char st = unpreprocessed(c, t) ? 2 : 1;
			if (st == 1 && Z3_get_ast_kind(c, t) == Z3_APP_AST) {
				Z3_app a = Z3_to_app(c, t);
				unsigned n = Z3_get_app_num_args(c, a);
				for (unsigned i = 0; i < n && st == 1; i++) {
					st = walk_get(p, Z3_get_ast_id(c, Z3_get_app_arg(c, a, i)) + 1);
				}
			}
			if (walk_put(p, id, st) != 0) {
				goto out;
			}
			continue;
		}
		if (walk_get(p, id) != 0) {
			continue;
		}
		unsigned n = 0;
		Z3_app a = NULL;
		if (Z3_get_ast_kind(c, t) == Z3_APP_AST) {
			a = Z3_to_app(c, t); // else a bound variable or quantifier: not made by Musket
			n = Z3_get_app_num_args(c, a);
		}
		if (top + n + 1 > scap) {
			while (top + n + 1 > scap) {
				scap *= 2;
			}
			uintptr_t *ns = (uintptr_t *)realloc(stack, scap * sizeof(uintptr_t));
			if (ns == NULL) {
				goto out;
			}
			stack = ns;
		}
		stack[top++] = (uintptr_t)t | 1;
		for (unsigned i = 0; i < n; i++) {
			stack[top++] = (uintptr_t)Z3_get_app_arg(c, a, i);
		}
	}
	r = walk_get(p, Z3_get_ast_id(c, e) + 1) == 1 ? 1 : 0;
out:
	free(stack);
	if (musket_err != 0) {
		r = -1;
	}
	musket_err = 0;
	return r;
}
