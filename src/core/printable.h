/*
 * Text from outside (a variant's name and command line, a metric or region
 * name, a note read back from a result, a PMU name from a recorded sysfs
 * tree) made safe to show on a terminal: a name holding "\033]0;..." or
 * "\033[2J" must print as those characters, not retitle the window or
 * clear the screen. Only text renderers need this; JSON is escaped by
 * jansson, HTML by its own escaping, and CSV keeps the data as it is.
 */
#ifndef PMU_CORE_PRINTABLE_H
#define PMU_CORE_PRINTABLE_H

#include "core/strbuf.h"

/*
 * Append s to sb with every byte a terminal could act on written as \xNN
 * (two lowercase hex digits): the C0 controls (ESC, tab and newline too),
 * DEL, the C1 controls U+0080-U+009F (both bytes of their UTF-8 form), the
 * bidirectional formatting characters (U+202E RIGHT-TO-LEFT OVERRIDE and
 * its kin: every byte of them), and every byte that is not part of valid
 * UTF-8. Other text, including
 * non-ASCII letters and symbols, is kept. A backslash is kept as it is, so
 * the result reads naturally; applying this twice changes nothing.
 */
void strbuf_add_printable(struct strbuf *sb, const char *s);

/* The same for text of several lines (a program's stderr): the newlines
 * are kept, everything else on each line is escaped as above. */
void strbuf_add_printable_lines(struct strbuf *sb, const char *s);

/* s made printable in sb (reset first), for a printf argument:
 * strbuf_addf(out, "variant %s", printable_in(&tmp, name)). */
const char *printable_in(struct strbuf *sb, const char *s);

/* Is s well-formed UTF-8 (what a JSON string must be)? */
int printable_utf8_valid(const char *s);

/* Would strbuf_add_printable change s? */
int printable_needs_escape(const char *s);

#endif
