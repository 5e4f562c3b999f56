#!/bin/sh
# test_characterize_cli.sh - gpuprof-characterize on the fixture suite of
# small shell programs (no GPU: the profiler library stays silent in them):
# statuses, PROFILER DEFECT reports, progress lines, timeouts, re-runs that
# skip up-to-date results, --only/--index shards, --gpus slots, and a merge of
# shards that writes the same summary bytes as the single run.
suite=characterize-cli
. tests/lib/characterize.sh
fix=$(pwd)/tests/data/characterize
rep=$(pwd)/tests/data/report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work"
cp "$fix/fixture.suite" "$tmp/"
cp "$rep/h100-planted.jsonl" "$rep/h100-second.jsonl" "$tmp/work/"
unset LD_PRELOAD GPUPROF_OUTPUT
export CUDA_VISIBLE_DEVICES=0 # one slot whatever the machine
out=$tmp/out
status_of() { sed -n 's/^  "status": "\(.*\)",$/\1/p' "$out/$1/result.json"; }

# 1. the whole fixture suite
"$tool" run --no-gpu-check "$tmp/fixture.suite" -o "$out" 2>"$tmp/run1.err"; rc=$?
check '[ "$rc" -eq 3 ]' "exit status $rc, want 3 (profiler defects found)"
for p in kernels-planted kernels-second; do
    s=$(status_of $p); check '[ "$s" = ok ]' "$p: status '$s', want ok"
done
# the same outputs but no launch record: nothing measured is never ok
for p in echo timing env file-ok; do
    s=$(status_of $p); check '[ "$s" = no_records ]' "$p: status '$s', want no_records"
done
check 'grep -q "echo: the profiled run wrote no profiler file (gpuprof-\*.jsonl)" "$tmp/run1.err"' \
    "no message for a run without records: $(grep -A1 "echo:" "$tmp/run1.err" | head -3)"
for p in native-fail timeout; do
    s=$(status_of $p); check '[ "$s" = native_failed ]' "$p: status '$s', want native_failed"
done
for p in defect file-defect exit-defect; do
    s=$(status_of $p); check '[ "$s" = profiler_defect ]' "$p: status '$s', want profiler_defect"
    check 'grep -q "PROFILER DEFECT in $p" "$tmp/run1.err"' "$p: no loud PROFILER DEFECT line"
done
check 'grep -q "profiled: line 2 profiled" "$tmp/run1.err" && grep -q "native:   line 2$" "$tmp/run1.err"' \
    "the first differing lines are not shown"
check 'grep -q "native:   good" "$tmp/run1.err" && grep -q "profiled: bad" "$tmp/run1.err"' \
    "the differing compared file is not shown"
check '[ "$(grep -c "^\[[0-9]*/11\] .*elapsed [0-9:]*, about [0-9:]* left" "$tmp/run1.err")" -eq 11 ]' \
    "want one progress line per program with elapsed and remaining time"
check 'grep -q "^hi there 2$" "$out/env/native.stdout" && grep -q "^hi there 2$" "$out/env/profiled.stdout"' \
    "env = is not applied"
w=$(sed -n 's/.*"native": {.*"timed_out": true, "wall_s": \([0-9.]*\).*/\1/p' "$out/timeout/result.json")
check 'awk "BEGIN{exit !($w > 0.9 && $w < 10)}"' "timeout: wall '$w' s, want about 1 s (process group killed)"
check 'grep -q "lines differ\|line differs" "$out/summary/summary.txt"' "summary.txt lacks the defect"
for f in kernels.csv kernels.json programs.csv summary.txt summary.html; do
    check '[ -s "$out/summary/$f" ]' "summary/$f missing"
done
want=$(( $("$b/gpuprof-report" --format csv "$rep/h100-planted.jsonl" | tail -n +2 | wc -l) + \
         $("$b/gpuprof-report" --format csv "$rep/h100-second.jsonl" | tail -n +2 | wc -l) ))
