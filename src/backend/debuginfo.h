/*
 * A module's separate debug file, found for libdwfl without ever blocking
 * (Dwfl_Callbacks.find_debuginfo). libdwfl's own
 * dwfl_standard_find_debuginfo opens its candidates by name with a plain,
 * blocking open(2); the name comes from the object's .gnu_debuglink (or
 * .gnu_debugaltlink) and the first places it looks are beside the object,
 * where a measured program can put a FIFO: pmustat would wait in open(2)
 * for ever, with SIGINT and SIGTERM held for the campaign's signalfd.
 * debuginfo_find looks in the same places, in the same order, opens each
 * candidate as safeopen_read does (no blocking, regular files only), takes
 * it only when it belongs to the module (libdwfl's checks: build id, or
 * without one the debuglink's CRC) and hands libdwfl the descriptor.
 * debuginfod is not asked.
 */
#ifndef PMU_BACKEND_DEBUGINFO_H
#define PMU_BACKEND_DEBUGINFO_H

#include <elfutils/libdwfl.h>

/*
 * What the search passed over: the first candidate that was there but not
 * a regular file. Point a module's userdata at one (dwfl_module_info) to
 * learn it; with NULL userdata nothing is kept.
 */
struct debuginfo_skip {
	char path[4096];	/* "" when nothing was skipped */
};

/* The find_debuginfo callback: a descriptor of the module's debug file and
 * its name in *debuginfo_file_name (malloc'd), or -1. */
int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		   const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name);

#endif
