/*
 * A bisect's page: the outcome first (the first bad commit and the size of
 * its change, or why the search stopped), then the path of the search —
 * the range of commits as a line, good on the left and bad on the right,
 * one row per step with the candidate marked by its decision (like good,
 * like bad, skipped, neither, undecided), each decision carried down the
 * later rows as a faint line (drawn once: the page grows linearly with the
 * steps, where a row redrawing every earlier marker made 3,000 steps a
 * 1 GB page), and the window the search was narrowing when the document
 * has it — the
 * step table with each step's evidence against good and against bad (the
 * terminal's model, bisect_steps_model), the culprit, its profile (the
 * compare page's own sections on the confirm step's result), the notes and
 * the settings. Same style sheet as every page; no script of its own.
 */
#include "report/bisect.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "report/html_common.h"

struct bisect_page {
	const struct bisect_result *d;
	const struct html_ctx *confirm;	/* NULL: no compare result to draw from */
	const char *unread;		/* why it could not be read, or NULL */
	const char *terminal;
};

typedef void bisect_section_fn(const struct bisect_page *p, struct strbuf *out);

static const char bisect_style[] =
	".b-found .verdict{background:#c62828;color:#fff;padding:0 .35em;border-radius:3px}"
	".b-stopped .verdict{background:#fff3cd;color:#7a5b00;padding:0 .35em;border-radius:3px}"
	"svg.bisect-path .axis{stroke:#bbb;stroke-width:1.5}svg.bisect-path .window{fill:#eef3f8}"
	"svg.bisect-path circle.commit{fill:#fff;stroke:#aaa}svg.bisect-path .label{fill:#555}"
	"svg.bisect-path .row-label{fill:#333;font-weight:600}"
	".mark circle,.mark rect{stroke:#fff;stroke-width:1}"
	"line.trail{stroke-width:3;opacity:.3}line.o-like-good{stroke:#2e7d32}"
	"line.o-like-bad{stroke:#c62828}line.o-skipped{stroke:#9e9e9e}"
	"line.o-neither{stroke:#ef6c00}line.o-undecided{stroke:#f9a825}"
	".o-like-good circle,.o-good circle{fill:#2e7d32}.o-like-bad circle,.o-bad circle{fill:#c62828}"
	".o-skipped circle{fill:#9e9e9e}.o-neither circle{fill:#ef6c00}"
	".o-undecided circle{fill:#f9a825}.o-differ circle,.o-same circle{fill:#1a4d80}"
	".culprit-line{stroke:#c62828;stroke-dasharray:4 3;stroke-width:1.5}"
	"span.swatch{display:inline-block;width:.8em;height:.8em;border-radius:50%;"
	"margin:0 .3em 0 1em;vertical-align:-.05em}"
	"tr.b-good td.outcome{color:#2e7d32;font-weight:600}tr.b-bad td.outcome{color:#c62828;"
	"font-weight:600}tr.b-skip td{color:#888}tr.b-neither td.outcome{color:#ef6c00;"
	"font-weight:700}tr.b-undecided td.outcome{color:#b08900;font-weight:700}"
	"td.cmp,td.outcome{white-space:nowrap}td.reason{color:#555;font-size:.92em;max-width:34em}"
	"td.commit{font-family:ui-monospace,"
	"monospace}";

static const char *str(const char *s)
{
	return s ? s : "-";
}

/* ---- outcome -------------------------------------------------------------- */

/* "a09b342 validate every state twice" */
static void commit_html(struct strbuf *out, const struct bisect_rec_commit *c)
{
	html_text(out, c->abbrev);
	strbuf_adds(out, " ");
	html_text(out, str(c->subject));
}

static void cmp_html(struct strbuf *out, const struct bisect_rec_cmp *k)
{
	struct strbuf sb = STRBUF_INIT;

	bisect_cmp_text(k, &sb);
	html_text(out, sb.buf);
	strbuf_release(&sb);
}

