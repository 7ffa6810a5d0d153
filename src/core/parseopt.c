/*
 * The option parser. Long options may be written --name=value or --name value;
 * short options -r 5 or -r5. "--" ends the options. Misspelled long options
 * get a near-name suggestion, since `--rpeat` is a typo far more often than a
 * request for something new.
 */
#include "core/parseopt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/suggest.h"

static const char *opt_label(const struct option *o, char buf[64])
{
	if (o->long_name)
		snprintf(buf, 64, "--%s", o->long_name);
	else
		snprintf(buf, 64, "-%c", o->short_name);
	return buf;
}

static int opt_bounds_ok(const struct option *o, double v)
{
	if (o->min == 0 && o->max == 0)
		return 1;
	return v >= o->min && v <= o->max;
}

/* A bound as a person writes it: 1000000, not 1e+06. */
static const char *bound_text(double v, char buf[32])
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, 32, "%.0f", v);
	else
		snprintf(buf, 32, "%g", v);
	return buf;
}

static int opt_range_hint(const struct option *o, struct error *err)
{
	char lo[32], hi[32];

	if (o->min != 0 || o->max != 0)
		error_hint(err, "use a value from %s to %s", bound_text(o->min, lo),
			   bound_text(o->max, hi));
	return -1;
}

static int opt_bad_value(const struct option *o, const char *arg, const char *what,
			 struct error *err)
{
	char lab[64];

	error_set(err, ERR_USAGE, "option '%s' expects %s, not '%s'",
		  opt_label(o, lab), what, arg);
	return opt_range_hint(o, err);
}

/* A well-formed number outside the option's bounds: the words say so,
 * rather than claiming that '200' is not a number. */
static int opt_out_of_range(const struct option *o, const char *arg, struct error *err)
{
	char lab[64];

	error_set(err, ERR_USAGE, "option '%s': '%s' is out of range", opt_label(o, lab), arg);
	return opt_range_hint(o, err);
}

static int opt_set_uint(const struct option *o, const char *arg, struct error *err)
{
	const char *what = o->min >= 1 ? "a positive integer" : "a non-negative integer";
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*arg || *arg == '-' || *arg == '+')
		return opt_bad_value(o, arg, what, err);
	v = strtoull(arg, &end, 10);
	if (*end || (errno && errno != ERANGE))
		return opt_bad_value(o, arg, what, err);
	/* 0 where a positive integer is due is the wrong kind of number. */
	if (v == 0 && o->min >= 1)
		return opt_bad_value(o, arg, what, err);
	if (errno || v > 0xffffffffu || !opt_bounds_ok(o, (double)v))
		return opt_out_of_range(o, arg, err);
	*(unsigned *)o->value = (unsigned)v;
	return 0;
}

static int opt_set_double(const struct option *o, const char *arg, struct error *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || (errno && errno != ERANGE) || isnan(v))
		return opt_bad_value(o, arg, "a number", err);
	if (errno || !isfinite(v) || !opt_bounds_ok(o, v))
		return opt_out_of_range(o, arg, err);
	*(double *)o->value = v;
	return 0;
}

static void opt_append_list(const struct option *o, const char *arg)
{
	char **slot = o->value;
	struct strbuf sb = STRBUF_INIT;

	if (*slot) {
		strbuf_adds(&sb, *slot);
		strbuf_addch(&sb, ',');
		free(*slot);
	}
	strbuf_adds(&sb, arg);
	*slot = strbuf_detach(&sb);
}

static int opt_store(const struct option *o, const char *arg, struct error *err)
{
	switch (o->type) {
	case OPT_BOOL:
		*(int *)o->value = 1;
		return 0;
	case OPT_COUNT:
		(*(int *)o->value)++;
		return 0;
	case OPT_UINT:
		return opt_set_uint(o, arg, err);
	case OPT_DOUBLE:
		return opt_set_double(o, arg, err);
	case OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_LIST:
		opt_append_list(o, arg);
		return 0;
	case OPT_CALLBACK:
		return o->callback(o, arg, err);
	default:
		return 0;
	}
}

static int opt_apply(const struct option *o, const char *arg, struct error *err)
{
	if (opt_store(o, arg, err))
		return -1;
	if (o->given)
		*o->given = 1;
	return 0;
}

static int opt_takes_arg(const struct option *o)
{
	return o->argh != NULL;
}

static int opt_unknown_long(const char *name, size_t len, const struct option *opts,
			    struct error *err)
{
	const char *cands[128];
	size_t n = 0;
	const char *best;
	char *want = xstrndup(name, len);

