/* Storage "vec": heap vectors, Rust growth rules (lc_vec.h). */
#include "lc_vec.h"
#define SYNTH_ENTRY synth_run_vec
#include "synth_tmpl.h"