rows=$(tail -n +2 "$out/summary/kernels.csv" | wc -l)
check '[ "$rows" -eq "$want" ] && [ "$want" -gt 1 ]' "kernels.csv has $rows rows, want $want"
check '! grep -q "^defect,\|^exit-defect,\|^file-defect," "$out/summary/kernels.csv"' \
    "kernels of defective programs are in the study"
check 'grep -q "kernels-planted: 10 kernels" "$out/summary/summary.txt" && grep -q "\[uncoalesced(load)\]" "$out/summary/summary.txt"' \
    "summary.txt lacks the ranked verdicts per program"
check 'grep -q "^  rf_g: " "$out/summary/summary.txt" && grep -q "^    lowest " "$out/summary/summary.txt"' \
    "summary.txt lacks the class counts and extremes"

# 2. again: every result is newer than the suite file, nothing runs
stamp=$(stat -c %Y.%y "$out/echo/result.json")
"$tool" run --no-gpu-check "$tmp/fixture.suite" -o "$out" 2>"$tmp/run2.err"
check '[ "$(grep -c "kept, " "$tmp/run2.err")" -eq 11 ]' "a re-run did not keep the 11 results"
check '[ "$(stat -c %Y.%y "$out/echo/result.json")" = "$stamp" ]' "a kept result was rewritten"
# --force --only: that program again, no summary (a shard)
sstamp=$(stat -c %Y.%y "$out/summary/summary.txt")
sleep 0.02
"$tool" run --no-gpu-check "$tmp/fixture.suite" -o "$out" --force --only echo 2>"$tmp/run3.err"; rc=$?
check '[ "$rc" -eq 4 ] && grep -q "^\[1/1\] echo: no_records" "$tmp/run3.err"' "--force --only echo did not rerun echo (rc $rc)"
check '[ "$(stat -c %Y.%y "$out/echo/result.json")" != "$stamp" ]' "--force did not rewrite the result"
check '[ "$(stat -c %Y.%y "$out/summary/summary.txt")" = "$sstamp" ]' "--only rewrote the summary"
"$tool" run --no-gpu-check "$tmp/fixture.suite" -o "$out" --force --only native-fail 2>/dev/null; rc=$?
check '[ "$rc" -eq 4 ]' "a native failure alone: exit status $rc, want 4"
# a suite file newer than the results: everything runs again
sleep 0.02; touch "$tmp/fixture.suite"
"$tool" run --no-gpu-check "$tmp/fixture.suite" -o "$out" --only env 2>"$tmp/run4.err"
check '! grep -q "kept" "$tmp/run4.err" && grep -q "env: no_records" "$tmp/run4.err"' "an edited suite did not rerun"

