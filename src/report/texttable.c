/*
 * The text table renderer. Widths count UTF-8 code points, not bytes, so
 * "±" and "—" do not push columns out of line.
 */
#include "report/texttable.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/printable.h"

void texttable_init(struct texttable *t, size_t ncols, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->align = align;
}

void texttable_release(struct texttable *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->colors);
	for (size_t i = 0; t->titles && i < t->nrows * t->ncols; i++)
		free(t->titles[i]);
	free(t->titles);
	free(t->row_classes);
	free(t->span);
	memset(t, 0, sizeof(*t));
}

size_t texttable_row(struct texttable *t)
{
	size_t old = t->alloc;

	ALLOC_GROW(t->span, t->nrows + 1, t->alloc);
	if (t->alloc != old) {
		t->cells = xrealloc(t->cells, t->alloc * t->ncols * sizeof(char *));
		t->colors = xrealloc(t->colors, t->alloc * t->ncols * sizeof(char *));
		t->titles = xrealloc(t->titles, t->alloc * t->ncols * sizeof(char *));
		t->row_classes = xrealloc(t->row_classes, t->alloc * sizeof(char *));
	}
	t->row_classes[t->nrows] = NULL;
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(char *));
	memset(&t->colors[t->nrows * t->ncols], 0, t->ncols * sizeof(char *));
	memset(&t->titles[t->nrows * t->ncols], 0, t->ncols * sizeof(char *));
	t->span[t->nrows] = 0;
	return t->nrows++;
}

void texttable_set(struct texttable *t, size_t row, size_t col, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT, safe = STRBUF_INIT;
	char **cell = &t->cells[row * t->ncols + col];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	strbuf_grow(&sb, (size_t)(n > 0 ? n : 0));
	va_start(ap, fmt);
	vsnprintf(sb.buf, sb.alloc, fmt, ap);
	va_end(ap);
	sb.len = (size_t)(n > 0 ? n : 0);
	strbuf_add_printable(&safe, sb.buf);
	strbuf_release(&sb);
	free(*cell);
	*cell = strbuf_detach(&safe);
}

void texttable_color(struct texttable *t, size_t row, size_t col, const char *sgr)
{
	t->colors[row * t->ncols + col] = sgr;
}

void texttable_title(struct texttable *t, size_t row, size_t col, const char *s)
{
	struct strbuf safe = STRBUF_INIT;
	char **title = &t->titles[row * t->ncols + col];

	strbuf_add_printable(&safe, s ? s : "");
	free(*title);
	*title = strbuf_detach(&safe);
}

void texttable_row_class(struct texttable *t, size_t row, const char *cls)
{
	t->row_classes[row] = cls;
}

void texttable_span(struct texttable *t, size_t row)
{
	t->span[row] = 1;
}

static size_t display_width(const char *s)
{
	size_t w = 0;

	for (; s && *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(struct strbuf *out, size_t n)
{
	while (n--)
		strbuf_addch(out, ' ');
}

void texttable_render(const struct texttable *t, size_t indent, struct strbuf *out)
{
	size_t *w = calloc(t->ncols, sizeof(size_t));

	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t cw = display_width(t->cells[r * t->ncols + c]);

			if (t->span[r] && c > 0)
				continue;
			if (cw > w[c])
				w[c] = cw;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		size_t len_before = out->len;

		pad(out, indent);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];
			const char *color = t->colors[r * t->ncols + c];
			size_t cw = display_width(s), gap = w[c] > cw ? w[c] - cw : 0;

			if (t->span[r] && c > 1)
				break;
			if (c)
				strbuf_adds(out, "  ");
			if (t->align[c] == 'r' && !(t->span[r] && c == 1))
				pad(out, gap);
			if (color && s)
				strbuf_addf(out, "%s%s\033[0m", color, s);
			else
				strbuf_adds(out, s ? s : "");
			if (t->align[c] != 'r' && c + 1 < t->ncols && !(t->span[r] && c == 1))
				pad(out, gap);
		}
		while (out->len > len_before && out->buf[out->len - 1] == ' ')
			out->buf[--out->len] = '\0';
		strbuf_addch(out, '\n');
	}
	free(w);
}

static void markdown_cell(struct strbuf *out, const char *s)
{
	strbuf_adds(out, " ");
	for (; s && *s; s++) {
		if (*s == '|')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_adds(out, " |");
}

void texttable_render_markdown(const struct texttable *t, struct strbuf *out)
{
	for (size_t r = 0; r < t->nrows; r++) {
		strbuf_addch(out, '|');
		for (size_t c = 0; c < t->ncols; c++)
			markdown_cell(out, t->span[r] && c > 1 ? NULL : t->cells[r * t->ncols + c]);
		strbuf_addch(out, '\n');
		if (r)
			continue;
		strbuf_addch(out, '|');
		for (size_t c = 0; c < t->ncols; c++)
			strbuf_adds(out, t->align[c] == 'r' ? " ---: |" : " :--- |");
		strbuf_addch(out, '\n');
	}
}
