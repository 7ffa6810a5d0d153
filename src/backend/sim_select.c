/*
 * Backend selection (see sim_select.h). One function per mode for hardware
 * metrics, since that is where the modes differ; everything else is counted
 * natively in every mode. The reasons are written for the result's notes,
 * so they say what happened and why, and the hints name the command or
 * option that changes it.
 */
#include "backend/sim_select.h"

#include <stdio.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const mode_names[] = { "auto", "hw", "sim", "sw" };

int backend_mode_parse(const char *s, enum backend_mode *m, struct error *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(mode_names); i++)
		if (!strcmp(s, mode_names[i])) {
			*m = (enum backend_mode)i;
			return 0;
		}
	error_set(err, ERR_USAGE, "unknown backend '%s'", s);
	return error_hint(err, "use --backend auto, hw, sim or sw");
}

const char *backend_mode_name(enum backend_mode m)
{
	return (size_t)m < ARRAY_SIZE(mode_names) ? mode_names[m] : "?";
}

const char *backend_kind_name(enum backend_kind k)
{
	static const char *const names[] = { "none", "perf", "sim", "call", "process" };

	return (size_t)k < ARRAY_SIZE(names) ? names[k] : "?";
}

static void set(struct backend_choice *c, enum backend_kind k, const char *reason,
		const char *hint)
{
	c->kind = k;
	snprintf(c->reason, sizeof(c->reason), "%s", reason ? reason : "");
	snprintf(c->hint, sizeof(c->hint), "%s", hint ? hint : "");
}

static const char install_hint[] = "install valgrind to simulate it: 'apt-get install valgrind'";

static void hw_auto(const struct backend_caps *c, struct backend_choice *out)
{
	if (c->hw_countable)
		set(out, BK_PERF, NULL, NULL);
	else if (c->simulable && c->valgrind && c->requested)
		set(out, BK_SIM, "no hardware counter here: simulated by cachegrind "
				 "(exact for its cache model, not this CPU's)",
		    "count it in hardware on a host with a PMU ('pmustat doctor')");
	else if (c->simulable && c->valgrind)
		/* Simulating the implicit default set would make every plain
		 * `stat` 20-100x slower: only what the user named. */
		set(out, BK_NONE, "no hardware counter here; cachegrind simulates only "
				  "metrics named with -m",
		    "name it with -m to simulate it, or see 'pmustat doctor'");
	else if (c->simulable)
		set(out, BK_NONE, "no hardware counter here, and valgrind is not installed "
				  "to simulate it", install_hint);
	else
		set(out, BK_NONE, "no hardware counter here, and cachegrind does not "
				  "simulate it", "measure it on a host with a PMU ('pmustat doctor')");
}

static void hw_hw(const struct backend_caps *c, struct backend_choice *out)
{
	if (c->hw_countable)
		set(out, BK_PERF, NULL, NULL);
	else
		set(out, BK_NONE, "no hardware counter for it here, and --backend hw never "
				  "simulates",
		    c->simulable ? "use --backend auto or sim to simulate it"
				 : "see 'pmustat doctor'");
}

static int hw_sim(const struct backend_caps *c, struct backend_choice *out, struct error *err)
{
	if (!c->valgrind) {
		error_set(err, ERR_RUNTIME, "cannot simulate: valgrind is not installed");
		return error_hint(err, "install it with 'apt-get install valgrind', or use "
				  "'--backend hw' or '--backend sw'");
	}
	if (c->simulable)
		set(out, BK_SIM, NULL, NULL);
	else
		set(out, BK_NONE, "cachegrind does not simulate it",
		    "use --backend hw on a host with a PMU, or --backend auto");
	return 0;
}

int backend_choose(enum backend_mode mode, enum metric_class cls, const struct backend_caps *caps,
		   struct backend_choice *out, struct error *err)
{
	set(out, BK_NONE, NULL, NULL);
	switch (cls) {
	case MCLASS_SOFTWARE:
		set(out, BK_PERF, NULL, NULL);
		return 0;
	case MCLASS_CALL:
		set(out, BK_CALL, NULL, NULL);
		return 0;
	case MCLASS_PROCESS:
		set(out, BK_PROCESS, NULL, NULL);
		return 0;
	case MCLASS_HARDWARE:
		break;
	}
	switch (mode) {
	case BACKEND_AUTO:
		hw_auto(caps, out);
		return 0;
	case BACKEND_HW:
		hw_hw(caps, out);
		return 0;
	case BACKEND_SIM:
		return hw_sim(caps, out, err);
	case BACKEND_SW:
		set(out, BK_NONE, "--backend sw counts software events only",
		    "use --backend auto to count or simulate it");
		return 0;
	}
	return 0;
}

void backend_plan_runs(enum backend_mode mode, const enum metric_class *classes,
		       const struct backend_caps *caps, struct backend_choice *choices, size_t n,
		       int *native, int *sim)
{
	*native = mode != BACKEND_SIM;
	*sim = 0;
	for (size_t i = 0; i < n; i++) {
		enum backend_kind k = choices[i].kind;

		*sim |= k == BK_SIM;
		*native |= k == BK_PERF || k == BK_CALL ||
			   (k == BK_PROCESS && caps[i].requested);
	}
	if (*native)
		return;
	for (size_t i = 0; i < n; i++)
		if (classes[i] == MCLASS_PROCESS)
			set(&choices[i], BK_NONE, "not measured: --backend sim runs the program "
				"under valgrind only, and time under simulation is not the "
				"program's", "name it in -m to add native runs for it");
}
