/*
 * The host mechanism: what the machine around a comparison was doing during
 * each native run, from /proc/stat read just before and just after it. Two
 * hidden metrics per run, in ns per CPU (the CPU the runs are pinned to, or
 * the average over all of them): host-steal, time the hypervisor gave the
 * VM's CPUs to someone else, and host-busy, the CPUs' busy time, the
 * program's own included. Neither is compared between variants (a variant
 * does not cause steal); the comparison's noise note reads them
 * (analysis/comparison.h). /proc/stat counts in USER_HZ ticks (10 ms), so a
 * single run says little; the sums over a campaign are what the note uses.
 * Active only in comparisons, and only where /proc/stat has a steal column.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/mechanism.h"
#include "host/sysfs.h"

struct host_state {
	int fd;			/* /proc/stat, open for the campaign: a pread at
				 * offset 0 makes the kernel write it afresh, for
				 * half the cost of an open, a read and a close */
	struct strbuf buf;
	char line[16];		/* "cpu " or "cpuN " */
	double ns_per_tick;	/* per CPU: tick length / CPUs the line covers */
	size_t steal, busy;	/* result metrics */
};

struct host_run {
	int ok;
	unsigned long long steal, busy;
};

/* The steal and busy ticks of the state's line; -1 if unreadable. */
/* The whole file into s->buf, growing it until a pread leaves room. */
static int read_stat(struct host_state *s)
{
	for (;;) {
		ssize_t n;

		strbuf_grow(&s->buf, 4096);
		n = pread(s->fd, s->buf.buf, s->buf.alloc - 1, 0);
		if (n < 0)
			return -1;
		if ((size_t)n < s->buf.alloc - 1) {
			s->buf.len = (size_t)n;
			s->buf.buf[n] = '\0';
			return 0;
		}
		strbuf_grow(&s->buf, s->buf.alloc);	/* full: maybe more */
	}
}

static int read_ticks(struct host_state *s, unsigned long long *steal,
		      unsigned long long *busy, int *ncpus)
{
	unsigned long long v[8];
	const char *p;
	int rc = -1;

	if (read_stat(s) == 0 && (p = strstr(s->buf.buf, s->line)) &&
	    sscanf(p + strlen(s->line), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		*steal = v[7];
		*busy = v[0] + v[1] + v[2] + v[5] + v[6];	/* user nice system irq softirq */
		rc = 0;
	}
	for (p = s->buf.buf; ncpus && !rc && p && (p = strstr(p, "\ncpu")); p += 4)
		*ncpus += p[4] >= '0' && p[4] <= '9';
	return rc;
}

static void host_release(void *state)
{
	struct host_state *s = state;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	strbuf_release(&s->buf);
	free(s);
}

static int host_plan(struct campaign *c, void **state, struct mech_needs *need,
			struct error *err)
{
	struct host_state *s;
	unsigned long long steal, busy;
	long hz = sysconf(_SC_CLK_TCK);
	int ncpus = 0;

	(void)err;
	if (c->res.nvariants < 2 || hz <= 0)
		return 0;
	s = xcalloc(1, sizeof(*s));
	strbuf_init(&s->buf);
	strbuf_addf(&s->buf, "%s/stat", procfs_root());
	s->fd = open(s->buf.buf, O_RDONLY | O_CLOEXEC);
	if (c->o->pin_cpu >= 0)
		snprintf(s->line, sizeof(s->line), "\ncpu%d ", c->o->pin_cpu);
	else
		snprintf(s->line, sizeof(s->line), "cpu ");
	if (s->fd < 0 || read_ticks(s, &steal, &busy, &ncpus) || ncpus < 1) {
		host_release(s);
		return 0;
	}
	need->runs = MECH_NATIVE;
	s->ns_per_tick = 1e9 / (double)hz / (c->o->pin_cpu >= 0 ? 1 : ncpus);
	result_add_metric(&c->res, "host-steal", "ns", MSRC_HOST)->hidden = 1;
	s->steal = c->res.nmetrics - 1;
	result_add_metric(&c->res, "host-busy", "ns", MSRC_HOST)->hidden = 1;
	s->busy = c->res.nmetrics - 1;
	c->res.metrics[s->steal].implicit = c->res.metrics[s->busy].implicit = 1;
	*state = s;
	return 0;
}

static int host_begin(struct campaign *c, void *state, struct run_setup *rs, void *run,
		      struct error *err)
{
	struct host_run *hr = run;

	(void)c;
	(void)rs;
	(void)err;
	hr->ok = read_ticks(state, &hr->steal, &hr->busy, NULL) == 0;
	return 0;
}

static void host_end(struct campaign *c, void *state, void *run,
		     const struct measure_outcome *out, size_t run_index)
{
	struct host_state *s = state;
	const struct host_run *hr = run;
	unsigned long long steal, busy;

	(void)out;
	if (!hr->ok || c->res.runs[run_index].status == RUN_EXEC_FAILED ||
	    read_ticks(s, &steal, &busy, NULL) || steal < hr->steal || busy < hr->busy)
		return;
	campaign_set_value(c, run_index, s->steal, (double)(steal - hr->steal) * s->ns_per_tick);
	campaign_set_value(c, run_index, s->busy, (double)(busy - hr->busy) * s->ns_per_tick);
}

const struct mechanism_ops mech_host = {
	.name = "host",
	.run_size = sizeof(struct host_run),
	.plan = host_plan,
	.begin = host_begin,
	.end = host_end,
	.release = host_release,
};