# 3. merge of shards = the single run's summary, byte for byte
"$tool" run --no-gpu-check "$tmp/fixture.suite" -o "$out" 2>/dev/null # summary of the current results
mkdir -p "$tmp/shardA" "$tmp/shardB"
for d in "$out"/*/; do
    n=$(basename "$d"); [ "$n" = summary ] && continue
    case "$n" in [a-f]*) cp -r "$d" "$tmp/shardA/" ;; *) cp -r "$d" "$tmp/shardB/" ;; esac
done
"$tool" merge "$tmp/shardB" "$tmp/shardA" -o "$tmp/merged" 2>"$tmp/merge.err"; rc=$?
check '[ "$rc" -eq 3 ]' "merge exit status $rc, want 3 (defects)"
for f in kernels.csv kernels.json programs.csv summary.txt summary.html; do
    check 'cmp -s "$out/summary/$f" "$tmp/merged/$f"' "merged $f differs from the single run's"
done
"$tool" merge "$tmp/shardA" "$out" -o "$tmp/dup" 2>"$tmp/dup.err"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "two results" "$tmp/dup.err"' "a program merged twice is not an error"

# 4. spread with --index (one Slurm array task per program), then merge
for i in 0 1 2; do
    "$tool" run --no-gpu-check "$tmp/fixture.suite" --index $i -o "$tmp/task$i" 2>/dev/null
done
"$tool" merge "$tmp/task0" "$tmp/task1" "$tmp/task2" -o "$tmp/tasks" 2>/dev/null
check '[ "$(tail -n +2 "$tmp/tasks/programs.csv" | cut -d, -f1 | tr "\n" " ")" = "echo env timing " ]' \
    "--index shards merged to '$(tail -n +2 "$tmp/tasks/programs.csv" | cut -d, -f1 | tr "\n" " ")'"
"$tool" run --no-gpu-check "$tmp/fixture.suite" --index 99 -o "$tmp/x" 2>"$tmp/idx.err"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "index 99" "$tmp/idx.err"' "an out-of-range --index is not an error"

# 5. two GPU slots: one program per GPU at a time, CUDA_VISIBLE_DEVICES per program
cat >"$tmp/gpus.suite" <<'S'
[g1]
cmd = echo "gpu=$CUDA_VISIBLE_DEVICES"; sleep 0.3
[g2]
cmd = echo "gpu=$CUDA_VISIBLE_DEVICES"; sleep 0.3
[g3]
cmd = echo "gpu=$CUDA_VISIBLE_DEVICES"; sleep 0.3
[g4]
cmd = echo "gpu=$CUDA_VISIBLE_DEVICES"; sleep 0.3
S
t0=$(date +%s.%N)
CUDA_VISIBLE_DEVICES=4,7 "$tool" run --no-gpu-check "$tmp/gpus.suite" -o "$tmp/gout" --gpus 2 2>"$tmp/g.err"; rc=$?
t1=$(date +%s.%N)
check '[ "$rc" -eq 4 ] && [ "$(grep -c ": no_records," "$tmp/g.err")" -eq 4 ]' "--gpus 2 run failed ($rc): $(head -3 "$tmp/g.err")"
used=$(cat "$tmp"/gout/g*/native.stdout | sort -u | tr "\n" " ")
check '[ "$used" = "gpu=4 gpu=7 " ]' "programs saw '$used', want gpu=4 and gpu=7"
check 'awk "BEGIN{exit !($t1 - $t0 < 2.3)}"' "4 x 0.6 s over 2 GPUs took $(awk "BEGIN{print $t1 - $t0}") s: not parallel"
CUDA_VISIBLE_DEVICES=3 "$tool" run --no-gpu-check "$tmp/gpus.suite" -o "$tmp/gout2" --gpus 2 2>"$tmp/g2.err"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "only 1 GPU" "$tmp/g2.err"' "--gpus beyond the visible GPUs is not an error"

# 6. errors: a bad suite names the line; a missing library is named
printf '[a]\ncmd = true\ntimeout = soon\n' >"$tmp/bad.suite"
"$tool" list "$tmp/bad.suite" 2>"$tmp/bad.err"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "bad.suite:3: timeout" "$tmp/bad.err"' "parse error: $(cat "$tmp/bad.err")"
"$tool" run --no-gpu-check "$tmp/gpus.suite" --lib "$tmp/nope.so" -o "$tmp/nolib" 2>"$tmp/lib.err"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "nope.so" "$tmp/lib.err"' "a missing --lib is not reported"
check '[ "$("$tool" list "$tmp/fixture.suite" | wc -l)" -eq 11 ]' "list does not print 11 programs"

# 7. options anywhere (getopt_long), '-' for a suite on standard input, --version
check '"$tool" --version | grep -q "^gpuprof-characterize [0-9]"' "--version"
check '[ "$("$tool" list - <"$tmp/fixture.suite" | wc -l)" -eq 11 ]' "list - does not read the suite from standard input"
(cd "$tmp" && "$tool" run - --only=echo --no-gpu-check --output "$tmp/stdin-out" <"$tmp/fixture.suite" 2>"$tmp/stdin.err"); rc=$?
check '[ "$rc" -eq 4 ] && grep -q "^hello$" "$tmp/stdin-out/echo/native.stdout"' "run - (rc $rc): $(head -2 "$tmp/stdin.err")"
"$tool" run --no-gpu-check "$tmp/fixture.suite" --bogus 2>"$tmp/bogus.err"; rc=$?
check '[ "$rc" -eq 2 ] && grep -q "unknown option .--bogus." "$tmp/bogus.err"' "an unknown option: rc $rc"

