/* Storage "sv2": small vectors with 2 inline term(s) per list (lc_sv.h). */
#define SV_N 2
#include "lc_sv.h"
#define SYNTH_ENTRY synth_run_sv2
#include "synth_tmpl.h"
