/*
 * Commands, shells, parameters and hooks into variants (see variants.h).
 * Everything built here is owned by the variant_args and freed with it.
 * Parameter values (params.c) are strings, put in wherever "{NAME}"
 * stands: the command words, the -n name, the hook commands.
 */
#include "campaign/variants.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/words.h"

void *variant_own(struct variant_args *va, void *p)
{
	va->owned = xrealloc(va->owned, (va->nowned + 1) * sizeof(void *));
	va->owned[va->nowned++] = p;
	return p;
}

void variant_args_init(struct variant_args *va)
{
	memset(va, 0, sizeof(*va));
	va->step = 1;
	for (int k = 0; k < HOOK_KINDS; k++)
		va->rows[k] = (struct hook_row){ va, (enum hook_kind)k };
}

void variant_args_release(struct variant_args *va)
{
	for (size_t i = va->nowned; i-- > 0;)
		free(va->owned[i]);
	free(va->owned);
	for (int k = 0; k < HOOK_KINDS; k++)
		free(va->hook_str[k]);
	for (size_t i = 0; i < va->nparams; i++)
		free(va->params[i].values);
	va->owned = NULL;
	va->nowned = 0;
}

/* ---- options ---- */

int variant_opt_shell(const struct option *opt, const char *arg, struct error *err)
{
	struct variant_args *va = opt->cb_data;

	if (!*arg)
		return error_set(err, ERR_USAGE, "empty shell given to --shell");
	va->shell = strcmp(arg, "none") ? arg : NULL;
	return 0;
}

int variant_opt_hook(const struct option *opt, const char *arg, struct error *err)
{
	const struct hook_row *row = opt->cb_data;
	struct variant_args *va = row->va;
	size_t *n = &va->nhook[row->kind];

	if (!*arg)
		return error_set(err, ERR_USAGE, "empty command given to --%s", opt->long_name);
	va->hook_str[row->kind] = xrealloc(va->hook_str[row->kind], (*n + 1) * sizeof(char *));
	va->hook_str[row->kind][(*n)++] = arg;
	return 0;
}

/* ---- expansion ---- */

static int mentions(const char *s, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = s ? strchr(s, '{') : NULL; p; p = strchr(p + 1, '{'))
		if (!strncmp(p + 1, name, n) && p[1 + n] == '}')
			return 1;
	return 0;
}

/* s with every {NAME} of the parameters in use replaced by its value. */
static char *fill(struct variant_args *va, const char *s, const size_t *used, size_t nused,
		  const size_t *pick)
{
	struct strbuf sb = STRBUF_INIT;

	while (*s) {
		size_t k;

		for (k = 0; k < nused; k++) {
			const struct variant_param *p = &va->params[used[k]];
			size_t n = strlen(p->name);

			if (s[0] == '{' && !strncmp(s + 1, p->name, n) && s[1 + n] == '}') {
				strbuf_adds(&sb, p->values[pick[k]]);
				s += n + 2;
				break;
			}
		}
		if (k == nused)
			strbuf_addch(&sb, *s++);
	}
	return variant_own(va, strbuf_detach(&sb));
}

/* The hook string of kind k for segment s, or NULL. */
static const char *hook_of(const struct variant_args *va, int k, size_t s)
{
	if (!va->nhook[k])
		return NULL;
	return va->nhook[k] == 1 ? va->hook_str[k][0] : va->hook_str[k][s];
}

static int segment_mentions(const struct variant_args *va, size_t s, const char *name)
{
	const struct variant_segment *seg = &va->seg[s];

	if (mentions(seg->name, name))
		return 1;
	for (size_t w = 0; w < seg->nwords; w++)
		if (mentions(seg->words[w], name))
			return 1;
	for (int k = 0; k < HOOK_KINDS; k++)
		if (mentions(hook_of(va, k, s), name))
			return 1;
	return 0;
}

static char **shell_argv(struct variant_args *va, const char *cmd)
{
	char **argv = variant_own(va, xcalloc(4, sizeof(char *)));

	argv[0] = (char *)va->shell;
	argv[1] = "-c";
	argv[2] = (char *)cmd;
	return argv;
}

/* A hook's argv: through the shell, or split into words. */
static char **hook_argv(struct variant_args *va, const char *cmd, struct error *err)
{
	char **w;

	if (va->shell)
		return shell_argv(va, cmd);
	w = words_split(cmd, err);
	if (!w)
		return NULL;
	for (char **p = w; *p; p++)
		variant_own(va, *p);
	return variant_own(va, w);
}

/* The command of segment s for one pick of its parameters' values. */
static char **command_argv(struct variant_args *va, size_t s, const size_t *used, size_t nused,
			   const size_t *pick, struct error *err)
{
	const struct variant_segment *seg = &va->seg[s];
	char **argv;

	/* -N: a command string split into words, as a hook is. */
	if ((seg->is_string || seg->nwords == 1) && va->split)
		return hook_argv(va, fill(va, seg->words[0], used, nused, pick), err);
	if (va->shell) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t w = 0; w < seg->nwords; w++)
			strbuf_addf(&sb, "%s%s", w ? " " : "", seg->words[w]);
		argv = shell_argv(va, fill(va, sb.buf, used, nused, pick));
		strbuf_release(&sb);
		return argv;
	}
	argv = variant_own(va, xcalloc(seg->nwords + 1, sizeof(char *)));
	for (size_t w = 0; w < seg->nwords; w++)
		argv[w] = fill(va, seg->words[w], used, nused, pick);
	return argv;
}

