/*
 * The cross-machine report of analysis/fleet.h, as text and as JSON. First
 * the hosts (what each one is: the identity a merge is judged by), then per
 * metric and variant one row per group with the pooled ratio, its interval
 * and verdict, worded as the compare table words them, and the spread of
 * the hosts' own ratios; last, where the groups' verdicts disagree, one
 * line naming each verdict with its group and host count. Pure.
 */
#include "report/fleet_render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/printable.h"
#include "report/compare_table.h"
#include "result/json.h"
#include "report/texttable.h"
#include "report/units.h"

static const char *by_word(const struct fleet *f)
{
	return f->by == FLEET_BY_UARCH ? "uarch" : "host";
}

/* Metrics a cross-machine row is shown for: what the compare table shows. */
static int shown(const struct result *r, size_t m)
{
	const struct result_metric *x = &r->metrics[m];

	return x->available && !x->hidden && x->source != MSRC_HOST;
}

static const struct result *shape(const struct fleet *f)
{
	return &f->groups[0].pooled;
}

/* min and max of the group's hosts' values at index k; returns how many. */
static size_t spread(const struct fleet *f, const struct fleet_group *g, size_t k, double *lo,
		     double *hi)
{
	size_t n = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < g->nhosts; i++) {
		double v = f->hosts[g->hosts[i]].value[k];

		if (!isnan(v)) {
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
			n++;
		}
	}
	return n;
}

static const char *host_word(size_t n)
{
	return n == 1 ? "host" : "hosts";
}

static void hosts_table(const struct fleet *f, struct strbuf *out)
{
	struct texttable t;
	size_t row;

	texttable_init(&t, 8, "llllllll");
	row = texttable_row(&t);
	const char *head[] = { "host", "uarch", "cpu", "kernel", "vm", "governor", "smt",
			       "slurm job.step/task" };
	for (size_t c = 0; c < 8; c++)
		texttable_set(&t, row, c, "%s", head[c]);
	for (size_t i = 0; i < f->nhosts; i++) {
		const struct fleet_host *h = &f->hosts[i];
		const struct hostinfo *x = &h->host;

		row = texttable_row(&t);
		texttable_set(&t, row, 0, "%s", h->label);
		texttable_set(&t, row, 1, "%s", h->uarch);
		if (x->stepping >= 0)
			texttable_set(&t, row, 2, "%s %d-%d-%d", x->vendor[0] ? x->vendor : "?",
				      x->family, x->model, x->stepping);
		else
			texttable_set(&t, row, 2, "%s %d-%d", x->vendor[0] ? x->vendor : "?",
				      x->family, x->model);
		texttable_set(&t, row, 3, "%s", x->kernel[0] ? x->kernel : "?");
		texttable_set(&t, row, 4, "%s", x->hypervisor < 0 ? "?" : x->hypervisor ? "yes" : "no");
		texttable_set(&t, row, 5, "%s", x->governor[0] ? x->governor : "-");
		texttable_set(&t, row, 6, "%s", x->smt < 0 ? "?" : x->smt ? "on" : "off");
		if (x->slurm_job[0])
			texttable_set(&t, row, 7, "%s.%s/%d", x->slurm_job,
				      x->slurm_step[0] ? x->slurm_step : "?", x->slurm_task);
		else
			texttable_set(&t, row, 7, "-");
	}
	texttable_render(&t, 2, out);
	texttable_release(&t);
}

static void compare_row(const struct fleet *f, const struct fleet_group *g, size_t m, size_t v,
			struct texttable *t)
{
	const struct result *r = &g->pooled;
	const struct comparison *c = comparisons_find(&g->cs, m, v);
	size_t row = texttable_row(t), k = v * r->nmetrics + m;
	char word[96];
	double lo, hi;

	texttable_set(t, row, 0, "%s", r->metrics[m].name);
	texttable_set(t, row, 1, "%s", r->variants[v].name);
	texttable_set(t, row, 2, "%s", g->name);
	texttable_set(t, row, 3, "%zu", g->nhosts);
	if (!c || c->method == CMP_NONE) {
		texttable_set(t, row, 7, "not compared%s%s", c && c->why ? ": " : "",
			      c && c->why ? c->why : "");
		return;
	}
	compare_verdict_text(r, c, word, sizeof(word));
	texttable_set(t, row, 4, "%.3f", c->ratio);
	if (isfinite(c->ci_lo) && isfinite(c->ci_hi))
		texttable_set(t, row, 5, "[%.3f, %.3f]", c->ci_lo, c->ci_hi);
	else
		texttable_set(t, row, 5, "unbounded");
	texttable_set(t, row, 6, "%zu", c->n);
	texttable_set(t, row, 7, "%s", word);
	if (spread(f, g, k, &lo, &hi) >= 2)
		texttable_set(t, row, 8, "%.3f .. %.3f", lo, hi);
	else
		texttable_set(t, row, 8, "-");
}

