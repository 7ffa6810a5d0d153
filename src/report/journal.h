/* TEMPORARY shim until the journal lands: same API, old persistence. */
#ifndef PMU_REPORT_JOURNAL_H
#define PMU_REPORT_JOURNAL_H
#include "core/error.h"
#include "report/result.h"
struct journal { int fd; char *path; };
int journal_open(struct journal *j, const char *path, const struct result *r, struct error *err);
int journal_add_run(struct journal *j, const struct result *r, const struct result_run *run,
		    struct error *err);
int journal_close(struct journal *j, int remove, struct error *err);
int journal_write_skeleton(const char *json_path, const struct result *r,
			   const char *journal_path, struct error *err);
#endif
