/* Storage "pool": heap vectors whose enforce-time buffers are recycled. */
#define LC_POOL 1
#include "lc_vec.h"
#define SYNTH_ENTRY synth_run_pool
#include "synth_tmpl.h"
