/*
 * Formulas of derived metrics and of multi-event mappings ("1000 *
 * l2-misses / instructions", "a + b"): a recursive-descent parser that
 * either collects the names used or evaluates with a caller-supplied
 * lookup. Kept tiny on purpose: the catalogue needs arithmetic, not a
 * language. Names may contain '-' inside a word, which is why subtraction
 * needs spaces around it. Formulas come from data files (and results), so
 * nesting is bounded: the parser recurses once per '(' or unary '-', and a
 * file of opening parentheses must be a syntax error, not a stack overflow.
 */
#include "catalog/catalog.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Far beyond any formula of the catalogue (they nest two or three deep). */
#define MAX_NESTING 64

struct fparse {
	const char *src, *p;
	int depth;		/* ( and unary - being parsed */
	formula_lookup get;	/* NULL: collect names instead of evaluating */
	void *ctx;
	char **names;
	size_t n, alloc;
	struct error *err;
};

static int name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == ':';
}

static void skip_blank(struct fparse *f)
{
	while (isspace((unsigned char)*f->p))
		f->p++;
}

static int syntax(struct fparse *f, const char *what)
{
	/* Quoted in part: the formula may be a file's worth of text. */
	error_set(f->err, ERR_RUNTIME, "bad formula '%.80s%s': %s at offset %zu", f->src,
		  strlen(f->src) > 80 ? "..." : "", what, (size_t)(f->p - f->src));
	return error_hint(f->err, "formulas use names, numbers, + - * / and parentheses; "
			  "write subtraction as 'a - b'");
}

static void add_name(struct fparse *f, const char *s, size_t len)
{
	for (size_t i = 0; i < f->n; i++)
		if (strlen(f->names[i]) == len && !strncmp(f->names[i], s, len))
			return;
	ALLOC_GROW(f->names, f->n + 1, f->alloc);
	f->names[f->n++] = xstrndup(s, len);
}

static int expr(struct fparse *f, double *v);

static int name_value(struct fparse *f, double *v)
{
	const char *s = f->p;
	char *name;
	int r = 0;

	while (name_char((unsigned char)*f->p) ||
	       (*f->p == '-' && isalnum((unsigned char)f->p[1]) && f->p > s))
		f->p++;
	if (!f->get) {
		add_name(f, s, (size_t)(f->p - s));
		*v = 1;
		return 0;
	}
	name = xstrndup(s, (size_t)(f->p - s));
	if (f->get(f->ctx, name, v) < 0) {
		error_set(f->err, ERR_RUNTIME, "formula '%s' uses '%s', which has no value",
			  f->src, name);
		r = -1;
	}
	free(name);
	return r;
}

static int primary(struct fparse *f, double *v);

/* A nested primary: '(' expr ')' or '-' primary, within MAX_NESTING. */
static int nested(struct fparse *f, double *v)
{
	int r;

	if (f->depth == MAX_NESTING)
		return syntax(f, "nested too deeply");
	f->depth++;
	if (*f->p++ == '-') {
		if ((r = primary(f, v)) == 0)
			*v = -*v;
	} else if ((r = expr(f, v)) == 0) {
		skip_blank(f);
		r = *f->p == ')' ? 0 : syntax(f, "missing ')'");
		f->p += r == 0;
	}
	f->depth--;
	return r;
}

static int primary(struct fparse *f, double *v)
{
	char *end;

	skip_blank(f);
	if (*f->p == '(' || *f->p == '-')
		return nested(f, v);
	if (isdigit((unsigned char)*f->p)) {
		*v = strtod(f->p, &end);
		f->p = end;
		return 0;
	}
	if (isalpha((unsigned char)*f->p) || *f->p == '_')
		return name_value(f, v);
	return syntax(f, *f->p ? "unexpected character" : "unexpected end");
}

static int term(struct fparse *f, double *v)
{
	double r;

	if (primary(f, v) < 0)
		return -1;
	for (;;) {
		char op;

		skip_blank(f);
		op = *f->p;
		if (op != '*' && op != '/')
			return 0;
		f->p++;
		if (primary(f, &r) < 0)
			return -1;
		if (op == '*')
			*v *= r;
		else
			*v = r == 0 ? NAN : *v / r;
	}
}

static int expr(struct fparse *f, double *v)
{
	double r;

	if (term(f, v) < 0)
		return -1;
	for (;;) {
		char op;

		skip_blank(f);
		op = *f->p;
		if (op != '+' && op != '-')
			return 0;
		f->p++;
		if (term(f, &r) < 0)
			return -1;
		*v = op == '+' ? *v + r : *v - r;
	}
}

static int run(struct fparse *f, double *v)
{
	if (expr(f, v) < 0)
		return -1;
	skip_blank(f);
	return *f->p ? syntax(f, "unexpected character") : 0;
}

static int no_formula(struct error *err)
{
	error_set(err, ERR_RUNTIME, "no formula given");
	return error_hint(err, "give a formula of names, numbers, + - * / and parentheses");
}

int formula_names(const char *formula, char ***names, size_t *n, struct error *err)
{
	struct fparse f = { formula, formula, 0, NULL, NULL, NULL, 0, 0, err };
	double v;

	*names = NULL;
	*n = 0;
	if (!formula)
		return no_formula(err);
	if (run(&f, &v) < 0) {
		for (size_t i = 0; i < f.n; i++)
			free(f.names[i]);
		free(f.names);
		return -1;
	}
	*names = f.names;
	*n = f.n;
	return 0;
}

int formula_eval(const char *formula, formula_lookup get, void *ctx, double *out,
		 struct error *err)
{
	struct fparse f = { formula, formula, 0, get, ctx, NULL, 0, 0, err };

	if (!formula)
		return no_formula(err);
	return run(&f, out);
}