static void outcome(const struct bisect_page *p, struct strbuf *out)
{
	const struct bisect_result *d = p->d;
	int found = d->outcome == BISECT_FOUND && d->has_culprit;
	struct strbuf text = STRBUF_INIT;

	strbuf_addf(out, "<p class=\"headline %s\">", found ? "b-found" : "b-stopped");
	if (found) {
		strbuf_adds(out, "First bad commit: <b class=\"culprit\">");
		html_text(out, str(d->culprit.abbrev));
		strbuf_adds(out, "</b> ");
		html_text(out, str(d->culprit.subject));
		strbuf_adds(out, " &mdash; ");
		html_text(out, str(d->primary));
		strbuf_adds(out, " ");
		cmp_html(out, &d->change);
		strbuf_adds(out, " <span class=\"verdict\">");
		html_text(out, d->change.word);
		strbuf_addf(out, "</span> against its parent (n %zu)</p>\n", d->change.n);
	} else {
		/* the terminal's words for why it stopped: the first line as the
		 * headline, the evidence or the commits left under it */
		const char *nl;

		bisect_outcome_text(d, &text);
		nl = strchr(text.buf, '\n');
		strbuf_adds(out, "<span class=\"verdict\">");
		html_text(out, bisect_outcome_word(d->outcome));
		strbuf_adds(out, "</span> ");
		if (nl)
			*(char *)nl = 0;
		html_text(out, text.buf);
		strbuf_adds(out, "</p>\n");
		if (nl && nl[1]) {
			strbuf_adds(out, "<pre class=\"terminal\">");
			html_text_lines(out, nl + 1);
			strbuf_adds(out, "</pre>\n");
		}
	}
	strbuf_addf(out, "<p class=\"note\">%zu decisions", d->decisions);
	if (d->max_decisions)
		strbuf_addf(out, " (at most %zu without skips)", d->max_decisions);
	strbuf_addf(out, ", %zu skipped, %zu measured runs in all, premise and confirmation "
		    "included.</p>\n", d->skipped, d->runs_total);
	strbuf_release(&text);
}

/* ---- the path of the search ----------------------------------------------- */

#define PATH_W 960.0
#define PATH_L 130.0		/* room for the row labels */
#define PATH_R 150.0		/* room for the last marker's label */
#define PATH_ROW 30.0
#define PATH_TOP 22.0
/* Beyond this many commits the line is drawn without a dot per commit. */
#define PATH_MAX_DOTS 400

static double xpos(const struct bisect_result *d, size_t pos)
{
	double n = d->candidates ? (double)d->candidates : 1.0;

	return PATH_L + (double)pos * (PATH_W - PATH_L - PATH_R) / n;
}

/* The commit at position pos (0 = good), when the document names it. */
static const struct bisect_rec_commit *at(const struct bisect_result *d, size_t pos)
{
	if (pos == 0)
		return &d->good;
	if (pos == d->candidates)
		return &d->bad;
	return pos <= d->nrange ? &d->range[pos - 1] : NULL;
}

static void commit_title(struct strbuf *out, const struct bisect_rec_commit *c, size_t pos)
{
	strbuf_addf(out, "<title>%zu: ", pos);
	if (c)
		commit_html(out, c);
	strbuf_adds(out, "</title>");
}

/* The line of commits: a dot per commit (named on hover when the document
 * lists the range), good and bad at its ends. */
static void commits_row(const struct bisect_result *d, double y, struct strbuf *out)
{
	strbuf_addf(out, "<text class=\"row-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
		    "commits</text>\n", PATH_L - 12, y + 4);
	strbuf_addf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		    xpos(d, 0), y, xpos(d, d->candidates), y);
	for (size_t p = 1; d->candidates <= PATH_MAX_DOTS && p < d->candidates; p++) {
		strbuf_addf(out, "<circle class=\"commit\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\">",
			    xpos(d, p), y);
		commit_title(out, at(d, p), p);
		strbuf_adds(out, "</circle>\n");
	}
	for (int end = 0; end < 2; end++) {
		const struct bisect_rec_commit *c = end ? &d->bad : &d->good;
		size_t p = end ? d->candidates : 0;

		strbuf_addf(out, "<g class=\"mark o-%s\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\">",
			    end ? "bad" : "good", xpos(d, p), y);
		commit_title(out, c, p);
		strbuf_addf(out, "</circle><text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"middle\">%s ", xpos(d, p), y - 10, end ? "bad" : "good");
		html_text(out, str(c->abbrev));
		strbuf_adds(out, "</text></g>\n");
	}
}

