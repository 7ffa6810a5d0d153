/*
 * pmustat report on a bisect's document (bisect.json, schema
 * "pmustat.bisect/1"): its text, and with --html its page; the culprit's
 * compare result in the same directory (steps/NN-confirm.json) is read and
 * analysed here, so that the page's profile is the compare page's.
 */
#ifndef PMU_CLI_REPORT_BISECT_H
#define PMU_CLI_REPORT_BISECT_H

struct report_bisect_opts {
	const char *html, *csv, *out, *by;
	int quiet, verbose;
};

/* Is path a bisect's document? */
int report_is_bisect(const char *path);
/* Render it; returns the exit code. */
int report_bisect(const char *path, const struct report_bisect_opts *o);

#endif
