/*
 * Event lists for libpmustat. Standalone users name events the way perf
 * does for the kernel's generic and software events (task-clock,
 * instructions:u), or give a raw core-PMU config (r00c0) or an encoded item
 * (TYPE:CONFIG...). Anything richer — libpfm4 names, PMU/term=.../ syntax,
 * per-CPU metrics — needs the tool's full parser: run under `pmustat stat`,
 * which hands the library the encoded items in PMUSTAT_REGION_ATTRS.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} known[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
};

static void attr_init(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
}

static void set_flags(struct perf_event_attr *a, unsigned long long f)
{
	a->exclude_user = !!(f & PMUSTAT_XF_USER);
	a->exclude_kernel = !!(f & PMUSTAT_XF_KERNEL);
	a->exclude_hv = !!(f & PMUSTAT_XF_HV);
	a->exclude_idle = !!(f & PMUSTAT_XF_IDLE);
	a->exclude_host = !!(f & PMUSTAT_XF_HOST);
	a->exclude_guest = !!(f & PMUSTAT_XF_GUEST);
}

/* One unsigned number in C syntax, the whole of [s, end). */
static int number(const char *s, const char *end, unsigned long long *v)
{
	char buf[32], *stop;
	size_t len = (size_t)(end - s);

	if (!len || len >= sizeof(buf) || *s == '-' || *s == '+')
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &stop, 0);
	return *stop || errno ? -1 : 0;
}

/* TYPE:CONFIG[:CONFIG1[:CONFIG2[:FLAGS[:LEADER]]]] in [s, end). */
static int parse_item(const char *s, const char *end, struct pm_event *ev, int self)
{
	unsigned long long f[6] = { 0, 0, 0, 0, 0, (unsigned long long)self };
	int nf = 0;

	while (s <= end && nf < 6) {
		const char *colon = memchr(s, ':', (size_t)(end - s));
		const char *stop = colon ? colon : end;

		if (number(s, stop, &f[nf++]))
			return -1;
		s = stop + 1;
		if (!colon)
			break;
	}
	if (nf < 2 || s <= end || f[0] > 0xffffffffull)
		return -1;
	attr_init(&ev->attr, (uint32_t)f[0], f[1]);
	ev->attr.config1 = f[2];
	ev->attr.config2 = f[3];
	set_flags(&ev->attr, f[4]);
	if (f[5] > (unsigned long long)self)	/* a leader comes first */
		return -1;
	ev->leader = (int)f[5];
	return 0;
}

/* name[:mods], mods from "ukh": perf's meaning (count only these levels). */
static int parse_name(const char *s, const char *end, struct pm_event *ev)
{
	const char *colon = memchr(s, ':', (size_t)(end - s));
	size_t len = (size_t)((colon ? colon : end) - s);
	unsigned long long raw;
	int found = 0;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]) && !found; i++)
		if (strlen(known[i].name) == len && !memcmp(known[i].name, s, len)) {
			attr_init(&ev->attr, known[i].type, known[i].config);
			found = 1;
		}
	if (!found && len > 1 && *s == 'r') {
		char hex[24];

		if (len - 1 >= sizeof(hex) - 2)
			return -1;
		memcpy(hex, "0x", 2);
		memcpy(hex + 2, s + 1, len - 1);
		if (number(hex, hex + len + 1, &raw))
			return -1;
		attr_init(&ev->attr, PERF_TYPE_RAW, raw);
		found = 1;
	}
	if (!found)
		return -1;
	if (colon) {
		int u = 0, k = 0, h = 0;

		for (const char *m = colon + 1; m < end; m++) {
			if (*m == 'u')
				u = 1;
			else if (*m == 'k')
				k = 1;
			else if (*m == 'h')
				h = 1;
			else
				return -1;
		}
		ev->attr.exclude_user = !u;
		ev->attr.exclude_kernel = !k;
		ev->attr.exclude_hv = !h;
	}
	return 0;
}

static int parse_list(const char *s, struct pm_event_list *out, int names, char *err,
		      size_t errlen)
{
	const char *p = s;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *end = p + strcspn(p, ",");
		struct pm_event *ev = &out->ev[out->n];
		size_t len = (size_t)(end - p);
		int rc;

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (out->n == PMUSTAT_MAX_EVENTS) {
			snprintf(err, errlen, "more than %d events", PMUSTAT_MAX_EVENTS);
			return -1;
		}
		if (!len) {
			snprintf(err, errlen, "empty event in '%s'", s);
			return -1;
		}
		if (names && !(*p >= '0' && *p <= '9')) {
			rc = parse_name(p, p + len, ev);
			ev->leader = 0;
		} else {
			rc = parse_item(p, p + len, ev, out->n);
			if (names)
				ev->leader = 0;
			else if (!rc && out->ev[ev->leader].leader != ev->leader &&
				 ev->leader != out->n)
				rc = -1;	/* a member's leader must lead */
		}
		if (rc) {
			snprintf(err, errlen, names ? "unknown event '%.*s'" : "bad event item '%.*s'",
				 (int)len, p);
			return -1;
		}
		snprintf(ev->name, sizeof(ev->name), "%.*s", (int)len, p);
		out->n++;
		p = *end ? end + 1 : end;
	}
	if (!out->n && names) {	/* the tool may ask for entry counts only */
		snprintf(err, errlen, "no events given");
		return -1;
	}
	return 0;
}

int pmustat__parse_events(const char *s, struct pm_event_list *out, char *err, size_t errlen)
{
	return parse_list(s, out, 1, err, errlen);
}

int pmustat__parse_attrs(const char *s, struct pm_event_list *out, char *err, size_t errlen)
{
	return parse_list(s, out, 0, err, errlen);
}
