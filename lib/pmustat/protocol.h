/*
 * The hand-off between the pmustat tool and libpmustat inside a measured
 * program: environment variable names, the encoding of an event item and the
 * report schema. The only file both sides include (src/backend/regions.c and
 * lib/pmustat/), so the two can never disagree. Macros only, no code.
 *
 * Tool mode (set by `pmustat stat/compare` through regions_prepare):
 *   PMUSTAT_REGION_FD=N[:INO]   an inherited, writable fd (used only if its
 *                               inode is INO, when given)
 *   PMUSTAT_REGION_PATH=P       else the report file to open for appending
 *                               (the tool gives /proc/PID/fd/N of its memfd:
 *                               children are forked by a spawn server and do
 *                               not inherit the tool's descriptors)
 *   Each process that used the markers appends one report line.
 *   PMUSTAT_REGION_ATTRS=I,I..  the run's events, already encoded, one item each:
 *       TYPE:CONFIG[:CONFIG1[:CONFIG2[:FLAGS[:LEADER]]]]
 *   numbers in C syntax (0x.. or decimal); FLAGS is a PMUSTAT_XF_* mask;
 *   LEADER is the index of the item's group leader (default: itself).
 * Standalone mode (by hand):
 *   PMUSTAT_EVENTS=task-clock,instructions:u,r00c0,1:0x1   names or items
 *   PMUSTAT_OUTPUT=path          report file ("%p" -> pid); default stderr
 * Tool mode wins when both are set.
 *
 * A report is one line of JSON (schema PMUSTAT_REGIONS_SCHEMA), see
 * docs/regions.md.
 */
#ifndef PMUSTAT_LIB_PROTOCOL_H
#define PMUSTAT_LIB_PROTOCOL_H

#define PMUSTAT_ENV_FD		"PMUSTAT_REGION_FD"
#define PMUSTAT_ENV_PATH	"PMUSTAT_REGION_PATH"
#define PMUSTAT_ENV_ATTRS	"PMUSTAT_REGION_ATTRS"
#define PMUSTAT_ENV_EVENTS	"PMUSTAT_EVENTS"
#define PMUSTAT_ENV_OUTPUT	"PMUSTAT_OUTPUT"

#define PMUSTAT_REGIONS_SCHEMA	"pmustat.regions/1"

/* FLAGS bits of an event item: perf_event_attr exclude_* bits. */
#define PMUSTAT_XF_USER		0x01u
#define PMUSTAT_XF_KERNEL	0x02u
#define PMUSTAT_XF_HV		0x04u
#define PMUSTAT_XF_IDLE		0x08u
#define PMUSTAT_XF_HOST		0x10u
#define PMUSTAT_XF_GUEST	0x20u

/* Limits per process. */
#define PMUSTAT_MAX_EVENTS	16
#define PMUSTAT_MAX_REGIONS	1024

#endif
