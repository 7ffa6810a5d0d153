/* Storage "csr": LC handles into reusable row arrays (lc_csr.h). */
#include "lc_csr.h"
#define SYNTH_ENTRY synth_run_csr
#include "synth_tmpl.h"