static void stat_row(const struct fleet *f, const struct fleet_group *g, size_t m,
		     struct texttable *t)
{
	const struct result *r = &g->pooled;
	size_t row = texttable_row(t);
	double *x = NULL, sum = 0, lo, hi;
	size_t n = result_collect(r, 0, m, &x);
	struct strbuf sb = STRBUF_INIT;
	struct unit_scale us;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	free(x);
	texttable_set(t, row, 0, "%s", r->metrics[m].name);
	texttable_set(t, row, 1, "%s", g->name);
	texttable_set(t, row, 2, "%zu", g->nhosts);
	texttable_set(t, row, 3, "%zu", n);
	if (!n)
		return;
	us = unit_pick(r->metrics[m].unit, sum / (double)n);
	unit_format(&sb, &us, sum / (double)n);
	strbuf_addf(&sb, "%s%s", *us.suffix ? " " : "", us.suffix);
	texttable_set(t, row, 4, "%s", sb.buf);
	strbuf_reset(&sb);
	if (spread(f, g, m, &lo, &hi) >= 2) {
		unit_format(&sb, &us, lo);
		strbuf_adds(&sb, " .. ");
		unit_format(&sb, &us, hi);
		texttable_set(t, row, 5, "%s", sb.buf);
	} else {
		texttable_set(t, row, 5, "-");
	}
	strbuf_release(&sb);
}

static void rows_table(const struct fleet *f, struct strbuf *out)
{
	const struct result *r = shape(f);
	struct texttable t;
	size_t row;

	if (f->compare) {
		const char *head[] = { "metric", "variant", by_word(f), "hosts", "ratio", "95% CI",
				       "n", "verdict", "host spread" };
		texttable_init(&t, 9, "lllrrrrll");
		row = texttable_row(&t);
		for (size_t c = 0; c < 9; c++)
			texttable_set(&t, row, c, "%s", head[c]);
	} else {
		const char *head[] = { "metric", by_word(f), "hosts", "n", "mean", "host spread" };
		texttable_init(&t, 6, "llrrrl");
		row = texttable_row(&t);
		for (size_t c = 0; c < 6; c++)
			texttable_set(&t, row, c, "%s", head[c]);
	}
	for (size_t m = 0; m < r->nmetrics; m++)
		for (size_t v = 0; shown(r, m) && v < r->nvariants; v++)
			for (size_t g = 0; g < f->ngroups; g++) {
				if (!f->compare)
					stat_row(f, &f->groups[g], m, &t);
				else if ((int)v != r->baseline)
					compare_row(f, &f->groups[g], m, v, &t);
			}
	texttable_render(&t, 2, out);
	texttable_release(&t);
}

/* The verdict of group g on (m, v) as the table words it, or "" if none. */
static void group_verdict(const struct fleet_group *g, size_t m, size_t v, char *word,
			  size_t len)
{
	const struct comparison *c = comparisons_find(&g->cs, m, v);

	word[0] = '\0';
	if (c && c->method != CMP_NONE && c->role != ROLE_OUTSIDE)
		compare_verdict_text(&g->pooled, c, word, len);
}

/* Do the groups' verdicts on (m, v) differ? */
static int disagree(const struct fleet *f, size_t m, size_t v)
{
	char first[96], word[96];

	group_verdict(&f->groups[0], m, v, first, sizeof(first));
	for (size_t g = 1; g < f->ngroups; g++) {
		group_verdict(&f->groups[g], m, v, word, sizeof(word));
		if (strcmp(word, first))
			return 1;
	}
	return 0;
}

/* "sv2 wall-time: SLOWER on zen4 (3 hosts), FASTER on sapphirerapids (2 hosts)" */
static void disagreement_line(const struct fleet *f, size_t m, size_t v, struct strbuf *out)
{
	const struct result *r = shape(f);
	char word[96];

	strbuf_adds(out, "  ");
	strbuf_add_printable(out, r->variants[v].name);
	strbuf_addch(out, ' ');
	strbuf_add_printable(out, r->metrics[m].name);
	strbuf_addch(out, ':');
	for (size_t g = 0; g < f->ngroups; g++) {
		group_verdict(&f->groups[g], m, v, word, sizeof(word));
		strbuf_addf(out, "%s %s on ", g ? "," : "", word[0] ? word : "no verdict");
		strbuf_add_printable(out, f->groups[g].name);
		strbuf_addf(out, " (%zu %s)", f->groups[g].nhosts, host_word(f->groups[g].nhosts));
	}
	strbuf_addch(out, '\n');
}

static void disagreements(const struct fleet *f, struct strbuf *out)
{
	const struct result *r = shape(f);
	size_t lines = 0;

	if (f->ngroups < 2) {
		strbuf_addf(out, "\none %s only: no verdicts to set side by side\n", by_word(f));
		return;
	}
	for (size_t m = 0; m < r->nmetrics; m++)
		for (size_t v = 0; shown(r, m) && v < r->nvariants; v++)
			if ((int)v != r->baseline && disagree(f, m, v)) {
				if (!lines++)
					strbuf_addf(out, "\nverdicts differ between %ss:\n",
						    by_word(f));
				disagreement_line(f, m, v, out);
			}
	if (!lines)
		strbuf_addf(out, "\nverdicts agree across the %zu %ss\n", f->ngroups, by_word(f));
}