/* "a09b342 release r12: like-good — like good: +0.3% ..." (a title). */
static void decision_title(const struct bisect_rec_step *s, struct strbuf *out)
{
	strbuf_adds(out, "<title>");
	commit_html(out, &s->c);
	strbuf_adds(out, ": ");
	html_text(out, bisect_call_word(s->call));
	strbuf_adds(out, " &mdash; ");
	html_text(out, str(s->reason));
	strbuf_adds(out, "</title>");
}

/* A step's marker on its own row: its outcome as the class, its commit and
 * reason on hover. */
static void marker(const struct bisect_result *d, const struct bisect_rec_step *s, double y,
		   struct strbuf *out)
{
	double x = xpos(d, s->position);

	strbuf_adds(out, "<g class=\"mark o-");
	html_text(out, bisect_call_word(s->call));
	strbuf_addf(out, "\" data-step=\"%d\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\">",
		    s->index, x, y);
	decision_title(s, out);
	strbuf_addf(out, "</circle><text class=\"label\" x=\"%.1f\" y=\"%.1f\">", x + 11, y + 4);
	html_text(out, str(s->c.abbrev));
	strbuf_adds(out, " ");
	html_text(out, bisect_call_word(s->call));
	strbuf_adds(out, "</text></g>\n");
}

/* A decision stays made on every later row: one faint line down from its
 * row to the last, in its outcome's colour, with the same title as its
 * marker. Once per step, not once per later row. */
static void trail(const struct bisect_result *d, const struct bisect_rec_step *s, double y,
		  double y_last, struct strbuf *out)
{
	double x = xpos(d, s->position);

	strbuf_adds(out, "<line class=\"trail o-");
	html_text(out, bisect_call_word(s->call));
	strbuf_addf(out, "\" data-step=\"%d\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\">", s->index, x, y, x, y_last);
	decision_title(s, out);
	strbuf_adds(out, "</line>\n");
}

static void step_row(const struct bisect_result *d, size_t i, double y, struct strbuf *out)
{
	const struct bisect_rec_step *s = &d->steps[i];

	strbuf_addf(out, "<g class=\"step\" id=\"path-step-%d\">", s->index);
	strbuf_addf(out, "<text class=\"row-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
		    "step %d</text>\n", PATH_L - 12, y + 4, s->index);
	if (s->window_hi && s->window_lo <= s->window_hi && s->window_hi <= d->candidates)
		strbuf_addf(out, "<rect class=\"window\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\"><title>still open: commits %zu to %zu</title></rect>\n",
			    xpos(d, s->window_lo), y - 9, xpos(d, s->window_hi) -
			    xpos(d, s->window_lo), 18.0, s->window_lo, s->window_hi);
	strbuf_addf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		    xpos(d, 0), y, xpos(d, d->candidates), y);
	if (s->position <= d->candidates)
		marker(d, s, y, out);
	strbuf_adds(out, "</g>\n");
}

/* Where the culprit sits on the line: the confirm step's position, else
 * the step that tested it; 0 when the document does not say. */
static size_t culprit_position(const struct bisect_result *d)
{
	if (!d->has_culprit)
		return 0;
	if (d->has_confirm && d->confirm.position)
		return d->confirm.position;
	for (size_t i = 0; i < d->nsteps; i++)
		if (!strcmp(d->steps[i].c.sha, d->culprit.sha))
			return d->steps[i].position;
	return 0;
}

/* The middle of step i's row (row 0 is the commits). */
static double row_y(size_t i)
{
	return PATH_TOP + PATH_ROW * ((double)i + 1.5);
}

