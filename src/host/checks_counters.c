/*
 * How many counters the core PMU has, where no CPUID says it (arm64): the
 * kernel shows no count in sysfs there, and a live probe cannot find it
 * (in a QEMU guest the kernel accepted and "ran" groups of 32 generic
 * events). Two sources are said by name:
 * - pmustat's data for the detected uarch (data/uarch/NAME.json, the core
 *   PMU's "counters" and their "source": the vendor's manual), not for the
 *   generic uarch, whose capacity is a conservative planning default;
 * - the kernel's boot log line of the arm PMU driver
 *   (drivers/perf/arm_pmu.c: "hw perfevents: enabled with %s PMU driver,
 *   %d counters available", the cycle counter included), live only and
 *   only when the log is readable (kernel.dmesg_restrict, and the line may
 *   have rotated out of the ring buffer on a long-running machine).
 */
#include "host/checks_int.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#include "core/embed.h"
#include "core/strbuf.h"

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10
#define DRIVER_LINE "hw perfevents: enabled with "

/* The count on the arm PMU driver's boot line, or -1. */
static int boot_log_counters(void)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0), got, n = -1;
	char *buf, *p, *q;

	if (size <= 0)
		return -1;
	buf = xmalloc((size_t)size + 1);
	got = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (got > 0) {
		buf[got] = '\0';
		if ((p = strstr(buf, DRIVER_LINE)) && (q = strchr(p, '\n')) != NULL)
			*q = '\0';
		if (p && (q = strstr(p, " PMU driver, ")) != NULL &&
		    sscanf(q, " PMU driver, %d counters available", &n) != 1)
			n = -1;
	}
	free(buf);
	return n;
}

/* The core PMU's counters in the uarch's data file, with the short name of
 * its source (up to the first ':'): 0, or -1 when there are none. */
static int data_counters(const char *uarch, int *gp, int *fixed, char *src, size_t len)
{
	char name[96];
	size_t n;
	const char *text;
	json_t *root, *p;
	size_t i;
	int rc = -1;

	snprintf(name, sizeof(name), "data/uarch/%s.json", uarch);
	if (!strcmp(uarch, "generic") || !(text = embed_find(name, &n)) ||
	    !(root = json_loadb(text, n, 0, NULL)))
		return -1;
	json_array_foreach(json_object_get(root, "pmus"), i, p) {
		json_t *c = json_object_get(p, "counters");
		const char *s = json_string_value(json_object_get(p, "source"));

		if (rc == 0 || strcmp(json_string_value(json_object_get(p, "name")) ?: "", "core") ||
		    !json_is_integer(json_object_get(c, "gp")))
			continue;
		*gp = (int)json_integer_value(json_object_get(c, "gp"));
		*fixed = (int)json_integer_value(json_object_get(c, "fixed"));
		snprintf(src, len, "%.*s", s ? (int)strcspn(s, ":;") : 0, s ? s : "");
		rc = 0;
	}
	json_decref(root);
	return rc;
}

void checks_counters_text(const struct checks *c, struct strbuf *out)
{
	int gp = -1, fixed = 0, logged = c->recorded ? -1 : boot_log_counters();
	char src[128] = "";
	int data = data_counters(c->uarch.name, &gp, &fixed, src, sizeof(src)) == 0;

	if (data) {
		strbuf_addf(out, ", %d event counters%s (pmustat's data for %s: %s", gp,
			    fixed == 1 ? " + the cycle counter" : "", c->uarch.name,
			    src[0] ? src : "its manual");
		if (logged >= 0)
			strbuf_addf(out, "; the kernel's boot log %s: %d counters available",
				    logged == gp + fixed ? "agrees" : "differs", logged);
		strbuf_adds(out, ")");
	} else if (logged >= 0) {
		strbuf_addf(out, ", %d counters available, the cycle counter included (the "
			    "kernel's boot log)", logged);
	} else {
		strbuf_addf(out, ", counters: unknown (the kernel shows no count in sysfs here, "
			    "%s, and pmustat has no data for uarch %s)", c->recorded ?
			    "a recorded machine has no boot log" : "its boot log is not readable",
			    c->uarch.name);
	}
}
