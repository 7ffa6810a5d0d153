/*
 * Errors as values. Library layers never print or exit: a failing function
 * returns -1 and fills a struct error with one line in git's grammar
 * (lowercase, subject in quotes, no trailing period) and, where there is a
 * next step, a hint naming a concrete command, flag or sysctl. The CLI decides
 * how to show it and which exit code it maps to.
 */
#ifndef PMU_CORE_ERROR_H
#define PMU_CORE_ERROR_H

#include <stdarg.h>

/* Exit codes of the pmustat command (DESIGN.md). */
enum pmu_exit {
	PMU_EXIT_OK = 0,
	PMU_EXIT_RUNTIME = 1,
	PMU_EXIT_USAGE = 2,
	PMU_EXIT_REGRESSION = 3,
	PMU_EXIT_NO_DIFFERENCE = 4,	/* bisect: good and bad do not differ */
	PMU_EXIT_NO_CULPRIT = 5,	/* bisect: stopped without one first bad commit */
	PMU_EXIT_INTERRUPTED = 130,
};

enum error_kind {
	ERR_NONE = 0,
	ERR_RUNTIME,	/* something failed while doing valid work */
	ERR_USAGE,	/* the user asked for something malformed or unknown */
};

struct error {
	enum error_kind kind;
	char msg[512];
	char hint[512];
};

/* Reset to "no error". */
void error_clear(struct error *err);

/*
 * Fill err (kind, message) and return -1 so callers can write
 * `return error_set(err, ERR_USAGE, "unknown event '%s'", name);`.
 * err may be NULL; then nothing is recorded.
 */
int error_set(struct error *err, enum error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Attach a hint to an error already set; returns -1. */
int error_hint(struct error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prefix the message with context: "ctx: old message". Returns -1. */
int error_prefix(struct error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The exit code an error maps to. */
int error_exit_code(const struct error *err);

#endif