static void path_svg(const struct bisect_result *d, struct strbuf *out)
{
	size_t rows = 1 + d->nsteps, cp = culprit_position(d);
	double h = PATH_TOP + PATH_ROW * (double)rows + (cp ? 24 : 6);

	strbuf_addf(out, "<svg class=\"bisect-path\" id=\"bisect-path\" viewBox=\"0 0 %.0f %.0f\" "
		    "width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>the path of the search: "
		    "%zu commits after good, %zu steps</title>\n", PATH_W, h, PATH_W, h,
		    d->candidates, d->nsteps);
	if (cp && cp <= d->candidates) {
		double x = xpos(d, cp), y1 = PATH_TOP + PATH_ROW * (double)rows;

		strbuf_addf(out, "<g class=\"culprit\"><line class=\"culprit-line\" x1=\"%.1f\" "
			    "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text class=\"label\" x=\"%.1f\" "
			    "y=\"%.1f\" text-anchor=\"middle\">first bad: ", x, PATH_TOP, x, y1 - 8,
			    x, y1 + 8);
		html_text(out, str(d->culprit.abbrev));
		strbuf_adds(out, "</text></g>\n");
	}
	commits_row(d, PATH_TOP + PATH_ROW / 2, out);
	for (size_t i = 0; i < d->nsteps; i++)
		step_row(d, i, row_y(i), out);
	/* the trails over the rows' shaded windows, from under each marker */
	for (size_t i = 0; i + 1 < d->nsteps; i++)
		if (d->steps[i].position <= d->candidates)
			trail(d, &d->steps[i], row_y(i) + 7, row_y(d->nsteps - 1), out);
	strbuf_adds(out, "</svg>\n");
}

static void legend(struct strbuf *out)
{
	static const struct {
		const char *cls, *color, *words;
	} keys[] = {
		{ "like-good", "#2e7d32", "like good" }, { "like-bad", "#c62828", "like bad" },
		{ "skipped", "#9e9e9e", "skipped (build failed)" },
		{ "neither", "#ef6c00", "neither" }, { "undecided", "#f9a825", "undecided" },
	};

	strbuf_adds(out, "<p class=\"legend\">Commits in order, good on the left, bad on the "
			 "right; one row per step, its candidate marked by the decision, each "
			 "decision carried down the later rows as a faint line, the shaded band "
			 "the commits still open when it was chosen.");
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		strbuf_addf(out, "<span class=\"swatch\" style=\"background:%s\"></span>%s",
			    keys[i].color, keys[i].words);
	strbuf_adds(out, "</p>\n");
}

static void search_path(const struct bisect_page *p, struct strbuf *out)
{
	const struct bisect_result *d = p->d;
	struct texttable t;

	path_svg(d, out);
	legend(out);
	strbuf_adds(out, "<h3>Steps, with their evidence</h3>\n");
	bisect_steps_model(d, 1, &t);
	html_texttable(out, &t, "bisect-steps");
	texttable_release(&t);
	strbuf_adds(out, "<p class=\"legend\">vs good, vs bad: the candidate's ");
	html_text(out, str(d->primary));
	strbuf_addf(out, " against good's and against bad's, as a change with its interval "
		    "(the premise: bad against good; the confirmation: the culprit against its "
		    "parent); each decided at an error rate of %g; the premise's verdict against "
		    "a &plusmn;%.1f%% noise band", d->alpha, 100 * d->noise_band);
	if (isfinite(d->step_band))
		strbuf_addf(out, ", a candidate like an endpoint within &plusmn;%.1f%%",
			    100 * d->step_band);
	strbuf_adds(out, ".</p>\n");
}

/* ---- the culprit, its profile --------------------------------------------- */

static void fact(struct strbuf *out, const char *term, const char *value)
{
	strbuf_addf(out, "<dt>%s</dt><dd>", term);
	html_text(out, str(value));
	strbuf_adds(out, "</dd>");
}

