/*
 * struct error helpers. Messages are bounded (512 bytes) on purpose: an error
 * is one line for a human, and a fixed buffer means reporting an error can
 * never itself fail for lack of memory.
 */
#include "core/error.h"

#include <stdio.h>
#include <string.h>

void error_clear(struct error *err)
{
	if (!err)
		return;
	err->kind = ERR_NONE;
	err->msg[0] = '\0';
	err->hint[0] = '\0';
}

int error_set(struct error *err, enum error_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->kind = kind;
	err->hint[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int error_hint(struct error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->hint, sizeof(err->hint), fmt, ap);
	va_end(ap);
	return -1;
}

int error_prefix(struct error *err, const char *fmt, ...)
{
	char both[2 * sizeof(err->msg)];
	size_t n;
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(both, sizeof(err->msg), fmt, ap);
	va_end(ap);
	n = strlen(both);
	/* Fits by construction: each part is below sizeof(err->msg). */
	memcpy(both + n, ": ", 2);
	memcpy(both + n + 2, err->msg, strlen(err->msg) + 1);
	n = strlen(both);
	if (n >= sizeof(err->msg))
		n = sizeof(err->msg) - 1;
	memcpy(err->msg, both, n);
	err->msg[n] = '\0';
	return -1;
}

int error_exit_code(const struct error *err)
{
	if (!err || err->kind == ERR_NONE)
		return PMU_EXIT_OK;
	return err->kind == ERR_USAGE ? PMU_EXIT_USAGE : PMU_EXIT_RUNTIME;
}
