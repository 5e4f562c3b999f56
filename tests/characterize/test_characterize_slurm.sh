#!/bin/sh
# test_characterize_slurm.sh - `gpuprof-characterize run --slurm` on a real
# single-node Slurm that this test configures and starts in a temporary
# directory (munged, slurmctld and slurmd of Debian's packages, its own key,
# socket, ports, state and spool; proctrack/linuxproc and task/none, so no
# cgroups are needed) and stops at the end.  The suite is the fixture suite
# of shell programs (tests/data/characterize/fixture.suite: every status,
# no GPU) with two slow programs added: one that runs past the job's time
# limit (TIMEOUT) and one this test cancels (scancel).  Checks: every
# program's status, the two not_finished with Slurm's state and reason,
# --resume running only those two, and the study equal to a local run's
# apart from wall times.  Before it, without the daemons: Slurm not on the
# PATH, sbatch refusing the options (a stand-in sbatch), --gpus refused.
# The daemon part is SKIP (saying why) where Slurm is not installed or its
# daemons do not start; CI installs slurmctld, slurmd, slurm-client, munge.
suite=characterize-slurm
. tests/lib/characterize.sh
fix=$(pwd)/tests/data/characterize
rep=$(pwd)/tests/data/report
tmp=$(mktemp -d /tmp/gpcslurm.XXXXXX)
pids=
cleanup() {
    # no job left behind: its step would outlive slurmd
    if [ -s "$tmp/run/slurmctld.pid" ] && [ -n "$SLURM_CONF" ]; then
        scancel --user="$(id -un)" 2>/dev/null
        n=0
        while [ -n "$(squeue -h 2>/dev/null)" ] && [ "$n" -lt 30 ]; do sleep 0.5; n=$((n + 1)); done
        sleep 1
    fi
    # our own daemons only, by the ids they wrote
    for f in slurmd.pid slurmctld.pid munged.pid; do
        [ -s "$tmp/run/$f" ] && kill "$(cat "$tmp/run/$f")" 2>/dev/null
    done
    sleep 1
    for f in slurmd.pid slurmctld.pid munged.pid; do
        [ -s "$tmp/run/$f" ] && kill -9 "$(cat "$tmp/run/$f")" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/study/work" "$tmp/run"
cp "$rep/h100-planted.jsonl" "$rep/h100-second.jsonl" "$tmp/study/work/"
{
    cat "$fix/fixture.suite"
    printf '\n# slower than the job'"'"'s time limit until work/fast exists\n'
    printf '[slow-timeout]\ndir = work\ntimeout = 900\ncmd = if [ -f fast ]; then echo timed; else sleep 600; fi\n\n'
    printf '# cancelled by the test while it runs, until work/fast exists\n'
    printf '[slow-cancel]\ndir = work\ntimeout = 900\ncmd = if [ -f fast ]; then echo cancelled; else sleep 600; fi\n'
} >"$tmp/study/s.suite"
unset LD_PRELOAD GPUPROF_OUTPUT
export CUDA_VISIBLE_DEVICES=0
st=$tmp/study
status_of() { sed -n 's/^  "status": "\(.*\)",$/\1/p' "$1/$2/result.json"; }

# 1. without a cluster: one message each, nothing run
# PATH without sbatch (the shell the programs need is /bin/sh, by its path)
PATH=/nonexistent "$tool" run "$st/s.suite" -o "$st/nopath" --no-gpu-check --slurm >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "^gpuprof-characterize: --slurm: Slurm'"'"'s sbatch is not on the PATH" "$tmp/out" && [ ! -e "$st/nopath" ]' \
    "no Slurm on the PATH: exit $rc, $(cat "$tmp/out")"
"$tool" run "$st/s.suite" -o "$st/nopath" --gpus 2 --slurm >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 2 ] && grep -q "takes no --gpus: ask Slurm for GPUs" "$tmp/out"' "--gpus with --slurm: exit $rc"
# a stand-in sbatch that refuses, as sbatch does an unknown partition
mkdir "$tmp/fake"
for c in squeue scancel; do printf '#!/bin/sh\nexit 0\n' >"$tmp/fake/$c"; done
printf '#!/bin/sh\necho "sbatch: error: invalid partition specified: $2" >&2\nexit 1\n' >"$tmp/fake/sbatch"
chmod +x "$tmp/fake/"*
mkdir -p "$st/refused/echo"
echo '{"keep": 1}' >"$st/refused/echo/result.json"
PATH=$tmp/fake:$PATH "$tool" run "$st/s.suite" -o "$st/refused" --no-gpu-check --force --slurm --partition=nope >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 1 ] && [ "$(grep -c . "$tmp/out")" -eq 1 ] && grep -q "^gpuprof-characterize: --slurm: sbatch refused the job (exit status 1): sbatch: error: invalid partition specified" "$tmp/out" && [ "$(cat "$st/refused/echo/result.json")" = "{\"keep\": 1}" ] && [ ! -e "$st/refused/summary" ]' \
    "sbatch refusing: exit $rc, $(cat "$tmp/out"); the old result: $(cat "$st/refused/echo/result.json")"

