/*
 * The sysfs PMU model: every PMU under <sysfs>/bus/event_source/devices, with
 * its type, format terms (bit ranges into config/config1/config2), event
 * aliases (with .scale/.unit), caps and cpumask. Reads PMUSTAT_SYSFS_ROOT
 * instead of /sys when set, which is how recorded machines (tests/fixtures)
 * are tested on any host.
 */
#ifndef PMU_HOST_SYSFS_H
#define PMU_HOST_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* One contiguous bit range of a format term: config<field>:lo-hi. */
struct sysfs_bits {
	int field;	/* 0 = config, 1 = config1, 2 = config2 (3 = config3) */
	int lo, hi;	/* inclusive */
};

struct sysfs_format {
	char *name;		/* "event", "umask", "cmask", "edge", ... */
	struct sysfs_bits bits[4];	/* split ranges, low value bits first */
	int nbits;
};

struct sysfs_alias {
	char *name;		/* file name under events/, e.g. "tsc" */
	char *terms;		/* file content, e.g. "event=0x00" */
	double scale;		/* from <name>.scale, else 1.0 */
	char *unit;		/* from <name>.unit, else "" */
};

struct sysfs_pmu {
	char *name;		/* directory name: "cpu", "msr", "amd_l3" */
	int type;		/* content of `type` */
	struct sysfs_format *formats;
	size_t nformats;
	struct sysfs_alias *aliases;
	size_t naliases;
	char *cpumask;		/* content of cpumask, or NULL if absent */
	char *cpus;		/* content of cpus (the CPUs of one core type of a
				 * hybrid part: "0-15" for cpu_core), or NULL if absent */
	char **caps;		/* "name=value" lines from caps/, NULL-terminated or NULL */
	size_t ncaps;
};

struct sysfs_model {
	char *root;		/* the sysfs root that was read ("/sys" or a fixture) */
	struct sysfs_pmu *pmus;
	size_t npmus;
};

/* The sysfs root in effect: $PMUSTAT_SYSFS_ROOT or "/sys". */
const char *sysfs_root(void);
/* The procfs root in effect: $PMUSTAT_PROC_ROOT or "/proc". */
const char *procfs_root(void);

/* Read the model under root (NULL: sysfs_root()). A missing
 * event_source/devices directory yields an empty model, not an error; a
 * root that is not a directory at all is an error (a mistyped
 * PMUSTAT_SYSFS_ROOT). On error m is left empty (release is harmless). */
int sysfs_model_load(struct sysfs_model *m, const char *root, struct error *err);
void sysfs_model_release(struct sysfs_model *m);

const struct sysfs_pmu *sysfs_pmu_find(const struct sysfs_model *m, const char *name);
/* The PMU whose `type` is type, or NULL (maps a libpfm encoding to a name). */
const struct sysfs_pmu *sysfs_pmu_find_type(const struct sysfs_model *m, int type);
const struct sysfs_format *sysfs_format_find(const struct sysfs_pmu *p, const char *term);
const struct sysfs_alias *sysfs_alias_find(const struct sysfs_pmu *p, const char *name);

/*
 * Read a small text file (a sysfs attribute, a /proc file) whole, with
 * trailing whitespace removed. Returns 0 with *out malloc'd; 1 when path
 * does not exist (*out = NULL, err untouched), so optional attributes such
 * as cpumask are cheap to probe; -1 with err naming the file otherwise.
 * Every read of sysfs and procfs goes through here: only a regular file of
 * at most 16 MiB is read, so a FIFO or a device planted in a recorded tree
 * (PMUSTAT_SYSFS_ROOT, PMUSTAT_PROC_ROOT) is an error, never a hang.
 */
int sysfs_read_text(const char *path, char **out, struct error *err);

/*
 * The sorted entry names of dir (without "." and ".."), malloc'd. Returns 0,
 * or 1 if dir does not exist (an optional group such as caps/), or -1.
 */
int sysfs_list_dir(const char *dir, char ***names, size_t *n, struct error *err);

/* Parse a format spec like "config:0-7,32-35" or "config1:3" into f->bits
 * and f->nbits (f->name is left alone). Trailing whitespace is ignored. */
int sysfs_format_parse(const char *spec, struct sysfs_format *f, struct error *err);

/* Place value into the config words per f, low value bits into the first
 * range; the bits f covers are cleared first, so a later term overrides an
 * earlier one (as perf does). Fails, leaving config untouched, if value
 * does not fit in f's width. */
int sysfs_format_encode(const struct sysfs_format *f, uint64_t value,
			uint64_t config[4], struct error *err);
/* Total number of value bits f holds (sum of its ranges, at most 64). */
int sysfs_format_width(const struct sysfs_format *f);

#endif