# 8. a native failure quotes the program's first error line
check 'grep -q "native-fail: first error line: native.stdout: broken" "$tmp/run1.err"' \
    "the native failure's first output line is not quoted"

# 9. no GPU: run refuses before running anything, saying why (a stand-in nvidia-smi finds none)
mkdir -p "$tmp/nogpu"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed" >&2; exit 9\n' >"$tmp/nogpu/nvidia-smi"
chmod +x "$tmp/nogpu/nvidia-smi"
PATH=$tmp/nogpu:$PATH "$tool" run "$tmp/fixture.suite" -o "$tmp/nogpu-out" 2>"$tmp/nogpu.err"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "no NVIDIA GPU on this machine" "$tmp/nogpu.err" && grep -q -- "--no-gpu-check" "$tmp/nogpu.err" && [ ! -d "$tmp/nogpu-out" ]' \
    "without a GPU: rc $rc, $(head -1 "$tmp/nogpu.err")"

# 10. the profiler broke a program's results (a replay pass killed its CUDA
# context; it did not check errors and printed the same): never ok.  The
# stand-in programs write the profiler's file with a fabricated summary record
# (the library's last line), of this version ("results") or an older one
# (launches_not_executed only).
bw=$tmp/broken-work
mkdir -p "$bw"
summary() { printf '{"type":"summary","schema":1,"launches_seen":40,"launches_profiled":40,"launches_failed":%s,"launches_not_executed":%s%s,"unprofiled":[]}\n' "$@"; }
profile() { cat "$rep/h100-second.jsonl"; summary "$@"; }
profile 1 23 ',"results":{"valid":false,"from_launch":17,"kernel":"copy_coalesced(const float4*, float4*, long)","reason":"a replay pass of launch 17 faulted (CUDA_ERROR_ILLEGAL_ADDRESS): the CUDA context was lost and every later launch failed"}' >"$bw/broke.jsonl"
profile 0 3 '' >"$bw/legacy.jsonl"
profile 0 5 ',"results":{"valid":true}' >"$bw/valid.jsonl"
profile 0 0 '' >"$bw/legacy-ok.jsonl"
profile 0 0 ',"results":{"valid":false,"reason":"context lost \u001b[2J"}' >"$bw/second-proc.jsonl"
cat >"$tmp/broken.suite" <<'S'
[broke]
dir = broken-work
cmd = [ -z "$GPUPROF_OUTPUT" ] || cp broke.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"; echo "checksum 1.0"
[legacy]
dir = broken-work
cmd = [ -z "$GPUPROF_OUTPUT" ] || cp legacy.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"; echo "checksum 1.0"
[valid]
dir = broken-work
cmd = [ -z "$GPUPROF_OUTPUT" ] || cp valid.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"; echo "checksum 1.0"
[legacy-ok]
dir = broken-work
cmd = [ -z "$GPUPROF_OUTPUT" ] || cp legacy-ok.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"; echo "checksum 1.0"
[two-procs]
dir = broken-work
cmd = [ -z "$GPUPROF_OUTPUT" ] || { cp valid.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"; cp second-proc.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-2.jsonl"; }; echo "checksum 1.0"
[differs-too]
dir = broken-work
cmd = [ -z "$GPUPROF_OUTPUT" ] || cp broke.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"; echo "checksum ${GPUPROF_OUTPUT:+nan}1.0"
S
bo=$tmp/broken-out
"$tool" run --no-gpu-check "$tmp/broken.suite" -o "$bo" 2>"$tmp/broken.err"; rc=$?
bstatus() { sed -n 's/^  "status": "\(.*\)",$/\1/p' "$bo/$1/result.json"; }
check '[ "$rc" -eq 3 ]' "a suite with broken results: exit $rc, want 3"
for p in broke legacy two-procs; do
    s=$(bstatus $p); check '[ "$s" = profiler_broke_results ]' "$p: status '$s', want profiler_broke_results"
done
for p in valid legacy-ok; do
    s=$(bstatus $p); check '[ "$s" = ok ]' "$p: status '$s', want ok (the library's record says valid)"
