# pmustat fleet and report --by: one campaign run by Slurm as two tasks
# standing in for two machines (a Zen 4 and a Sapphire Rapids, pretended
# through PMUSTAT_CPU_TASKS), merged into one verdict per uarch; Slurm's own
# failures and results that must not be merged. The cluster is real
# (slurmctld, slurmd, munged on localhost, tests/slurm/cluster.sh), started
# here and stopped on every exit. Verdicts asserted are on exact call counts
# (tests/README.md): variant B allocates twice A's on "zen4" and half of it
# on "sapphirerapids" — its shell reads the pretended identity, as a real
# program's behaviour would follow the real CPU.
. "$TESTLIB"
# The sanitizer pass of make check leaves this script to the plain pass
# (starting a Slurm cluster dominates its time), to keep CI within its budget.
if [ -n "${PMUSTAT_TEST_SAN:-}" ]; then
	echo "SKIP: t-fleet.sh runs in the plain pass only (starting a Slurm cluster dominates its time)"
	exit 77
fi
ALLOCN=$BUILD/allocn
CPUS=AuthenticAMD-25-17-1,GenuineIntel-6-143
B_CMD='case $PMUSTAT_CPU in Auth*) n=4000;; *) n=1000;; esac; exec "$0" $n'
host=$(hostname)

# --- without Slurm: merging by hand, and what is refused before srun ---
PMUSTAT_CPU=AuthenticAMD-25-17-1 run_pm 0 compare -q --seed 21 -m allocs --primary allocs \
	-o z.json -- "$ALLOCN" 2000 -- sh -c "$B_CMD" "$ALLOCN"
PMUSTAT_CPU=GenuineIntel-6-143 run_pm 0 compare -q --seed 21 -m allocs --primary allocs \
	-o s.json -- "$ALLOCN" 2000 -- sh -c "$B_CMD" "$ALLOCN"
expect_eq "$(jv z.json host.uarch)" zen4 "uarch recorded"
expect_eq "$(jv z.json host.hostname)" "$host" "host name recorded"
expect_eq "$(jv z.json host.slurm)" null "no Slurm ids outside Slurm"
run_pm 0 report --by uarch z.json s.json -o by.json --html by.html
expect_in out "pmustat compare across 2 hosts, by uarch (2 uarchs), seed 21"
expect_in out "B allocs: HIGHER on zen4 (1 host), LOWER on sapphirerapids (1 host)"
expect_eq "$(jv by.json schema)" pmustat.fleet/1 "fleet schema"
expect_eq "$(jv by.json groups.0.name)" zen4 "first group"
expect_eq "$(jv by.json disagreements.0.verdicts.1.verdict)" LOWER "sapphirerapids' verdict"
expect_in by.html "verdicts differ between uarchs"
# both results of one uarch: pooled, one verdict, each host's ratio beside it
PMUSTAT_CPU=AuthenticAMD-25-17-2 run_pm 0 compare -q --seed 21 -m allocs --primary allocs \
	-o z2.json -- "$ALLOCN" 2000 -- sh -c "$B_CMD" "$ALLOCN"
run_pm 0 report --by uarch z.json z2.json s.json -o by3.json
expect_in out "HIGHER on zen4 (2 hosts), LOWER on sapphirerapids (1 host)"
expect_eq "$(json_find by3.json groups.0.comparisons metric allocs n)" 20 "zen4 pooled: 2 x 10 blocks"
expect_eq "$(jv by3.json groups.0.hosts.#)" 2 "zen4's hosts"
run_pm 0 report --by host z.json s.json
expect_in out "verdicts differ between hosts:"
expect_in out "$host (z.json)"
# refused: another pmustat version (both named), command line, seed
sed 's/"version": "[^"]*"/"version": "0.0.9"/' s.json >old.json
run_pm 2 report --by uarch z.json old.json
expect_in err "error: cannot merge 'old.json': it was written by pmustat 0.0.9, the others by pmustat $("$PMUSTAT" --version | cut -d' ' -f2)"
expect_in err "hint: run the same pmustat on every machine"
run_pm 2 report z.json old.json
expect_in err "it was written by pmustat 0.0.9"
PMUSTAT_CPU=GenuineIntel-6-143 run_pm 0 compare -q --seed 21 -m allocs --primary allocs \
	-o other.json -- "$ALLOCN" 2000 -- "$ALLOCN" 3000
