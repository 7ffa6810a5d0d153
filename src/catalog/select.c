/*
 * Catalogue selection (see select.h): identify the CPU, map it to a uarch
 * through data/cpus.json, load that uarch's catalogue, and read the host's
 * PMUs and perf permissions when the catalogue describes this very host.
 */
#include "catalog/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/sysctl.h"

int catalog_host_open(struct catalog_host *h, const char *uarch_opt, struct error *err)
{
	return catalog_host_open_lent(h, uarch_opt, NULL, err);
}

int catalog_host_open_lent(struct catalog_host *h, const char *uarch_opt,
			   const struct sysfs_model *model, struct error *err)
{
	struct error e2;
	const char *want;

	memset(h, 0, sizeof(*h));
	if (cpu_identify(&h->id, err) < 0 || cpu_uarch(&h->id, uarch_opt, &h->u, err) < 0)
		return -1;
	want = h->u.name;
	if (catalog_load(&h->cat, want, &e2) < 0) {
		if (e2.kind != ERR_USAGE || catalog_load(&h->cat, "generic", err) < 0) {
			*err = e2;
			return -1;
		}
		snprintf(h->note, sizeof(h->note), "the catalogue has no data for '%s' yet: "
			 "using the kernel's generic events", want);
	}
	h->checked = !strcmp(h->u.name, h->u.detected);
	if (h->checked) {
		if (!model && sysfs_model_load(&h->model, NULL, err) < 0) {
			catalog_host_release(h);
			return -1;
		}
		h->ctx.model = model ? model : &h->model;
		h->ctx.paranoid = 2;	/* the kernel's default when unreadable */
		host_sysctl_int("kernel/perf_event_paranoid", &h->ctx.paranoid);
		h->ctx.privileged = geteuid() == 0;
	} else if (!h->note[0]) {
		snprintf(h->note, sizeof(h->note), "describing %s; not checked against this host, "
			 "which is %s", h->u.name, h->u.detected[0] ? h->u.detected : "unknown");
	}
	return 0;
}

void catalog_host_release(struct catalog_host *h)
{
	catalog_release(&h->cat);
	sysfs_model_release(&h->model);
	memset(h, 0, sizeof(*h));
}
