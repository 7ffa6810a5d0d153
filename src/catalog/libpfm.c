/*
 * The lazy libpfm4 binding (see libpfm.h). The symbol table is filled
 * once; a library without one of the symbols counts as missing.
 */
#include "catalog/libpfm.h"

#include <dlfcn.h>
#include <stddef.h>

static struct {
	int tried;
	void *handle;
	const char *why;
	int (*initialize)(void);
	int (*get_pmu_info)(pfm_pmu_t, pfm_pmu_info_t *);
	int (*get_event_info)(int, pfm_os_t, pfm_event_info_t *);
	int (*get_event_next)(int);
	int (*get_os_event_encoding)(const char *, int, pfm_os_t, void *);
	const char *(*strerror)(int);
} pfm;

static void *sym(const char *name)
{
	void *p = pfm.handle ? dlsym(pfm.handle, name) : NULL;

	if (!p && pfm.handle && !pfm.why)
		pfm.why = dlerror();
	return p;
}

static int loaded(void)
{
	if (pfm.tried)
		return pfm.handle != NULL;
	pfm.tried = 1;
	pfm.handle = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);
	if (!pfm.handle) {
		pfm.why = dlerror();
		return 0;
	}
	/* POSIX's way to turn a data pointer into a function pointer. */
	*(void **)&pfm.initialize = sym("pfm_initialize");
	*(void **)&pfm.get_pmu_info = sym("pfm_get_pmu_info");
	*(void **)&pfm.get_event_info = sym("pfm_get_event_info");
	*(void **)&pfm.get_event_next = sym("pfm_get_event_next");
	*(void **)&pfm.get_os_event_encoding = sym("pfm_get_os_event_encoding");
	*(void **)&pfm.strerror = sym("pfm_strerror");
	if (pfm.why) {
		dlclose(pfm.handle);
		pfm.handle = NULL;
	}
	return pfm.handle != NULL;
}

const char *libpfm_missing(void)
{
	return loaded() ? NULL : pfm.why;
}

int lpfm_initialize(void)
{
	return loaded() ? pfm.initialize() : PFM_ERR_NOINIT;
}

int lpfm_get_pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info)
{
	return loaded() ? pfm.get_pmu_info(pmu, info) : PFM_ERR_NOINIT;
}

int lpfm_get_event_info(int idx, pfm_os_t os, pfm_event_info_t *info)
{
	return loaded() ? pfm.get_event_info(idx, os, info) : PFM_ERR_NOINIT;
}

int lpfm_get_event_next(int idx)
{
	return loaded() ? pfm.get_event_next(idx) : -1;
}

int lpfm_get_os_event_encoding(const char *str, int dfl_plm, pfm_os_t os, void *arg)
{
	return loaded() ? pfm.get_os_event_encoding(str, dfl_plm, os, arg) : PFM_ERR_NOINIT;
}

const char *lpfm_strerror(int code)
{
	if (!loaded())
		return pfm.why ? pfm.why : "libpfm4 is not loaded";
	return pfm.strerror(code);
}