static void culprit(const struct bisect_page *p, struct strbuf *out)
{
	const struct bisect_result *d = p->d;
	const struct bisect_rec_cmp *k = &d->change;
	struct strbuf sb = STRBUF_INIT;

	if (!d->has_culprit)
		return;
	strbuf_adds(out, "<dl class=\"culprit\">");
	fact(out, "commit", d->culprit.sha);
	fact(out, "subject", d->culprit.subject);
	fact(out, "parent", d->parent);
	if (k->valid) {
		bisect_cmp_text(k, &sb);
		strbuf_addf(&sb, " %s (n %zu)", k->word, k->n);
		fact(out, str(d->primary), sb.buf);
		strbuf_reset(&sb);
		if (isfinite(k->mean_this) && isfinite(k->mean_that))
			strbuf_addf(&sb, "%.6g against %.6g", k->mean_this, k->mean_that);
		fact(out, "means, culprit against parent", sb.len ? sb.buf : NULL);
	}
	strbuf_adds(out, "</dl>\n");
	strbuf_release(&sb);
	if (p->confirm && p->confirm->r->nvariants >= 2) {
		strbuf_adds(out, "<h3>Every metric of the culprit against its parent</h3>\n");
		html_verdicts(p->confirm, out);
	} else if (p->unread && !d->profile_result && !d->nhot_fns) {
		/* else the profile's section says it */
		strbuf_adds(out, "<p class=\"note\">The culprit's other metrics are not shown: "
				 "its compare result could not be read (");
		html_text(out, p->unread);
		strbuf_adds(out, ").</p>\n");
	}
}

/* The document's own top of the difference, when the compare result it
 * came from is not next to it (a bisect.json copied alone). */
static void profile_summary(const struct bisect_result *d, const char *unread,
			    struct strbuf *out)
{
	static const char *const classes[] = { "fn", NULL, NULL, NULL, NULL };
	struct texttable t;

	strbuf_adds(out, "<p class=\"note\">The culprit's profiled compare result ");
	html_text(out, str(d->profile_result));
	if (unread) {
		strbuf_adds(out, " could not be read (");
		html_text(out, unread);
		strbuf_adds(out, "): the functions below are the top of the difference as the "
				 "bisect recorded it; put the file right and render the page again "
				 "for the full profile.</p>\n");
	} else {
		strbuf_adds(out, " is not next to this bisect.json (or holds no profile): the "
				 "functions below are the top of the difference as the bisect "
				 "recorded it; render that file with "
				 "<code>pmustat report FILE --html PAGE</code> for the full "
				 "profile.</p>\n");
	}
	texttable_init(&t, 5, "lrrrr");
	t.classes = classes;
	texttable_row(&t);
	texttable_set(&t, 0, 0, "function");
	texttable_set(&t, 0, 1, "ratio");
	texttable_set(&t, 0, 2, "95%% interval");
	texttable_set(&t, 0, 3, "share, parent");
	texttable_set(&t, 0, 4, "share, culprit");
	for (size_t i = 0; i < d->nhot_fns; i++) {
		const struct bisect_rec_hot *f = &d->hot_fns[i];
		size_t row = texttable_row(&t);

		texttable_set(&t, row, 0, "%s", f->name);
		texttable_set(&t, row, 1, "%.4f", f->ratio);
		texttable_set(&t, row, 2, "[%.4f, %.4f]", f->ci_lo, f->ci_hi);
		texttable_set(&t, row, 3, "%.1f%%", 100 * f->base);
		texttable_set(&t, row, 4, "%.1f%%", 100 * f->culprit);
	}
	html_texttable(out, &t, "profile");
	texttable_release(&t);
}

static void profile(const struct bisect_page *p, struct strbuf *out)
{
	size_t before = out->len;

	if (!p->d->profile_result && !p->d->nhot_fns)
		return;
	if (p->confirm) {
		html_profile(p->confirm, out);
		html_flames(p->confirm, out);
	}
	if (out->len == before)
		profile_summary(p->d, p->unread, out);
}

/* ---- notes, settings, terminal -------------------------------------------- */

static void notes(const struct bisect_page *p, struct strbuf *out)
{
	const struct bisect_result *d = p->d;

	if (!d->nnotes)
		return;
	strbuf_adds(out, "<ul class=\"notes\">\n");
	for (size_t i = 0; i < d->nnotes; i++) {
		strbuf_addf(out, "<li class=\"%s\">", d->notes[i].warning ? "warning" : "info");
		html_text(out, str(d->notes[i].text));
		strbuf_adds(out, "</li>\n");
	}
	strbuf_adds(out, "</ul>\n");
}

static void commit_fact(struct strbuf *out, const char *term, const struct bisect_rec_commit *c)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s (%s) %s", str(c->rev), c->sha, str(c->subject));
	fact(out, term, sb.buf);
	strbuf_release(&sb);
}

