/*
 * perf_event_open counting for one run. Counters are opened disabled with
 * enable_on_exec, either on the spawn server before it forks the run (the
 * child inherits them, and only its exec enables them) or on the child
 * between its fork and its exec (it waits for the go byte), so only the
 * measured program is counted, never our fork path. inherit makes threads
 * and child processes count too; their counts are added to the event
 * pmustat reads when each of them exits.
 */
#include "backend/perf_event.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "catalog/event_kind.h"
#include "core/strbuf.h"
#include "host/checks.h"
#include "host/hostinfo.h"

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int is_inherited(const struct event_spec *ev)
{
	return strcmp(ev->pmu, "uprobe") != 0;
}

int perf_events_inherited(const struct event_spec *evs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_inherited(&evs[i]))
			return 0;
	return 1;
}

static void attr_for_count(struct perf_event_attr *a, const struct event_spec *ev,
			   int leader)
{
	*a = ev->attr;
	a->size = sizeof(*a);
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* Not for uprobes: an inherited uprobe event re-reads attr.config1
	 * (a pointer to the object's path, valid in pmustat only) in the
	 * process that forks, so the measured program's fork() fails with
	 * EFAULT; and inherited uprobe events do not count in the children
	 * anyway (both seen on Linux 6.18; see backend/callcount.h). */
	a->inherit = is_inherited(ev);
	/* Members follow their leader's enable state; only leaders start
	 * disabled and wait for exec. */
	a->disabled = leader;
	a->enable_on_exec = leader;
}

size_t perf_set_open(struct perf_set *s, const struct event_spec *evs, const size_t *group,
		     size_t n, pid_t pid)
{
	size_t opened = 0;

	s->n = n;
	s->c = xcalloc(n ? n : 1, sizeof(*s->c));
	for (size_t i = 0; i < n; i++) {
		s->c[i].ev = &evs[i];
		s->c[i].fd = -1;
	}
	/* Leaders first (pass 0), then members: the planner may list a member
	 * before its leader (-e r10:u,instructions:u, the anchor leading),
	 * and a member needs its leader's descriptor. Opened in list order,
	 * such a member got group_fd 0 (its leader's slot not yet filled) and
	 * EBADF: no value, and no reason said (#22, the emulated arm64 PMU). */
	for (size_t k = 0; k < 2 * n; k++) {
		size_t i = k % n, lead = group ? group[i] : i;
		struct perf_event_attr a;
		int group_fd = -1;

		if (lead == (size_t)-1 || (lead == i) != (k < n))
			continue;	/* not in this run's group, or not in this pass */
		if (lead != i) {
			group_fd = s->c[lead].fd;
			if (group_fd < 0) {
				/* Without its leader a member would count
				 * alone and unsynchronised: refuse. */
				s->c[i].open_errno = s->c[lead].open_errno;
				continue;
			}
		}
		attr_for_count(&a, &evs[i], lead == i);
		s->c[i].fd = sys_perf_event_open(&a, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
		if (s->c[i].fd < 0)
			s->c[i].open_errno = errno;
		else
			opened++;
	}
	return opened;
}

static void hold_kind(struct perf_held *h, uint64_t config)
{
	struct perf_event_attr a;
	int fd;

	if (config >= 32 || (h->kinds & (1u << config)) || h->n == PERF_HELD_MAX)
		return;
	h->kinds |= 1u << config;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.disabled = 1;
	/* The keys do not care; a stricter perf_event_paranoid does. */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		h->fd[h->n++] = fd;
}

void perf_hold(struct perf_held *h, const struct event_spec *evs, size_t n)
{
	hold_kind(h, PERF_COUNT_SW_DUMMY);	/* the per-task key */
	for (size_t i = 0; i < n; i++)
		if (evs[i].attr.type == PERF_TYPE_SOFTWARE)
			hold_kind(h, evs[i].attr.config);
}

void perf_held_release(struct perf_held *h)
{
	for (size_t i = 0; i < h->n; i++)
		close(h->fd[i]);
	memset(h, 0, sizeof(*h));
}

int perf_set_read(const struct perf_set *s, size_t i, struct perf_reading *r,
		  struct error *err)
{
	uint64_t buf[3];
	ssize_t got;

	if (i >= s->n || s->c[i].fd < 0)
		return error_set(err, ERR_RUNTIME, "counter '%s' is not open",
				 i < s->n ? s->c[i].ev->name : "?");
	got = read(s->c[i].fd, buf, sizeof(buf));
	if (got != (ssize_t)sizeof(buf))
		return error_set(err, ERR_RUNTIME, "cannot read counter '%s': %s",
				 s->c[i].ev->name, got < 0 ? strerror(errno) : "short read");
	r->value = buf[0];
	r->enabled = buf[1];
	r->running = buf[2];
	return 0;
}

void perf_set_release(struct perf_set *s)
{
	/* Close members before leaders: closing a leader first would promote
	 * its members to singletons for no benefit. */
	for (size_t i = s->n; i-- > 0;)
		if (s->c[i].fd >= 0)
			close(s->c[i].fd);
	free(s->c);
	s->c = NULL;
	s->n = 0;
}

int perf_open_attached(const struct event_spec *ev, pid_t pid, int cpu, int group_fd,
		       int inherit)
{
	struct perf_event_attr a;

	attr_for_count(&a, ev, group_fd < 0);
	a.enable_on_exec = 0;
	a.inherit = inherit && pid >= 0 && a.inherit;
	return sys_perf_event_open(&a, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

int perf_enable_group(int leader_fd)
{
	return ioctl(leader_fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

int perf_read_fd(int fd, struct perf_reading *r)
{
	uint64_t buf[3];
	ssize_t got = read(fd, buf, sizeof(buf));

	if (got != (ssize_t)sizeof(buf)) {
		if (got >= 0)
			errno = EIO;
		return -1;
	}
	r->value = buf[0];
	r->enabled = buf[1];
	r->running = buf[2];
	return 0;
}

int perf_probe(const struct event_spec *ev, const struct hostinfo *host, struct error *err)
{
	return perf_probe_cpu(ev, host, -1, err);
}

int perf_probe_cpu(const struct event_spec *ev, const struct hostinfo *host, int cpu,
		   struct error *err)
{
	struct perf_event_attr a = ev->attr;
	int fd;

	a.size = sizeof(a);
	a.disabled = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.inherit = cpu < 0;
	fd = sys_perf_event_open(&a, cpu < 0 ? 0 : -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	perf_open_strerror(ev, errno, host, err);
	return -1;
}

int perf_kernel_excluded(void)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EACCES || errno == EPERM;
}

static void strerror_no_pmu(const struct event_spec *ev, const struct hostinfo *h,
			    struct error *err)
{
	/* The doctor's cause and remedy (host/checks.c): one source of truth. */
	if (checks_explain_hw_event(ev->name, err))
		return;
	if (h->hypervisor == 1)
		error_set(err, ERR_RUNTIME,
			  "'%s' not counted: this host has no hardware PMU "
			  "(virtual machine without a virtual PMU)", ev->name);
	else
		error_set(err, ERR_RUNTIME,
			  "'%s' not counted: this host has no hardware PMU "
			  "(the kernel does not support this CPU's PMU)", ev->name);
	error_hint(err, "see 'pmustat doctor'; software events, call counters and "
			"'--backend sim' still work");
}

void perf_open_strerror(const struct event_spec *ev, int errnum, const struct hostinfo *host,
			struct error *err)
{

	switch (errnum) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (event_needs_core_pmu(ev) && !host->hw_pmu) {
			strerror_no_pmu(ev, host, err);
			return;
		}
		error_set(err, ERR_RUNTIME, "'%s' not counted: the kernel does not support "
			  "this event on PMU '%s' (%s)", ev->name, ev->pmu, strerror(errnum));
		error_hint(err, "see 'pmustat list' for the events usable here");
		return;
	case EACCES:
	case EPERM:
		error_set(err, ERR_RUNTIME, "'%s' not counted: permission denied", ev->name);
		error_hint(err, "lower kernel.perf_event_paranoid (sysctl "
				"kernel.perf_event_paranoid=1), or grant CAP_PERFMON");
		return;
	case EINVAL:
		if (ev->attr.exclude_kernel && host->paranoid > 1 && !event_needs_core_pmu(ev) &&
		    ev->attr.type != PERF_TYPE_SOFTWARE && !ev->uncore) {
			/* Some PMUs (msr, power, ...) cannot leave the kernel out and
			 * refuse the request as invalid; with the kernel counted the
			 * refusal is a permission one, as doctor's probe shows. */
			error_set(err, ERR_RUNTIME, "'%s' not counted: permission denied (PMU '%s' "
				  "cannot leave the kernel out, and counting the kernel is not "
				  "allowed at perf_event_paranoid %d)", ev->name, ev->pmu,
				  host->paranoid);
			error_hint(err, "lower kernel.perf_event_paranoid (sysctl "
					"kernel.perf_event_paranoid=1), or grant CAP_PERFMON");
			return;
		}
		if (ev->uncore) {
			error_set(err, ERR_RUNTIME, "'%s' not counted: PMU '%s' counts "
				  "system-wide only, not per process", ev->name, ev->pmu);
			error_hint(err, "see 'pmustat explain %s' for a per-process proxy",
				   ev->name);
			return;
		}
		error_set(err, ERR_RUNTIME, "'%s' not counted: the kernel rejected its "
			  "encoding (EINVAL)", ev->name);
		error_hint(err, "check the event's terms against 'pmustat list --events'");
		return;
	case EMFILE:
		error_set(err, ERR_RUNTIME, "'%s' not counted: too many open files", ev->name);
		error_hint(err, "raise the limit with 'ulimit -n'");
		return;
	default:
		error_set(err, ERR_RUNTIME, "'%s' not counted: %s", ev->name, strerror(errnum));
		error_hint(err, "see 'pmustat doctor'");
	}
}