run_pm 2 report --by uarch z.json other.json
expect_in err "error: cannot merge 'other.json' with 'z.json': variant 2 ('B') ran another command line"
PMUSTAT_CPU=GenuineIntel-6-143 run_pm 0 compare -q --seed 22 -m allocs --primary allocs \
	-o seed.json -- "$ALLOCN" 2000 -- sh -c "$B_CMD" "$ALLOCN"
run_pm 2 report --by uarch z.json seed.json
expect_in err "error: cannot merge 'seed.json': its seed is 22, the others' 21"
run_pm 2 report --by arch z.json
expect_in err "error: --by 'arch': expected 'uarch' or 'host'"
# fleet: a results directory that cannot be one, before anything runs
: >plain
run_pm 2 fleet --results plain -- stat -- true
expect_in err "error: results directory 'plain' is not a writable directory"
run_pm 2 fleet --results plain/sub -- stat -- true
expect_in err "error: cannot create results directory 'plain/sub'"
run_pm 2 fleet --results r0 -- list
expect_in err "error: fleet runs 'compare' or 'stat', not 'list'"
run_pm 2 fleet --results r0 -- stat -o x.json -- true
expect_in err "drop -o/--output"
run_pm 2 fleet --slurm "-N1 --comment='x" --results r0 -- stat -- true
expect_in err "error: --slurm: unterminated single quote"
# no srun on PATH: one line, and the way without Slurm
(PATH=/nonexistent; run_pm 1 fleet --results r0 -- stat -- true) || exit 1
expect_in err "error: 'srun' not found on PATH"
expect_in err "merge with 'pmustat report --by uarch RESULT...'"

# --- with Slurm ---
if ! sh "$SRCROOT/scripts/install-deps.sh" slurm >deps.log 2>&1; then
	echo "skip: Slurm and munge are not installed and cannot be here: $(tail -1 deps.log)"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "skip: a local Slurm cluster needs root (slurmd, the munge key)"
	exit 0
fi
cluster=$(mktemp -d /tmp/pmustat-slurm.XXXXXX)
stop_cluster() { sh "$SRCROOT/tests/slurm/cluster.sh" stop "$cluster"; rm -rf "$cluster"; }
trap stop_cluster EXIT
trap 'exit 1' INT TERM
sh "$SRCROOT/tests/slurm/cluster.sh" start "$cluster" >cluster.out || fail "no Slurm cluster"
export SLURM_CONF="$cluster/slurm.conf"

PMUSTAT_CPU_TASKS=$CPUS run_pm 0 fleet --slurm "-N1 -n2" --results res -- \
	compare --seed 31 -m allocs --primary allocs -- "$ALLOCN" 2000 -- sh -c "$B_CMD" "$ALLOCN"
expect_in out "pmustat compare across 2 hosts, by uarch (2 uarchs), seed 31"
expect_in out "B allocs: HIGHER on zen4 (1 host), LOWER on sapphirerapids (1 host)"
expect_in out "$host/task 0"
expect_in out "per-node results and logs in $PWD/res/"
# the merged per-uarch table
expect_eq "$(jv res/fleet.json groups.#)" 2 "groups"
expect_eq "$(jv res/fleet.json groups.1.name)" sapphirerapids "second group"
expect_eq "$(json_find res/fleet.json groups.0.comparisons metric allocs verdict)" higher "zen4"
expect_eq "$(json_find res/fleet.json groups.1.comparisons metric allocs verdict)" lower "spr"
expect_eq "$(json_find res/fleet.json groups.1.comparisons metric allocs method)" exact "exact"
# the per-node results: one per task, each its own identity, same seed, Slurm's ids
for t in 0 1; do
	f=res/$host-$t.json
	[ -s "$f" ] || fail "no result $f"
	expect_eq "$(jv "$f" options.seed)" 31 "task $t's seed"
	expect_eq "$(jv "$f" host.slurm.task_id)" $t "task $t's Slurm task"
	[ "$(jv "$f" host.slurm.job_id)" != null ] || fail "task $t: no Slurm job id"
	expect_in res/$host-$t.log "pmustat fleet: task $t of 2 on node $host"
	expect_in res/$host-$t.log "pmustat fleet: task $t exit 0"
