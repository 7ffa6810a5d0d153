#!/bin/sh
# The layering of src/ (docs/analysis.md): dependencies point down,
#   cli -> campaign -> report -> analysis -> result -> stats, core
# and the renderers compute nothing. Checked by grep over includes and
# calls, so that a renderer calling the analysis, or the stopping rule
# including a renderer, fails `make check` (tests/cli/t-layers.sh):
#   - src/report/ includes from analysis/ only the models (analysed.h, and
#     fleet.h for the fleet's pooled groups) and calls no compute function;
#   - src/analysis/ includes nothing from report/, campaign/ or cli/;
#   - src/result/ includes nothing from analysis/, report/, campaign/, cli/;
#   - src/campaign/stop.c (the stopping rule) includes nothing from report/.
# Usage: scripts/check-layers.sh [SRC_DIR]; prints each violation, exit 1.
src=${1:-src}
bad=0
say() { echo "layers: $*"; bad=1; }

# The analysis functions that compute from a result: only analysis/ (and
# the commands, which build the model once) call them.
compute='analysed_build|analysis_compute|comparisons_compute|comparisons_compute_plain'
compute="$compute|comparison_seq_rule|comparisons_noise|comparisons_noise_note"
compute="$compute|attribution_compute|attribution_top|attribution_pairs"
compute="$compute|attribution_run_profiled|sim_attribution_compute|allocsites_compute"
compute="$compute|chains_build|mechanism_cost|mechanism_costs_compute|region_cost"
compute="$compute|fleet_build|warnings_build|warn_groups_build"

# Comments are left out (perl, in Debian's base system), so a comment may
# name a function or a header; each comment keeps its newlines, so line
# numbers stay the file's.
code() { perl -0777 -pe 's{/\*.*?\*/}{ $& =~ tr/\n//cdr }gse; s{//[^\n]*}{}g' "$1"; }

for f in "$src"/report/*.c "$src"/report/*.h; do
	[ -e "$f" ] || continue
	c=$(code "$f")
	printf '%s\n' "$c" | grep -nE "\\b($compute)[[:space:]]*\\(" |
		sed "s#^\([0-9]*\):[[:space:]]*#layers: $f:\1: a renderer calls an analysis compute function: #" |
		grep . && bad=1
	printf '%s\n' "$c" | grep -nE '#include "analysis/' | grep -vE '"analysis/(analysed|fleet)\.h"' |
		sed "s#^#layers: $f:#; s#\$#  (a renderer includes a compute header; use analysis/analysed.h)#" |
		grep . && bad=1
done
for f in "$src"/analysis/*.[ch]; do
	[ -e "$f" ] || continue
	grep -nE '^#include "(report|campaign|cli)/' "$f" |
		sed "s#^#layers: $f:#; s#\$#  (analysis depends on a layer above it)#" | grep . && bad=1
done
for f in "$src"/result/*.[ch]; do
	[ -e "$f" ] || continue
	grep -nE '^#include "(analysis|report|campaign|cli)/' "$f" |
		sed "s#^#layers: $f:#; s#\$#  (result depends on a layer above it)#" | grep . && bad=1
done
if [ -e "$src/campaign/stop.c" ]; then
	grep -nE '^#include "report/' "$src/campaign/stop.c" |
		sed "s#^#layers: $src/campaign/stop.c:#; s#\$#  (the stopping rule depends on a renderer)#" |
		grep . && bad=1
fi
exit $bad