/* The document's date as it wrote it (UTC), or NULL. */
static const char *created(double t, char *buf, size_t len)
{
	struct tm tm;
	time_t s;

	/* Checked before the conversion: NaN or a huge value has no time_t. */
	if (!isfinite(t) || t < 0 || t > 253402300799.0)	/* 9999-12-31 */
		return NULL;
	s = (time_t)t;
	if (!gmtime_r(&s, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NULL;
	return buf;
}

static void settings(const struct bisect_page *p, struct strbuf *out)
{
	const struct bisect_result *d = p->d;
	struct strbuf cmd = STRBUF_INIT, num = STRBUF_INIT;
	char date[32];

	for (size_t i = 0; d->argv && d->argv[i]; i++)
		strbuf_addf(&cmd, "%s%s", i ? " " : "", d->argv[i]);
	strbuf_adds(out, "<dl>");
	fact(out, "repository", d->repository);
	fact(out, "command", cmd.buf);
	fact(out, d->build_shell ? "build (through a shell)" : "build", d->build_cmd);
	commit_fact(out, "good", &d->good);
	commit_fact(out, "bad", &d->bad);
	fact(out, "primary metric", d->primary);
	strbuf_addf(&num, "%g per comparison; noise band &plusmn;%.1f%%", d->alpha,
		    100 * d->noise_band);
	if (isfinite(d->step_band))
		strbuf_addf(&num, "; candidates like an endpoint within &plusmn;%.1f%%",
			    100 * d->step_band);
	strbuf_addf(out, "<dt>error rate</dt><dd>%s</dd>", num.buf);
	fact(out, "created", created(d->created, date, sizeof(date)));
	fact(out, "pmustat", d->tool_version[0] ? d->tool_version : NULL);
	strbuf_adds(out, "</dl>\n");
	if (!d->complete)
		strbuf_adds(out, "<p class=\"note\">This bisect did not finish: what is shown is "
				 "what it decided; run the same command again to resume.</p>\n");
	strbuf_release(&cmd);
	strbuf_release(&num);
}

static void terminal(const struct bisect_page *p, struct strbuf *out)
{
	struct html_ctx c = { .table = p->terminal };

	html_terminal(&c, out);
}

/* ---- the page ------------------------------------------------------------- */

static const struct {
	const char *id, *title;
	bisect_section_fn *render;
} sections[] = {
	{ "outcome", "Outcome", outcome },
	{ "path", "Path of the search", search_path },
	{ "culprit", "Culprit", culprit },
	{ "profile", "Where the difference is (culprit against its parent)", profile },
	{ "notes", "Notes", notes },
	{ "settings", "Bisect", settings },
	{ "terminal", "Terminal output", terminal },
};
#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

static void title(const struct bisect_result *d, struct strbuf *out)
{
	strbuf_adds(out, "pmustat bisect");
	for (size_t i = 0; d->argv && d->argv[i]; i++) {
		strbuf_adds(out, " ");
		html_text(out, d->argv[i]);
	}
}

void report_bisect_html(const struct bisect_result *d, const struct analysed *confirm,
			const char *unread, const char *term, struct strbuf *out)
{
	struct html_ctx c;
	struct bisect_page p = { d, NULL, unread, term };
	struct html_part parts[NSECTIONS];
	struct strbuf name = STRBUF_INIT, heading = STRBUF_INIT;

	if (confirm) {
		html_ctx_init(&c, confirm, NULL);
		p.confirm = &c;
	}
	for (size_t i = 0; i < NSECTIONS; i++) {
		parts[i] = (struct html_part){ sections[i].id, sections[i].title, STRBUF_INIT };
		sections[i].render(&p, &parts[i].body);
	}
	title(d, &name);
	strbuf_addf(&heading, "<h1>%s <small>%zu commits, %zu steps, %zu measured runs</small>"
		    "</h1>\n", name.buf, d->candidates, d->nsteps, d->runs_total);
	html_page(out, name.buf, bisect_style, heading.buf, parts, NSECTIONS);
	strbuf_release(&name);
	strbuf_release(&heading);
}