done
s=$(bstatus differs-too); check '[ "$s" = profiler_defect ]' "differs-too: status '$s', want profiler_defect"
check 'grep -q "^  \"results\": {\"valid\": false, \"from_launch\": 17, \"kernel\": \"copy_coalesced(const float4\*, float4\*, long)\", \"reason\": \"a replay pass of launch 17 faulted (CUDA_ERROR_ILLEGAL_ADDRESS): the CUDA context was lost and every later launch failed\", \"file\": \"gpuprof-1.jsonl\", \"processes_invalid\": 1},*$" "$bo/broke/result.json"' \
    "result.json lacks the broken results: $(grep results "$bo/broke/result.json")"
check 'grep -q "\"message\": \"its outputs were the same, but the profiler broke its results from launch 17 (kernel copy_coalesced" "$bo/broke/result.json"' \
    "broke: message $(grep message "$bo/broke/result.json")"
check 'grep -q "\"reason\": \"3 kernel launches the profiler intercepted never ran on the GPU" "$bo/legacy/result.json" && grep -q "\"from_launch\": null" "$bo/legacy/result.json"' \
    "legacy record: $(grep results "$bo/legacy/result.json")"
check 'grep -q "\"results\": {\"valid\": true}" "$bo/valid/result.json" && grep -q "\"results\": {\"valid\": false, .*\"file\": \"gpuprof-2.jsonl\"" "$bo/two-procs/result.json"' \
    "valid or second process: $(grep results "$bo/valid/result.json" "$bo/two-procs/result.json")"
check 'grep -q "differs under the profiler only; the profiler also reports broken results from launch 17" "$bo/differs-too/result.json"' \
    "differs-too: $(grep message "$bo/differs-too/result.json")"
check 'grep -q "^\*\*\* PROFILER BROKE RESULTS in broke: " "$tmp/broken.err" && grep -q "^    results broken from launch 17 (kernel copy_coalesced(const float4\*, float4\*, long)) in gpuprof-1.jsonl: a replay pass" "$tmp/broken.err"' \
    "no loud block on stderr: $(grep -i -A2 broke "$tmp/broken.err" | head -5)"
check 'grep -q "(2 ok, 0 failed natively, 1 PROFILER DEFECT, 3 PROFILER BROKE RESULTS, 0 without records, 0 not run)" "$bo/summary/summary.txt" && grep -q "^  PROFILER BROKE RESULTS in legacy$" "$bo/summary/summary.txt" && grep -q "^    results broken from launch 17 (kernel copy_coalesced" "$bo/summary/summary.txt"' \
    "summary.txt: $(head -1 "$bo/summary/summary.txt")"
check 'grep -q "results broken in gpuprof-2.jsonl: context lost \\\\x1b\[2J" "$bo/summary/summary.txt" && ! grep -q "$(printf "\033")" "$bo/summary/summary.txt" "$tmp/broken.err"' \
    "the library's reason is not escaped"
check 'grep -q "<tr class=\"defect\"><td>broke</td><td>profiler_broke_results</td>" "$bo/summary/summary.html" && grep -q "results broken from launch 17 (kernel copy_coalesced" "$bo/summary/summary.html"' \
    "summary.html lacks the broken results"
check '[ "$(cut -d, -f1 "$bo/summary/kernels.csv" | sort -u | tr "\n" " ")" = "legacy-ok program valid " ]' \
    "kernels of programs with broken results are in the study: $(cut -d, -f1 "$bo/summary/kernels.csv" | sort -u | tr "\n" " ")"
"$tool" merge "$bo" -o "$tmp/broken-merged" 2>"$tmp/broken-merge.err"; rc=$?
check '[ "$rc" -eq 3 ] && cmp -s "$bo/summary/summary.txt" "$tmp/broken-merged/summary.txt" && grep -q "3 programs whose results the profiler broke" "$tmp/broken-merge.err"' \
    "merge: exit $rc, $(cat "$tmp/broken-merge.err")"

"$tool" run --no-gpu-check "$tmp/broken.suite" -o "$bo" --force --only broke 2>/dev/null; rc=$?
check '[ "$rc" -eq 3 ]' "--only broke: exit $rc, want 3"
echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