void fleet_table(const struct fleet *f, struct strbuf *out)
{
	if (!f->ngroups)
		return;
	strbuf_adds(out, "pmustat ");
	strbuf_add_printable(out, shape(f)->command);
	strbuf_addf(out, " across %zu %s, by %s (%zu %s%s), seed %llu\n", f->nhosts, host_word(f->nhosts), by_word(f), f->ngroups,
		    by_word(f), f->ngroups == 1 ? "" : "s",
		    (unsigned long long)shape(f)->seed);
	hosts_table(f, out);
	strbuf_adds(out, "\n");
	rows_table(f, out);
	if (f->compare) {
		if (f->by == FLEET_BY_UARCH)
			strbuf_adds(out, "  (a uarch's hosts pooled, blocks kept per host; host "
				    "spread: the hosts' own ratios)\n");
		disagreements(f, out);
	}
}

static json_t *host_json(const struct fleet_host *h)
{
	json_t *o = json_pack("{s:o, s:o, s:o}", "label", report_json_text(h->label),
			      "file", report_json_text(h->file), "uarch",
			      report_json_text(h->uarch));

	json_object_set_new(o, "host", report_json_host(&h->host));
	return o;
}

static json_t *number(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* Per metric and variant: each host's own value (ratio or mean). */
static json_t *host_values_json(const struct fleet *f, const struct fleet_group *g)
{
	const struct result *r = &g->pooled;
	json_t *a = json_array();

	for (size_t m = 0; m < r->nmetrics; m++)
		for (size_t v = 0; shown(r, m) && v < r->nvariants; v++) {
			json_t *hosts;

			if (f->compare && (int)v == r->baseline)
				continue;
			hosts = json_object();
			for (size_t i = 0; i < g->nhosts; i++) {
				const struct fleet_host *h = &f->hosts[g->hosts[i]];

				json_object_set_new(hosts, h->label,
						    number(h->value[v * r->nmetrics + m]));
			}
			json_array_append_new(a, json_pack("{s:o, s:o, s:s, s:o}", "metric",
					report_json_text(r->metrics[m].name), "variant",
					report_json_text(r->variants[v].name),
					"value", f->compare ? "ratio" : "mean", "hosts", hosts));
		}
	return a;
}

static json_t *group_json(const struct fleet *f, const struct fleet_group *g)
{
	json_t *hosts = json_array();
	json_t *o;

	for (size_t i = 0; i < g->nhosts; i++)
		json_array_append_new(hosts, report_json_text(f->hosts[g->hosts[i]].label));
	o = json_pack("{s:o, s:o}", "name", report_json_text(g->name), "hosts", hosts);
	if (f->compare)
		json_object_set_new(o, "comparisons", comparisons_json(&g->pooled, &g->cs, &g->noise));
	json_object_set_new(o, "host_values", host_values_json(f, g));
	return o;
}

static json_t *disagreements_json(const struct fleet *f)
{
	const struct result *r = shape(f);
	json_t *a = json_array();
	char word[96];

	for (size_t m = 0; f->compare && m < r->nmetrics; m++)
		for (size_t v = 0; shown(r, m) && v < r->nvariants; v++) {
			json_t *verdicts;

			if ((int)v == r->baseline || f->ngroups < 2 || !disagree(f, m, v))
				continue;
			verdicts = json_array();
			for (size_t g = 0; g < f->ngroups; g++) {
				group_verdict(&f->groups[g], m, v, word, sizeof(word));
				json_array_append_new(verdicts, json_pack("{s:o, s:o, s:i}",
					"group", report_json_text(f->groups[g].name),
					"verdict", word[0] ? json_string(word) : json_null(),
					"hosts", (int)f->groups[g].nhosts));
			}
			json_array_append_new(a, json_pack("{s:o, s:o, s:o}", "metric",
					report_json_text(r->metrics[m].name), "variant",
					report_json_text(r->variants[v].name), "verdicts", verdicts));
		}
	return a;
}

json_t *fleet_json(const struct fleet *f)
{
	json_t *doc = json_object(), *hosts = json_array(), *groups = json_array();

	json_object_set_new(doc, "schema", json_string(FLEET_SCHEMA));
	json_object_set_new(doc, "tool", json_pack("{s:s, s:s}", "name", "pmustat",
						   "version", PMUSTAT_VERSION));
	json_object_set_new(doc, "by", json_string(by_word(f)));
	if (f->ngroups) {
		json_object_set_new(doc, "command", report_json_text(shape(f)->command));
		json_object_set_new(doc, "seed", json_integer((json_int_t)shape(f)->seed));
	}
	for (size_t i = 0; i < f->nhosts; i++)
		json_array_append_new(hosts, host_json(&f->hosts[i]));
	json_object_set_new(doc, "hosts", hosts);
	for (size_t g = 0; g < f->ngroups; g++)
		json_array_append_new(groups, group_json(f, &f->groups[g]));
	json_object_set_new(doc, "groups", groups);
	if (f->ngroups)
		json_object_set_new(doc, "disagreements", disagreements_json(f));
	return doc;
}
