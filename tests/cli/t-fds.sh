# The measured program gets no descriptor of pmustat's or of its spawn
# server's: only 0, 1 and 2 (what pmustat itself inherited passes through,
# so pmustat is started here with nothing else open). And a spawn server that
# stops answering cannot hang pmustat: a Ctrl-C still stops it.
. "$TESTLIB"
H=$BUILD/hostile

# Default, with regions on (-e: their memory file is handed by path, not
# inherited), and with the fork of pmustat that serves when no
# pmustat-spawner is found.
for setup in default regions forked; do
	rm -f fds
	case $setup in
	regions) "$H" clean-exec "$PMUSTAT" stat -r 1 -q -e task-clock -- "$H" fds "$PWD/fds" ;;
	forked) PMUSTAT_SPAWNER=/nonexistent "$H" clean-exec "$PMUSTAT" stat -r 1 -q -- "$H" fds "$PWD/fds" ;;
	*) "$H" clean-exec "$PMUSTAT" stat -r 1 -q -- "$H" fds "$PWD/fds" ;;
	esac
	expect_eq "$(cat fds)" "0 1 2" "$setup: the measured program's open fds"
done

# A descriptor pmustat inherited reaches the program, as with any shell.
"$H" clean-exec sh -c 'exec "$0" stat -r 1 -q -- "$1" fds "$2" 7</dev/null' "$PMUSTAT" "$H" "$PWD/fds"
expect_eq "$(cat fds)" "0 1 2 7" "an fd given to pmustat"

# A server that reads the request and never answers: after SIGINT pmustat
# waits a few seconds for it, then kills it and stops with an error.
printf '#!/bin/sh\nexec "%s" stuck-server "$1" "%s"\n' "$H" "$PWD/asked" >stuck
chmod +x stuck
PMUSTAT_SPAWNER=$PWD/stuck "$PMUSTAT" stat -r 3 -o s.json -- true >out 2>err &
pid=$!
i=0
while [ ! -e asked ] && [ $i -lt 2000000 ]; do i=$((i + 1)); done
[ -e asked ] || { kill -9 $pid; fail "the stuck server was never asked"; }
server=$(pgrep -P $pid)
kill -INT $pid
wait $pid
rc=$?
expect_eq "$rc" 1 "exit code with a stuck server"
expect_in err "error: the spawn server did not answer after the stop request"
st=$(sed 's/.*) //' "/proc/$server/stat" 2>/dev/null | cut -c1)
[ -n "$st" ] && [ "$st" != Z ] && fail "the stuck server $server is still there"
run_pm 0 report s.json

# The same during a run: the server stops (SIGSTOP) while the program runs.
# pmustat is told a quick run's pid only with its report, so after the
# grace it finds the run among the server's children, kills it (with its
# process group) and the server.
"$PMUSTAT" stat -r 2 -o q.json -- sh -c 'echo $$ >run.pid; exec sleep 1000' >out 2>err &
pid=$!
i=0
while [ ! -s run.pid ] && [ $i -lt 2000000 ]; do i=$((i + 1)); done
[ -s run.pid ] || { kill -9 $pid; fail "the run never started"; }
run=$(cat run.pid)
server=$(pgrep -x -P $pid pmustat-spawner)
[ -n "$server" ] || { kill -9 $pid; fail "no pmustat-spawner under pmustat"; }
kill -STOP "$server"
kill -INT $pid
wait $pid
rc=$?
expect_eq "$rc" 1 "exit code with a server stopped during a run"
expect_in err "error: the spawn server did not answer after the stop request"
# SIGKILL is sent before pmustat exits; the reaping by init may lag.
i=0
st=
while [ $i -lt 20000 ]; do
	line=
	read -r line <"/proc/$run/stat" 2>/dev/null
	st=${line##*) }
	st=${st%% *}
	[ -z "$st" ] || [ "$st" = Z ] && break
	i=$((i + 1))
done
[ -z "$st" ] || [ "$st" = Z ] || { kill -9 "$run"; fail "the run $run outlived its stopped server"; }
exit 0
