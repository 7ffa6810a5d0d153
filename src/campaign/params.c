/*
 * The parameter options (see variants.h): --parameter-list NAME A,B,C and
 * --parameter-scan NAME MIN MAX [--parameter-step-size D] into named lists
 * of values. A scan is expanded once every option is read (the step may
 * come after it), with no more decimals than its start and step were
 * written with: --parameter-scan t 0 1 --parameter-step-size 0.25 gives
 * 0.00, 0.25, ... 1.00, never 0.7500000001. Hyperfine's rule holds: without
 * a step, the bounds must be integers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/variants.h"
#include "core/parseopt.h"
#include "core/strbuf.h"

static int check_param_name(struct variant_args *va, const char *name, const char *opt,
			    struct error *err)
{
	if (!*name || strpbrk(name, "{}, \t")) {
		error_set(err, ERR_USAGE, "%s: '%s' is not a parameter name", opt, name);
		return error_hint(err, "use a plain word, e.g. %s cap ... and {cap} in the command",
				  opt);
	}
	for (size_t i = 0; i < va->nparams; i++)
		if (!strcmp(va->params[i].name, name)) {
			error_set(err, ERR_USAGE, "parameter '%s' is given twice", name);
			return error_hint(err, "give each parameter once");
		}
	if (va->nparams == VARIANT_MAX_PARAMS)
		return error_set(err, ERR_USAGE, "too many parameters (at most %d)",
				 VARIANT_MAX_PARAMS);
	return 0;
}

static struct variant_param *new_param(struct variant_args *va, const char *name)
{
	struct variant_param *p = &va->params[va->nparams++];

	p->name = variant_own(va, xstrdup(name));
	return p;
}

static void param_push(struct variant_args *va, struct variant_param *p, char *value)
{
	p->values = xrealloc(p->values, (p->n + 1) * sizeof(char *));
	p->values[p->n++] = variant_own(va, value);
}

int variant_opt_list(const struct option *opt, const char *arg, struct error *err)
{
	struct variant_args *va = opt->cb_data;
	const char *sep = strchr(arg, PARSE_OPT_SEP);
	char *name = xstrndup(arg, (size_t)(sep - arg));
	struct variant_param *p;
	const char *v = sep + 1;
	int rc = check_param_name(va, name, "--parameter-list", err);

	if (rc) {
		free(name);
		return -1;
	}
	p = new_param(va, name);
	free(name);
	for (;;) {
		const char *end = strchr(v, ',');
		size_t len = end ? (size_t)(end - v) : strlen(v);

		if (!len) {
			error_set(err, ERR_USAGE, "--parameter-list %s: empty value in '%s'",
				  p->name, sep + 1);
			return error_hint(err, "separate the values with single commas: "
					       "--parameter-list %s 1,2,4", p->name);
		}
		param_push(va, p, xstrndup(v, len));
		if (!end)
			break;
		v = end + 1;
	}
	return 0;
}

int variant_opt_scan(const struct option *opt, const char *arg, struct error *err)
{
	struct variant_args *va = opt->cb_data;

	if (va->scan)
		return error_set(err, ERR_USAGE, "--parameter-scan is given twice"),
		       error_hint(err, "scan one parameter; add others with --parameter-list");
	va->scan = variant_own(va, xstrdup(arg));	/* the parser's joined words are its own */
	return 0;
}

/* ---- the scan's values ---- */

/* Decimals a number was written with ("0.25" -> 2). */
static int decimals(const char *s)
{
	const char *dot = strchr(s, '.');
	size_t n = 0;

	if (!dot)
		return 0;
	while (dot[1 + n] >= '0' && dot[1 + n] <= '9')
		n++;
	return (int)n;
}

static int scan_number(const char *w, const char *what, double *v, struct error *err)
{
	char *end;

	*v = strtod(w, &end);
	if (!*w || *end || !isfinite(*v)) {
		error_set(err, ERR_USAGE, "--parameter-scan: %s '%s' is not a number", what, w);
		return error_hint(err, "e.g. --parameter-scan threads 1 8");
	}
	return 0;
}

int variant_scan_values(struct variant_args *va, struct error *err)
{
	char *words = xstrdup(va->scan), *w[3], *p = words;
	double lo, hi;
	int dec, rc = -1;
	struct variant_param *par;
	char stepbuf[64];

	for (int i = 0; i < 3; i++) {
		w[i] = p;
		p = strchr(p, PARSE_OPT_SEP);
		if (p)
			*p++ = '\0';
	}
	if (check_param_name(va, w[0], "--parameter-scan", err) ||
	    scan_number(w[1], "the start", &lo, err) || scan_number(w[2], "the end", &hi, err))
		goto out;
	if (!va->step_given && (lo != floor(lo) || hi != floor(hi))) {
		error_set(err, ERR_USAGE, "--parameter-scan %s: '%s' and '%s' must be integers "
			  "without --parameter-step-size", w[0], w[1], w[2]);
		error_hint(err, "add --parameter-step-size D for decimal steps");
		goto out;
	}
	if (hi < lo) {
		error_set(err, ERR_USAGE, "--parameter-scan %s: the end %s is below the start %s",
			  w[0], w[2], w[1]);
		error_hint(err, "write the smaller value first: --parameter-scan %s %s %s", w[0],
			   w[2], w[1]);
		goto out;
	}
	/* A tiny tolerance, so 0 to 1 by 0.1 ends at 1, not at 0.9. */
	if ((hi - lo) / va->step + 1 > RESULT_MAX_VARIANTS + 0.5) {
		error_set(err, ERR_USAGE, "--parameter-scan %s %s %s makes more than %d variants",
			  w[0], w[1], w[2], RESULT_MAX_VARIANTS);
		error_hint(err, "raise --parameter-step-size or narrow the range");
		goto out;
	}
	snprintf(stepbuf, sizeof(stepbuf), "%.15g", va->step);
	dec = decimals(w[1]) > decimals(stepbuf) ? decimals(w[1]) : decimals(stepbuf);
	par = new_param(va, w[0]);
	for (size_t i = 0;; i++) {
		double v = lo + (double)i * va->step;
		char buf[64];

		if (v > hi + va->step * 1e-9)
			break;
		snprintf(buf, sizeof(buf), "%.*f", dec, v);
		param_push(va, par, xstrdup(buf));
	}
	rc = 0;
out:
	free(words);
	return rc;
}