static const char *variant_name(struct variant_args *va, size_t s, const size_t *used,
				size_t nused, const size_t *pick)
{
	struct strbuf sb = STRBUF_INIT;

	if (va->seg[s].name)
		return fill(va, va->seg[s].name, used, nused, pick);
	if (!nused)
		return NULL;
	for (size_t k = 0; k < nused; k++)
		strbuf_addf(&sb, "%s%s=%s", k ? "," : "", va->params[used[k]].name,
			    va->params[used[k]].values[pick[k]]);
	return variant_own(va, strbuf_detach(&sb));
}

static int add_one(struct variant_args *va, size_t s, const size_t *used, size_t nused,
		   const size_t *pick, struct error *err)
{
	size_t v = va->n;

	if (v == RESULT_MAX_VARIANTS) {
		error_set(err, ERR_USAGE, "the parameters make more than %d variants",
			  RESULT_MAX_VARIANTS);
		return error_hint(err, "sweep fewer values");
	}
	va->names[v] = variant_name(va, s, used, nused, pick);
	va->argv[v] = command_argv(va, s, used, nused, pick, err);
	if (!va->argv[v])
		return -1;
	for (int k = 0; k < HOOK_KINDS; k++) {
		const char *h = hook_of(va, k, s);

		if (h && !(va->hooks[k][v] = hook_argv(va, fill(va, h, used, nused, pick), err)))
			return -1;
	}
	va->n++;
	return 0;
}

/* Every combination of the values of the parameters segment s uses, the
 * last parameter varying fastest. */
static int expand_segment(struct variant_args *va, size_t s, struct error *err)
{
	size_t used[VARIANT_MAX_PARAMS], pick[VARIANT_MAX_PARAMS] = { 0 }, nused = 0;

	for (size_t p = 0; p < va->nparams; p++)
		if (segment_mentions(va, s, va->params[p].name))
			used[nused++] = p;
	if (nused && va->seg[s].name && !strchr(va->seg[s].name, '{')) {
		error_set(err, ERR_USAGE, "-n '%s' would name every value of {%s} alike",
			  va->seg[s].name, va->params[used[0]].name);
		return error_hint(err, "put the parameter in the name, e.g. -n '%s-{%s}'",
				  va->seg[s].name, va->params[used[0]].name);
	}
	for (;;) {
		size_t k = nused;

		if (add_one(va, s, used, nused, pick, err))
			return -1;
		while (k-- > 0) {
			if (++pick[k] < va->params[used[k]].n)
				break;
			pick[k] = 0;
		}
		if (k == (size_t)-1)
			return 0;
	}
}

/* Without a shell, a command string is one program name: blanks in it
 * mean the user expected a shell (hyperfine's default). */
static int check_strings(const struct variant_args *va, struct error *err)
{
	for (size_t s = 0; s < va->nseg && !va->shell && !va->split; s++)
		if (va->seg[s].is_string && words_has_blank(va->seg[s].words[0])) {
			error_set(err, ERR_USAGE, "'%s' is a command line, and pmustat runs "
				  "commands without a shell", va->seg[s].words[0]);
			return error_hint(err, "add --shell sh to run it through sh (its start-up "
					       "is then measured too), -N to split it into words, or "
					       "give its words after '--': -- %s", va->seg[s].words[0]);
		}
	return 0;
}

static int check_hooks(const struct variant_args *va, struct error *err)
{
	static const char *const names[HOOK_KINDS] = { "setup", "prepare", "conclude",
						       "cleanup" };

	for (int k = 0; k < HOOK_KINDS; k++)
		if (va->nhook[k] > 1 && va->nhook[k] != va->nseg) {
			error_set(err, ERR_USAGE, "--%s is given %zu times for %zu commands",
				  names[k], va->nhook[k], va->nseg);
			return error_hint(err, "give it once (for every command) or once per "
					       "command, in their order");
		}
	return 0;
}

int variant_add(struct variant_args *va, const char *name, const char *const *words,
		size_t nwords, int is_string, struct error *err)
{
	if (va->nseg == RESULT_MAX_VARIANTS)
		return error_set(err, ERR_USAGE, "too many variants (at most %d)",
				 RESULT_MAX_VARIANTS);
	va->seg[va->nseg++] = (struct variant_segment){ name, words, nwords, is_string };
	return 0;
}

int variants_build(struct variant_args *va, struct error *err)
{
	if (va->split && va->shell) {
		error_set(err, ERR_USAGE, "-N (no shell) and --shell %s exclude each other",
			  va->shell);
		return error_hint(err, "keep one: -N splits command strings into words, --shell "
				       "runs them through the shell");
	}
	if (va->scan && variant_scan_values(va, err))
		return -1;
	if (check_strings(va, err) || check_hooks(va, err))
		return -1;
	for (size_t p = 0; p < va->nparams; p++) {
		size_t s = 0;

		while (s < va->nseg && !segment_mentions(va, s, va->params[p].name))
			s++;
		if (s == va->nseg) {
			error_set(err, ERR_USAGE, "no command uses the parameter {%s}",
				  va->params[p].name);
			return error_hint(err, "write {%s} where its value goes, e.g. -- ./prog "
					       "--size {%s}", va->params[p].name, va->params[p].name);
		}
	}
	for (size_t s = 0; s < va->nseg; s++)
		if (expand_segment(va, s, err))
			return -1;
	return 0;
}

void variants_apply(struct variant_args *va, struct campaign_opts *o)
{
	for (int k = 0; k < HOOK_KINDS; k++)
		o->hooks[k] = va->nhook[k] ? va->hooks[k] : NULL;
	o->shell = va->shell;
}
