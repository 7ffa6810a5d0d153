# The layering (docs/analysis.md), checked by grep: the tree passes, and a
# copy of it with one violation of each kind fails naming each one.
. "$TESTLIB"

check="$SRCROOT/scripts/check-layers.sh"
sh "$check" "$SRCROOT/src" >out 2>&1 || { cat out; fail "the tree breaks its layering"; }

cp -r "$SRCROOT/src" src
echo 'static void x(const struct result *r) { struct analysis a; analysis_compute(r, &a); }' \
	>>src/report/table.c
sed -i '1i #include "analysis/comparison.h"' src/report/units.c
sed -i '1i #include "report/table.h"' src/campaign/stop.c
sed -i '1i #include "analysis/analysis.h"' src/result/load.c
sed -i '1i #include "report/texttable.h"' src/analysis/chains.c
# a comment naming a compute function is no call
echo '/* analysis_compute() is not called here */' >>src/report/units.c
if sh "$check" src >out 2>&1; then
	cat out
	fail "violations passed the check"
fi
expect_in out "a renderer calls an analysis compute function"
expect_in out 'src/report/units.c:1:#include "analysis/comparison.h"'
expect_in out "src/campaign/stop.c:1:"
expect_in out "src/result/load.c:1:"
expect_in out "src/analysis/chains.c:1:"
expect_eq "$(grep -c 'units.c' out)" 1 "lines about units.c (its comment is no call)"