done
expect_eq "$(jv res/$host-0.json host.uarch)" zen4 "task 0's uarch"
expect_eq "$(jv res/$host-1.json host.uarch)" sapphirerapids "task 1's uarch"
expect_eq "$(jv res/$host-0.json host.slurm.job_id)" "$(jv res/$host-1.json host.slurm.job_id)" "one job"
# merged again by hand: the same answer
run_pm 0 report --by uarch res/$host-0.json res/$host-1.json
expect_in out "B allocs: HIGHER on zen4 (1 host), LOWER on sapphirerapids (1 host)"
# no seed given: fleet gives every task the same one
PMUSTAT_CPU_TASKS=$CPUS run_pm 0 fleet --slurm "-n2" --results noseed -- stat -r 2 -- true
expect_eq "$(jv noseed/$host-0.json options.seed)" "$(jv noseed/$host-1.json options.seed)" "one seed"
# a directory holding an earlier fleet's results
run_pm 2 fleet --slurm "-n2" --results res -- stat -r 2 -- true
expect_in err "error: results directory 'res' holds an earlier fleet's results"

# Slurm's failures: options it rejects, no allocation, one node's task failing
run_pm 1 fleet --slurm "-N1 --no-such-srun-option" --results bad1 -- stat -r 2 -- true
expect_in err "error: srun failed (exit 255), no task ran: "
expect_in err "unrecognized option '--no-such-srun-option'"
run_pm 1 fleet --slurm "-p no-such-partition" --results bad2 -- stat -r 2 -- true
expect_in err "no task ran: srun: error: Unable to allocate resources: Invalid partition name specified"
PMUSTAT_CPU_TASKS=$CPUS run_pm 1 fleet --slurm "-n2" --results half -- compare --seed 32 \
	-m allocs --primary allocs -- "$ALLOCN" 2000 -- \
	sh -c 'case $PMUSTAT_CPU in Genu*) exit 7;; esac; exec "$0" 4000' "$ALLOCN"
expect_in err "error: task 1 on node '$host' failed (exit 1): "
expect_in err "hint: its log is '$PWD/half/$host-1.log'"
# the finished node's result is kept and reported
expect_in out "pmustat compare across 1 host, by uarch (1 uarch), seed 32"
expect_eq "$(json_find half/fleet.json groups.0.comparisons metric allocs verdict)" higher "zen4 kept"

# A results directory the nodes do not share: a second cluster whose jobs
# each get a /tmp of their own (Slurm's job_container/tmpfs), as a
# node-local disk would be; what the tasks write there never comes back.
stop_cluster
cluster=$(mktemp -d /var/tmp/pmustat-slurm.XXXXXX)
sh "$SRCROOT/tests/slurm/cluster.sh" start "$cluster" private-tmp >cluster.out 2>cluster.err ||
	fail "no Slurm cluster with private /tmp: $(cat cluster.err)"
export SLURM_CONF="$cluster/slurm.conf"
# the plugin needs mount namespaces, which a container may not allow
if ! srun -I10 -n1 true >probe.out 2>&1; then
	echo "skip: Slurm's job_container/tmpfs cannot run a job here: $(tail -1 probe.out)"
	exit 0
fi
local=$(mktemp -d /tmp/pmustat-fleet-local.XXXXXX)
# The jobs' private /tmp hides whatever lives under /tmp, the build (a CI
# clone may be there) and this scratch directory included: pmustat and its
# spawner run from a copy outside it, in a working directory outside it.
bin=$(mktemp -d /var/tmp/pmustat-fleet-bin.XXXXXX)
cp "$PMUSTAT" "$BUILD/pmustat-spawner" "$bin/"
here=$PWD
cd "$bin"
"$bin/pmustat" fleet --slurm "-n2" --results "$local/res" -- stat -r 2 -- true >"$here/out" 2>"$here/err"
got=$?
cd "$here"
rm -rf "$local" "$bin"
expect_eq "$got" 1 "fleet with a results directory the nodes do not share: exit code"
expect_in err "error: no task left anything in '$local/res': pmustat fleet task "
expect_in err "cannot write '$local/res/$host-"
expect_in err "hint: '$local/res' must be on a filesystem every node shares"
