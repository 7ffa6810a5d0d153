/*
 * How the subcommands put what they rendered on stdout: a text (a strbuf)
 * or a JSON document, written and flushed at once, so that a failed write
 * (a full disk, a closed pipe) is caught by the command that made it and
 * becomes its exit code. Every failure to write stdout is reported by
 * cli_stdout_error(), here and in main()'s check at exit, in the same
 * words and only once. Text is printed with control characters escaped
 * (core/printable.h), as error messages are.
 */
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/printable.h"

/* The layout of every JSON view pmustat prints (list, explain, doctor). */
#define CLI_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER)

int cli_stdout_error(int errnum)
{
	if (errnum == EPIPE)
		return 0;
	fprintf(stderr, "error: cannot write to stdout: %s\n", strerror(errnum ? errnum : EIO));
	return PMU_EXIT_RUNTIME;
}

/* Reported now: what could not be written is dropped and the error flag
 * cleared, so that main()'s check at exit does not report it again. */
static int write_failed(int errnum)
{
	clearerr(stdout);
	__fpurge(stdout);
	return cli_stdout_error(errnum);
}

/* The views printed here (list, explain, doctor) use no colour, so every
 * control character but the newline came from data — a PMU name from a
 * recorded tree, a catalogue text — and is shown escaped. */
static void printable_lines(const struct strbuf *sb, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;

	for (const char *p = sb->buf, *end = sb->buf + sb->len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		strbuf_reset(&line);
		strbuf_add(&line, p, n);
		strbuf_add_printable(out, line.buf);
		if (nl)
			strbuf_addch(out, '\n');
		p += n + (nl != NULL);
	}
	strbuf_release(&line);
}

int cli_print(struct strbuf *sb)
{
	struct strbuf safe = STRBUF_INIT;
	int bad;

	printable_lines(sb, &safe);
	strbuf_release(sb);
	errno = 0;
	bad = fwrite(safe.buf, 1, safe.len, stdout) != safe.len || fflush(stdout);
	strbuf_release(&safe);
	return bad ? write_failed(errno) : 0;
}

int cli_print_json(json_t *doc)
{
	char *text = doc ? json_dumps(doc, CLI_JSON_FLAGS) : NULL;
	int bad;

	json_decref(doc);
	if (!text)
		return write_failed(ENOMEM);
	errno = 0;
	bad = fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout);
	free(text);
	return bad ? write_failed(errno) : 0;
}