# states a one-node cluster does not easily give (a node failure, a
# preemption, a pending reason that never clears, a job Slurm forgot), from
# a stand-in squeue that says what this test writes into $tmp/fake/queue
cat >"$tmp/fake/sbatch" <<'EOF2'
#!/bin/sh
echo 4242
EOF2
printf '#!/bin/sh\ncat "%s/fake/queue"\n' "$tmp" >"$tmp/fake/squeue"
printf '#!/bin/sh\necho "$@" >>"%s/fake/cancelled"\n' "$tmp" >"$tmp/fake/scancel"
printf '#!/bin/sh\necho "sacct: error: Slurm accounting storage is disabled" >&2\nexit 1\n' >"$tmp/fake/sacct"
chmod +x "$tmp/fake/"*
printf '[a]\ncmd = true\n[b]\ncmd = true\n[c]\ncmd = true\n[d]\ncmd = true\n' >"$st/four.suite"
printf '4242_0|RUNNING|None|n1\n4242_1|RUNNING|None|n1\n4242_2|PENDING|PartitionTimeLimit|\n4242_3|RUNNING|None|n1\n' >"$tmp/fake/queue"
PATH=$tmp/fake:$PATH "$tool" run "$st/four.suite" -o "$st/four" --no-gpu-check --slurm-poll 0.2 --slurm >"$tmp/four.out" 2>&1 &
pid=$!
sleep 1.5
printf '4242_0|NODE_FAIL|None|n1\n4242_1|PREEMPTED|None|n1\n' >"$tmp/fake/queue"
wait "$pid"; rc=$?
msg() { sed -n 's/^  "message": "\(.*\)",$/\1/p' "$st/four/$1/result.json"; }
check '[ "$rc" -eq 4 ] && [ "$(status_of "$st/four" a)$(status_of "$st/four" b)$(status_of "$st/four" c)$(status_of "$st/four" d)" = not_finishednot_finishednot_finishednot_finished ]' \
    "stand-in states: exit $rc, $(tail -2 "$tmp/four.out")"
check 'msg a | grep -q "^its Slurm job 4242_0 lost its node (NODE_FAIL) before the program finished" && msg b | grep -q "was preempted (PREEMPTED)" && msg c | grep -q "cannot start (Slurm will not run it as asked) and was cancelled (reason: PartitionTimeLimit)" && msg d | grep -q "is no longer known to Slurm"' \
    "stand-in states: $(msg a); $(msg b); $(msg c); $(msg d)"
check 'grep -q "^4242_2$" "$tmp/fake/cancelled"' "the task that cannot start is not cancelled: $(cat "$tmp/fake/cancelled" 2>/dev/null)"

