/*
 * Warnings of one kind, grouped. The analysis raises one warning per
 * metric and variant (outliers in wall-time of vec, in task-clock of csr,
 * drift in wall-time of csr, ...), each with the same hint; a reader needs
 * one line per kind that names what it concerns, with each warning's own
 * figures kept for -v and the JSON. Pure: items in, groups out. Groups
 * borrow the items' strings (and the items array) and own only their
 * summaries and index lists.
 */
#ifndef PMU_ANALYSIS_WARNGROUPS_H
#define PMU_ANALYSIS_WARNGROUPS_H

#include <stddef.h>

struct warn_item {
	const char *kind;	/* stable id ("outliers", "drift"); NULL: a group of its own */
	const char *label;	/* what the group's line calls the kind: "outliers"
				 * ("outliers in wall-time (vec)"); one ending in ':'
				 * is followed by the metrics without "in" */
	const char *metric;	/* or NULL */
	const char *variant;	/* or NULL (one variant: stat) */
	const char *text;	/* the warning in full, with its figures */
	const char *hint;	/* or NULL */
};

struct warn_group {
	const char *kind, *label, *hint;	/* its first item's */
	size_t *member;		/* indices of its items, in input order */
	size_t nmember;
	/*
	 * "outliers in wall-time, task-clock (vec, csr); sys-time (csr)":
	 * the metrics that share a set of variants together, sets in the
	 * order first seen. A group of one item (or of no kind) is that
	 * item's text, prefixed "metric (variant): " unless the text names
	 * the metric already.
	 */
	char *summary;
	const char **metrics;	/* distinct, in the order first seen */
	size_t nmetrics;
	const char **variants;	/* distinct, in the order first seen */
	size_t nvariants;
};

struct warn_groups {
	struct warn_group *g;	/* in the order of each kind's first item */
	size_t n;
};

struct strbuf;

/* One warning as it stands alone: "task-clock (A): values drift ..." (the
 * metric and variant first, unless the text names the metric). */
void warn_item_text(const struct warn_item *it, struct strbuf *out);

void warn_groups_build(const struct warn_item *items, size_t n, struct warn_groups *out);
void warn_groups_release(struct warn_groups *gs);

#endif
