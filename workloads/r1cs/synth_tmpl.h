/*
 * The whole synthesis, instantiated once per LC storage. Before including
 * this file a synth_<storage>.c includes its lc_<storage>.h (which defines
 * lc_t and the list primitives) and defines SYNTH_ENTRY, the name of the
 * one exported function. Everything else is static to that instantiation.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pmustat.h>

#include "fr.h"
#include "gadget.h"
#include "heap.h"
#include "sha256.h"
#include "synth.h"

#include "tmpl_lc.h"
#include "tmpl_cs.h"
#include "tmpl_boolean.h"
#include "tmpl_uint32.h"
#include "tmpl_sha256.h"
#include "tmpl_num.h"
#include "tmpl_poseidon.h"
#include "tmpl_synth.h"