	for (const struct option *o = opts; o->type != OPT_END && n < 128; o++)
		if (o->long_name)
			cands[n++] = o->long_name;
	error_set(err, ERR_USAGE, "unknown option '--%s'", want);
	best = suggest_option(want, cands, n);
	if (best)
		error_hint(err, "did you mean '--%s'? (see -h)", best);
	else
		error_hint(err, "see the options with -h");
	free(want);
	return -1;
}

/* An option of several words: the next nargs arguments, joined. */
static int opt_apply_words(const struct option *o, int argc, const char **argv, int *i,
			   const char *eq, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	char lab[64];
	int rc;

	if (eq || *i + (int)o->nargs >= argc) {
		error_set(err, ERR_USAGE, "option '%s' takes %u values: %s %s", opt_label(o, lab),
			  o->nargs, lab, o->argh);
		return error_hint(err, "write them after the option as %u separate words",
				  o->nargs);
	}
	for (unsigned k = 0; k < o->nargs; k++) {
		if (k)
			strbuf_addch(&sb, PARSE_OPT_SEP);
		strbuf_adds(&sb, argv[++*i]);
	}
	rc = opt_apply(o, sb.buf, err);
	strbuf_release(&sb);
	return rc;
}

static int parse_long(int argc, const char **argv, int *i, const struct option *opts,
		      struct error *err)
{
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	char lab[64];

	for (const struct option *o = opts; o->type != OPT_END; o++) {
		if (!o->long_name || strlen(o->long_name) != len ||
		    strncmp(o->long_name, name, len))
			continue;
		if (o->optional_arg)
			return opt_apply(o, eq ? eq + 1 : NULL, err);
		if (!opt_takes_arg(o)) {
			if (eq)
				return error_set(err, ERR_USAGE, "option '%s' takes no value",
						 opt_label(o, lab));
			return opt_apply(o, NULL, err);
		}
		if (o->nargs > 1)
			return opt_apply_words(o, argc, argv, i, eq, err);
		if (eq)
			return opt_apply(o, eq + 1, err);
		if (*i + 1 >= argc)
			return error_set(err, ERR_USAGE, "option '%s' requires a value",
					 opt_label(o, lab));
		return opt_apply(o, argv[++*i], err);
	}
	return opt_unknown_long(name, len, opts, err);
}

static int parse_short(int argc, const char **argv, int *i, const struct option *opts,
		       struct error *err)
{
	const char *p = argv[*i] + 1;

	for (; *p; p++) {
		const struct option *o;

		for (o = opts; o->type != OPT_END; o++)
			if (o->short_name && o->short_name == *p)
				break;
		if (o->type == OPT_END) {
			error_set(err, ERR_USAGE, "unknown switch '%c'", *p);
			return error_hint(err, "see the options with -h");
		}
		if (!opt_takes_arg(o)) {
			if (opt_apply(o, NULL, err))
				return -1;
			continue;
		}
		if (p[1])
			return opt_apply(o, p + 1, err);
		if (*i + 1 >= argc)
			return error_set(err, ERR_USAGE, "switch '%c' requires a value", *p);
		return opt_apply(o, argv[++*i], err);
	}
	return 0;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  int flags, struct error *err)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			return i + 1;
		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				return i;
			error_set(err, ERR_USAGE, "unexpected argument '%s'", a);
			return error_hint(err, "options come first; put commands after '--'");
		}
		if (a[1] == '-' ? parse_long(argc, argv, &i, opts, err)
				: parse_short(argc, argv, &i, opts, err))
			return -1;
	}
	return i;
}

char *parse_options_usage(const char *usage_line, const struct option *opts)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "usage: %s\n", usage_line);
	for (const struct option *o = opts; o->type != OPT_END; o++) {
		char lhs[80], arg[40] = "";

		if (o->type == OPT_GROUP) {
			strbuf_addf(&sb, "\n%s\n", o->help);
			continue;
		}
		if (o->argh)
			snprintf(arg, sizeof(arg), "%s%s", o->optional_arg ? "" : " ", o->argh);
		if (o->short_name && o->long_name)
			snprintf(lhs, sizeof(lhs), "-%c, --%s%s", o->short_name, o->long_name, arg);
		else if (o->short_name)
			snprintf(lhs, sizeof(lhs), "-%c%s", o->short_name, arg);
		else
			snprintf(lhs, sizeof(lhs), "    --%s%s", o->long_name, arg);
		/* A long left side gets the help on a line of its own, as in git. */
		if (strlen(lhs) > 26)
			strbuf_addf(&sb, "    %s\n    %-26s %s\n", lhs, "", o->help);
		else
			strbuf_addf(&sb, "    %-26s %s\n", lhs, o->help);
	}
	return strbuf_detach(&sb);
}
