/* Storage "sv1": small vectors with 1 inline term(s) per list (lc_sv.h). */
#define SV_N 1
#include "lc_sv.h"
#define SYNTH_ENTRY synth_run_sv1
#include "synth_tmpl.h"