# 2. a cluster of one node
end() { echo "$suite: $pass passed, $fail failed, $skip skipped"; [ "$fail" -eq 0 ]; exit $?; }
skip_cluster() { echo "SKIP: Slurm cluster tests: $*" >&2; skip=$((skip + 1)); end; }
PATH=$PATH:/usr/sbin:/sbin
for c in munged slurmctld slurmd sbatch squeue scancel sinfo; do
    command -v "$c" >/dev/null 2>&1 ||
        skip_cluster "$c is not installed (apt-get install -y slurmctld slurmd slurm-client munge)"
done
r=$tmp/run
mkdir -p "$r/state" "$r/spool" "$r/munge"
chmod 700 "$r/munge"
dd if=/dev/urandom of="$r/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$r/munge/key"
munged --force --socket="$r/munge/sock" --key-file="$r/munge/key" --pid-file="$r/munged.pid" \
    --log-file="$r/munged.log" --seed-file="$r/munge/seed" >"$r/munged.out" 2>&1 ||
    skip_cluster "munged does not start: $(tail -1 "$r/munged.log" 2>/dev/null)$(cat "$r/munged.out")"
node=$(slurmd -C 2>/dev/null | head -1)
case $node in NodeName=*) ;; *) skip_cluster "slurmd -C does not describe this node: $node" ;; esac
host=${node#NodeName=}; host=${host%% *}
me=$(id -un)
port=$((20000 + $$ % 20000))
cat >"$r/slurm.conf" <<EOF
ClusterName=gpctest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$r/munge/sock
CredType=cred/munge
SlurmUser=$me
SlurmdUser=$me
StateSaveLocation=$r/state
SlurmdSpoolDir=$r/spool
SlurmctldPidFile=$r/slurmctld.pid
SlurmdPidFile=$r/slurmd.pid
SlurmctldLogFile=$r/slurmctld.log
SlurmdLogFile=$r/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
KillWait=2
MinJobAge=300
InactiveLimit=0
$node State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:16
EOF
export SLURM_CONF=$r/slurm.conf
slurmctld -i >"$r/slurmctld.out" 2>&1 || skip_cluster "slurmctld does not start: $(tail -2 "$r/slurmctld.log" 2>/dev/null)"
slurmd >"$r/slurmd.out" 2>&1 || skip_cluster "slurmd does not start: $(tail -2 "$r/slurmd.log" 2>/dev/null)"
n=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
    n=$((n + 1))
    [ "$n" -gt 30 ] && skip_cluster "the node is not idle after 30 s: $(sinfo -h -o %T 2>&1) $(tail -2 "$r/slurmd.log")"
    sleep 1
done
ok

# 3. the suite on the cluster: one job made to time out, one cancelled
"$tool" run "$st/s.suite" -o "$st/out" --no-gpu-check --slurm-poll 1 --slurm --time=1 \
    >"$tmp/run1.out" 2>&1 &
pid=$!
cancel_index=$("$tool" list "$st/s.suite" | awk -F'\t' '$2 == "slow-cancel" { print $1 }')
job= n=0
while [ -z "$job" ] && [ "$n" -lt 300 ]; do
    job=$(sed -n 's/.*submitted to Slurm as job \([0-9]*\);.*/\1/p' "$tmp/run1.out" | head -1)
    n=$((n + 1)); sleep 0.1
done
n=0
until [ "$(squeue -h -j "${job}_$cancel_index" -o %T 2>/dev/null)" = RUNNING ] || [ "$n" -gt 300 ]; do
    n=$((n + 1)); sleep 0.1
done
sleep 1
scancel "${job}_$cancel_index"
wait "$pid"; rc=$?
check '[ "$rc" -eq 3 ]' "the cluster run: exit $rc, want 3 (the fixture's profiler defects); $(tail -3 "$tmp/run1.out")"
for p in kernels-planted kernels-second; do
    s=$(status_of "$st/out" $p); check '[ "$s" = ok ]' "$p: status '$s', want ok"
done
for p in echo timing env file-ok; do
    s=$(status_of "$st/out" $p); check '[ "$s" = no_records ]' "$p: status '$s', want no_records"
done
for p in native-fail timeout; do
    s=$(status_of "$st/out" $p); check '[ "$s" = native_failed ]' "$p: status '$s', want native_failed"
done
for p in defect file-defect exit-defect; do
    s=$(status_of "$st/out" $p); check '[ "$s" = profiler_defect ]' "$p: status '$s', want profiler_defect"
done
for p in slow-timeout slow-cancel; do
    s=$(status_of "$st/out" $p); check '[ "$s" = not_finished ]' "$p: status '$s', want not_finished"
done
check 'grep -q "\"message\": \"its Slurm job ${job}_[0-9]* reached its time limit (TIMEOUT) (reason: TimeLimit) before the program finished: no result (run again with --resume)\"" "$st/out/slow-timeout/result.json" && grep -q "\"slurm\": {\"job\": \"${job}_[0-9]*\", \"state\": \"TIMEOUT\", \"reason\": \"TimeLimit\", \"node\": \"$host\"}" "$st/out/slow-timeout/result.json"' \
    "slow-timeout: $(grep -E "message|slurm" "$st/out/slow-timeout/result.json")"
check 'grep -q "\"message\": \"its Slurm job ${job}_$cancel_index was cancelled (CANCELLED) before the program finished" "$st/out/slow-cancel/result.json"' \
    "slow-cancel: $(grep -E "message|slurm" "$st/out/slow-cancel/result.json")"
check 'grep -q "\"slurm\": {\"job\": \"${job}_[0-9]*\", \"state\": null, \"reason\": null, \"node\": \"$host\"}" "$st/out/kernels-planted/result.json"' \
    "a finished program's result names its job: $(grep slurm "$st/out/kernels-planted/result.json")"
check '[ "$(grep -c "^\[[0-9]*/13\] " "$tmp/run1.out")" -eq 13 ] && grep -q "^\[[0-9]*/13\] slow-timeout: not_finished" "$tmp/run1.out" && grep -q "^    slow-timeout: its Slurm job .* (TIMEOUT)" "$tmp/run1.out" && grep -q "slurm: [0-9]* pending.*, [0-9]* running, [0-9]* of 13 ended" "$tmp/run1.out"' \
    "progress: $(grep -c "^\[" "$tmp/run1.out") lines; $(grep slow "$tmp/run1.out" | head -3)"
check 'grep -q "^2 programs not finished (their cluster jobs ended first; run again with --resume)" "$st/out/summary/summary.txt" && grep -q "^slow-timeout,not_finished," "$st/out/summary/programs.csv"' \
    "summary: $(head -2 "$st/out/summary/summary.txt")"
if command -v python3 >/dev/null 2>&1; then
    got=$(python3 -c 'import sqlite3,sys; print(";".join("%s:%s:%s" % r for r in sqlite3.connect(sys.argv[1]).execute("SELECT name, status, slurm_state FROM programs WHERE name LIKE '"'"'slow%'"'"' ORDER BY name")))' "$st/out/summary/study.db" 2>&1)
    check '[ "$got" = "slow-cancel:not_finished:CANCELLED;slow-timeout:not_finished:TIMEOUT" ]' "study.db programs: $got"
else
    skip=$((skip + 1))
fi

# 4. --resume: only the two that did not finish run again
touch "$st/work/fast"
"$tool" run "$st/s.suite" -o "$st/out" --no-gpu-check --resume --slurm-poll 1 --slurm --time=1 \
    >"$tmp/run2.out" 2>&1; rc=$?
check '[ "$rc" -eq 3 ] && grep -q "11 finished results kept (--resume)" "$tmp/run2.out" && grep -q "2 programs submitted to Slurm as job" "$tmp/run2.out" && [ "$(grep -c "^\[[0-9]*/13\] .*: kept, " "$tmp/run2.out")" -eq 11 ]' \
    "--resume: exit $rc, $(grep -v "^\[\|^  \|^$" "$tmp/run2.out" | head -4)"
for p in slow-timeout slow-cancel; do
    s=$(status_of "$st/out" $p)
    check '[ "$s" = no_records ]' "$p after --resume: status '$s', want no_records (it ran, and profiled nothing)"
done

# 4b. interrupted: the jobs are cancelled, no result is written
rm "$st/work/fast"
"$tool" run "$st/s.suite" -o "$st/intr" --only slow-cancel --no-gpu-check --slurm-poll 1 --slurm \
    >"$tmp/intr.out" 2>&1 &
pid=$!
ijob= n=0
while [ -z "$ijob" ] && [ "$n" -lt 300 ]; do
    ijob=$(sed -n 's/.*submitted to Slurm as job \([0-9]*\);.*/\1/p' "$tmp/intr.out" | head -1)
    n=$((n + 1)); sleep 0.1
done
n=0
until [ "$(squeue -h -j "${ijob}_$cancel_index" -o %T 2>/dev/null)" = RUNNING ] || [ "$n" -gt 300 ]; do
    n=$((n + 1)); sleep 0.1
done
kill -TERM "$pid"; wait "$pid"; rc=$?
n=0
until [ "$(squeue -h -j "${ijob}_$cancel_index" -o %T 2>/dev/null)" != RUNNING ] || [ "$n" -gt 100 ]; do
    n=$((n + 1)); sleep 0.1
done
check '[ "$rc" -eq 1 ] && grep -q "interrupted: the Slurm jobs are cancelled; run again with --resume" "$tmp/intr.out" && [ ! -e "$st/intr/slow-cancel/result.json" ] && [ "$(squeue -h -j "${ijob}_$cancel_index" -o %T 2>/dev/null)" != RUNNING ]' \
    "SIGTERM: exit $rc, $(tail -1 "$tmp/intr.out"), job '$ijob' $(squeue -h -j "${ijob}_$cancel_index" -o %T 2>&1), left: $(ls "$st/intr/slow-cancel" 2>&1 | tr '\n' ' ')"
touch "$st/work/fast"

# 5. the same study as a local run, but for what is measured (wall times)
#    and the Slurm job that ran each program
"$tool" run "$st/s.suite" -o "$st/local" --no-gpu-check --force >"$tmp/local.out" 2>&1
norm() { sed -e 's/"wall_s": [0-9.e+-]*/"wall_s": T/g' -e '/^  "slurm": /d' -e 's/"results": null,$/"results": null/' "$1"; }
same=1
for d in "$st/local"/*/; do
    p=$(basename "$d"); [ "$p" = summary ] && continue
    norm "$d/result.json" >"$tmp/a"; norm "$st/out/$p/result.json" >"$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || { same=0; diff "$tmp/a" "$tmp/b" | head -5 >&2; }
done
check '[ "$same" = 1 ]' "result.json of the cluster run and the local run differ beyond wall times"
check 'cmp -s "$st/local/summary/kernels.csv" "$st/out/summary/kernels.csv"' "kernels.csv differs from the local run's"
cut -d, -f1,2,6- "$st/local/summary/programs.csv" >"$tmp/a"; cut -d, -f1,2,6- "$st/out/summary/programs.csv" >"$tmp/b"
check 'cmp -s "$tmp/a" "$tmp/b"' "programs.csv differs beyond wall times: $(diff "$tmp/a" "$tmp/b" | head -3)"
sed -e 's/[0-9.]* [mun]*s\b/T/g' -e 's/x[0-9.]*\b/xT/g' -e 's/  */ /g' "$st/local/summary/summary.txt" >"$tmp/a"
sed -e 's/[0-9.]* [mun]*s\b/T/g' -e 's/x[0-9.]*\b/xT/g' -e 's/  */ /g' "$st/out/summary/summary.txt" >"$tmp/b"
check 'cmp -s "$tmp/a" "$tmp/b"' "summary.txt differs beyond wall times: $(diff "$tmp/a" "$tmp/b" | head -4)"
end
