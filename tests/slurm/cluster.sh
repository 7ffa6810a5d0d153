#!/bin/sh
# A single-node Slurm cluster on localhost for the fleet test: munged,
# slurmctld and slurmd, each with its state, logs and pid file under one
# scratch directory, so nothing outside it is touched (but the munge key,
# which munged only reads from /etc/munge: created there if missing).
#
#   cluster.sh start DIR [private-tmp]
#                          configure and start; prints the line to eval
#                          (export SLURM_CONF=DIR/slurm.conf). private-tmp:
#                          every job gets a /tmp of its own (Slurm's
#                          job_container/tmpfs), as if /tmp were not shared
#                          with the submitting machine; DIR must then not be
#                          under /tmp (Slurm refuses it as the plugin's base)
#   cluster.sh stop DIR    stop every daemon started in DIR, by its pid file
#
# Needs root (slurmd runs tasks as any user) and Debian's slurm-wlm and
# munge. Start waits on the daemons' answers (munge's round trip, sinfo's
# node state), polled with a bound, never on a fixed sleep.
set -u
cmd=${1:?usage: cluster.sh start|stop DIR [private-tmp]}
dir=${2:?usage: cluster.sh start|stop DIR}

die() { echo "cluster.sh: $*" >&2; exit 1; }

# Poll "$@" until it succeeds, at most $1 tenths of a second.
wait_for() {
	n=$1; shift
	while ! "$@" >/dev/null 2>&1; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || return 1
		sleep 0.1
	done
}

stop_pid() {
	[ -f "$1" ] || return 0
	pid=$(cat "$1" 2>/dev/null)
	rm -f "$1"
	[ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null || return 0
	# gone once kill -0 fails; bounded, then SIGKILL
	wait_for 100 sh -c "! kill -0 $pid" || kill -9 "$pid" 2>/dev/null
}

stop() {
	stop_pid "$dir/run/slurmd.pid"
	stop_pid "$dir/run/slurmctld.pid"
	stop_pid "$dir/munge/munged.pid"
}

munge_key() {
	[ -s /etc/munge/munge.key ] && return 0
	mkdir -p /etc/munge
	dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null || return 1
	chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
}

write_conf() {
	host=$(hostname -s)
	mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)
	cat >"$dir/slurm.conf" <<EOF
ClusterName=pmustat-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

# Slurm's own per-job /tmp: what a results directory on a node-local disk
# looks like from the submitting side.
private_tmp() {
	mkdir -p "$dir/jc" || die "cannot create '$dir/jc'"
	printf 'JobContainerType=job_container/tmpfs\nPrologFlags=Contain\n' >>"$dir/slurm.conf"
	printf 'AutoBasePath=true\nBasePath=%s/jc\n' "$dir" >"$dir/job_container.conf"
}

node_idle() { sinfo -h -o %t | grep -qE '^(idle|mix|alloc)'; }

start() {
	for p in munged slurmctld slurmd sinfo srun; do
		command -v $p >/dev/null 2>&1 || die "'$p' not found (apt-get install slurm-wlm munge)"
	done
	mkdir -p "$dir/run" "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" ||
		die "cannot create '$dir'"
	# munged runs as munge, in a directory of its own that others cannot write
	# (but can search: clients reach its socket there)
	chmod 755 "$dir" && chown munge:munge "$dir/munge" && chmod 755 "$dir/munge" ||
		die "cannot prepare '$dir/munge'"
	munge_key || die "cannot create /etc/munge/munge.key"
	# Ports of our own, so a cluster already on the machine is left alone.
	port=$((20000 + $$ % 20000))
	write_conf
	[ "${3:-}" = private-tmp ] && private_tmp
	export SLURM_CONF="$dir/slurm.conf"
	runuser -u munge -- munged --socket="$dir/munge/munge.socket" --pid-file="$dir/munge/munged.pid" \
		--log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munge.seed" \
		>/dev/null 2>&1 || die "munged did not start: $(tail -1 "$dir/munge/munged.log" 2>/dev/null)"
	wait_for 100 sh -c "munge -S '$dir/munge/munge.socket' -n | unmunge -S '$dir/munge/munge.socket'" ||
		{ stop; die "munge does not answer"; }
	slurmctld -f "$SLURM_CONF" || { stop; die "slurmctld did not start"; }
	slurmd -f "$SLURM_CONF" || { stop; die "slurmd did not start"; }
	wait_for 300 node_idle || {
		tail -3 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2
		stop; die "the node did not come up (logs in $dir/log)"
	}
	echo "export SLURM_CONF=$SLURM_CONF"
}

case "$cmd" in
start) start "$@" ;;
stop) stop ;;
*) die "usage: cluster.sh start|stop DIR" ;;
esac
