/* Storage "sv4": small vectors with 4 inline term(s) per list (lc_sv.h). */
#define SV_N 4
#include "lc_sv.h"
#define SYNTH_ENTRY synth_run_sv4
#include "synth_tmpl.h"
