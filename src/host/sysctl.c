/*
 * host_sysctl_int (see sysctl.h). The file is read whole and must be one
 * integer up to trailing whitespace: "2\n" is 2, but a multi-value sysctl
 * such as kernel/printk is not mistaken for its first field.
 */
#include "host/sysctl.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "core/strbuf.h"
#include "host/sysfs.h"

int host_sysctl_int(const char *name, int *value)
{
	struct strbuf path = STRBUF_INIT;
	char *text = NULL, *end;
	long v;
	int rc = -1;

	strbuf_addf(&path, "%s/sys/%s", procfs_root(), name);
	if (sysfs_read_text(path.buf, &text, NULL) == 0 && text && *text) {
		errno = 0;
		v = strtol(text, &end, 10);
		if (!*end && !errno && v >= INT_MIN && v <= INT_MAX) {
			*value = (int)v;
			rc = 0;
		}
	}
	free(text);
	strbuf_release(&path);
	return rc;
}
