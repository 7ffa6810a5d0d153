# Outputs go only to regular files (a device, FIFO or link is refused and
# left as it was), and `pmustat report` reads the journal a killed campaign
# leaves: its complete lines, without the torn last one.
. "$TESTLIB"

run_pm 0 stat -q -r 2 -o s.json -- true
run_pm 2 report -q s.json -o /dev/null
expect_in err "'/dev/null' is not a regular file (a character device)"
expect_in err "use '-o -' for standard output"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
echo precious >target
ln -s target link.html
run_pm 2 report -q s.json --html link.html
expect_in err "'link.html' is not a regular file (a symbolic link)"
expect_eq "$(cat target)" precious "link target"
[ -L link.html ] || fail "link.html is no longer a link"
mkdir outdir
run_pm 2 report -q s.json --csv outdir
expect_in err "give a file name for --csv, e.g. 'outdir/result.csv'"
mkfifo fifo
run_pm 2 stat -q -r 1 --csv fifo -- true
expect_in err "'fifo' is not a regular file (a FIFO)"
[ -p fifo ] || fail "fifo is no longer a FIFO"
# A fleet task's log in a results directory others can write: a link
# planted at its name is refused, its target neither truncated nor written
# (the task mode runs without Slurm as task 0 of this host).
mkdir shared
echo precious >victim
ln -s ../victim "shared/$(hostname)-0.log"
run_pm 1 fleet --task-of shared -- stat -q -r 1 -- true
expect_in err "error: pmustat fleet task 0 on node $(hostname): 'shared/$(hostname)-0.log' is not a regular file (a symbolic link)"
expect_in err "hint: remove 'shared/$(hostname)-0.log', or give the fleet a new results directory"
expect_eq "$(cat victim)" precious "planted log link's target"
[ -L "shared/$(hostname)-0.log" ] || fail "the planted log link was replaced"

# A journal whose campaign was killed inside its fourth run line.
head='{"journal":"pmustat.journal/1","result":{"schema":"pmustat.result/1","command":"stat",'
head=$head'"variants":[{"name":"A","argv":["true"]}],'
head=$head'"metrics":[{"name":"wall-time","unit":"ns","backend":"clock","available":true}],'
head=$head'"notes":[]}}'
{
	echo "$head"
	for v in 1000 1100 1200; do
		echo '{"run":{"variant":0,"block":0,"status":"ok","exit_code":0,"values":{"wall-time":{"value":'$v'}}}}'
	done
	printf '%s' '{"run":{"variant":0,"blo'
} >killed.journal
run_pm 0 report killed.journal -o recovered.json
expect_in out "(3 runs)"
expect_in out "journal ends in a partial line (the campaign was killed): 3 runs recovered"
expect_eq "$(jv recovered.json runs.#)" 3 "recovered runs"
expect_eq "$(jv recovered.json complete)" false "recovered result complete"
# The skeleton a running campaign leaves names its journal.
skel='{"schema":"pmustat.result/1","command":"stat","complete":false,"runs":[],'
skel=$skel'"variants":[{"name":"A","argv":["true"]}],'
skel=$skel'"metrics":[{"name":"wall-time","unit":"ns","backend":"clock","available":true}],'
echo "$skel"'"journal":"killed.journal"}' >skeleton.json
run_pm 0 report skeleton.json
expect_in out "3 runs recovered"
echo "$skel"'"journal":"gone.journal"}' >orphan.json
run_pm 0 report orphan.json
expect_in out "the journal 'gone.journal' is missing: runs are absent"
# A damaged line before the last is an error naming it.
sed '3s/"variant":0/"variant":-1/' killed.journal >damaged.journal
run_pm 2 report damaged.journal
expect_in err "'damaged.journal': line 3: run: 'variant' is -1, not an integer from 0 to 0"

# A result's document is streamed into a temporary file beside -o FILE and
# renamed over it at the end (a campaign's end writes it so, and report -o):
# a write that fails part way (a file size limit, SIGXFSZ ignored so that the
# write fails instead of killing) leaves the old FILE whole, no temporary
# behind, and one error line with a hint.
run_pm 0 stat -q -r 300 -o long.json -- true
[ "$(wc -c <long.json)" -gt $((4 * 65536)) ] || fail "long.json is not above four chunks"
mkdir sdir
echo precious >sdir/out.json
(trap '' XFSZ; ulimit -f 128; exec "$PMUSTAT" report -q long.json -o sdir/out.json) >out 2>err
expect_eq "$?" 1 "report -o under a 128 KiB file size limit: exit code"
expect_eq "$(head -1 err)" "error: cannot write 'sdir/out.json': File too large" "report -o under a file size limit"
expect_in err "hint: the file size limit is reached: see 'ulimit -f'"
expect_eq "$(cat sdir/out.json)" precious "the old result after a failed write"
expect_eq "$(ls -A sdir | tr '\n' ' ')" "out.json " "what the failed write left in sdir"
# and without the limit the same command writes the document whole
run_pm 0 report -q long.json -o sdir/out.json
run_pm 0 report -q long.json -o again.json
cmp -s sdir/out.json again.json || fail "two writes of one result differ"
expect_eq "$(jv sdir/out.json runs.#)" 300 "runs in the streamed document"
