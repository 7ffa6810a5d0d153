/*
 * Finding the files installed with pmustat (the spawn server, the call
 * counter shim, the demo workload): an environment variable naming the file
 * wins; otherwise the file next to the running executable (the build tree),
 * then in the install locations relative to it (<bin>/../libexec/pmustat,
 * <bin>/../lib/pmustat). No compiled-in prefix, so a build tree and an
 * installed tree both work wherever they are.
 */
#ifndef PMU_CORE_SELFPATH_H
#define PMU_CORE_SELFPATH_H

/*
 * The path of name (malloc'd) or NULL. env: a variable that overrides the
 * search when set (NULL: none), read with secure_getenv(3): ignored when
 * pmustat runs in secure mode (file capabilities, setuid); mode: access() mode the file must allow
 * (X_OK for programs, R_OK for libraries).
 */
char *selfpath_find(const char *env, const char *name, int mode);

#endif
