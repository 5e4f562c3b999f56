#!/bin/sh
# test_launcher.sh - build/gpuprof as a command, no GPU needed: Nsight
# Compute's options become the GPUPROF_* variables (--dry-run prints them; a
# real run of `env` shows what the program gets), options gpuprof cannot
# honour are refused with the reason, the library's parser checks the result,
# -f guards existing results, the program's exit status comes back, and
# --query-metrics lists a chip's metrics through CUPTI's host API.
suite=launcher
pass=0; fail=0; skip=0
b=${BUILD:-build}
gp=$b/gpuprof
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
if [ ! -x "$gp" ] || [ ! -f "$b/libgpuprof.so" ]; then
    echo "FAIL: $gp or $b/libgpuprof.so not built" >&2
    echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
unset LD_PRELOAD GPUPROF_OUTPUT GPUPROF_KERNEL_INCLUDE GPUPROF_METRICS GPUPROF_BATCH
# case: want_rc  fixed-string (stdout+stderr; "" for none)  args...
check() {
    want=$1; pat=$2; shift 2
    "$gp" "$@" >"$tmp/out" 2>&1; rc=$?
    if [ "$rc" -ne "$want" ]; then ko "gpuprof $*: exit $rc, want $want"; head -3 "$tmp/out" >&2; return; fi
    if [ -n "$pat" ] && ! grep -qF -- "$pat" "$tmp/out"; then
        ko "gpuprof $*: no '$pat' in output"; head -5 "$tmp/out" >&2; return
    fi
    ok
}
lib=$(cd "$b" && pwd)/libgpuprof.so

# help, version, usage
check 0 "usage: gpuprof [options] [--] program" --help
check 0 "gpuprof 0." --version
check 0 "gpuprof 0." -v
check 2 "no program to run"
check 2 "unknown option '--bogus'" --bogus ./app
check 2 "option '--launch-count' needs a value" --launch-count

# Nsight Compute's options -> the variables (--dry-run prints them and the command)
check 0 "GPUPROF_KERNEL_INCLUDE=^saxpy\\.v2\$" --dry-run -k saxpy.v2 ./app
check 0 "GPUPROF_KERNEL_INCLUDE=gemm|conv" --dry-run -k 'regex:gemm|conv' ./app
check 0 "GPUPROF_KERNEL_INCLUDE=^k\$" --dry-run --kernel-name=k ./app
check 0 "GPUPROF_KERNEL_EXCLUDE=^fill\$" --dry-run --kernel-exclude fill ./app
check 0 "GPUPROF_KERNEL_NAME_BASE=demangled" --dry-run --kernel-name-base demangled ./app
check 0 "GPUPROF_LAUNCH_SKIP=5" --dry-run -s 5 ./app
check 0 "GPUPROF_LAUNCH_COUNT=3" --dry-run -c 3 ./app
check 0 "GPUPROF_LAUNCH_COUNT=3" --dry-run --launch-co 3 ./app
check 0 "GPUPROF_MAX_PER_KERNEL=2" --dry-run --max-per-kernel 2 ./app
check 0 "GPUPROF_PROFILE_FROM_START=0" --dry-run --profile-from-start off ./app
check 0 "GPUPROF_PROFILER_START_STOP=0" --dry-run --disable-profiler-start-stop ./app
check 0 "GPUPROF_NVTX_INCLUDE=train/;Dom@step,io" --dry-run --nvtx --nvtx-include train/ --nvtx-include Dom@step,io ./app
check 0 "GPUPROF_NVTX_EXCLUDE=a\\;b/" --dry-run --nvtx-exclude 'a;b/' ./app
check 0 "GPUPROF_METRICS=dram__bytes_read.sum,gpu__time_duration.sum" --dry-run --metrics dram__bytes_read.sum,gpu__time_duration.sum ./app
check 0 "GPUPROF_METRICS=@extended" --dry-run --set extended ./app
check 0 "GPUPROF_METRICS=@fast" --dry-run --set fast ./app
check 0 "GPUPROF_METRICS=@source" --dry-run --set source ./app
check 0 "GPUPROF_METRICS=@warpstate" --dry-run --set warpstate ./app
# Nsight Compute's sets and sections (metrics/ncu/sections.def)
check 0 "GPUPROF_METRICS=@set:full" --dry-run --set full ./app
check 0 "GPUPROF_METRICS=@set:basic" --dry-run --set basic ./app
check 0 "GPUPROF_METRICS=@section:SpeedOfLight" --dry-run --section SpeedOfLight ./app
check 0 "GPUPROF_METRICS=@section:SourceCounters" --dry-run --section SourceCounters ./app
check 0 "GPUPROF_METRICS=@section:WarpStateStats,@section:Occupancy" --dry-run --section WarpStateStats --section Occupancy ./app
# regex: searched in the identifiers, resolved to them here
check 0 "GPUPROF_METRICS=@section:MemoryWorkloadAnalysis,@section:MemoryWorkloadAnalysis_Chart,@section:MemoryWorkloadAnalysis_Tables" --dry-run --section 'regex:^Memory' ./app
check 0 "GPUPROF_METRICS=@set:detailed,@section:WarpStateStats,gpu__time_duration.sum" --dry-run --set detailed --section WarpStateStats --metrics gpu__time_duration.sum ./app
check 0 "GPUPROF_METRICS=@warpstate,@section:LaunchStats" --dry-run --set warpstate --section LaunchStats ./app
# the listings, as Nsight Compute prints them
check 0 "Identifier Sections" --list-sets
check 0 "basic      LaunchStats, Occupancy, SpeedOfLight, WorkloadDistribution" --list-sets
check 0 "warpstate  (gpuprof's own)" --list-sets
check 0 "Identifier                                   Display Name" --list-sections
check 0 "SpeedOfLight                                 GPU Speed Of Light Throughput" --list-sections
check 0 "metrics/ncu/sections.def:" --list-sections
check 0 "Stack Size: launch__stack_size [-] NOT COLLECTED: the context's stack size" --list-sections --verbose
check 0 "Duration: gpu__time_duration.sum [ns] collected" --verbose --list-sections
"$gp" --list-sections >"$tmp/ls" 2>&1
n=$(grep -c "sections.def:" "$tmp/ls")
if [ "$n" -eq "$(grep -c '^GP_NCU_SECTION(' metrics/ncu/sections.def)" ] && ! grep -q "NOT COLLECTED" "$tmp/ls"; then ok
else ko "--list-sections: $n sections listed"; fi
"$gp" --list-sets >"$tmp/lsets" 2>&1
# the listing's columns: Enabled is yes for the set collected when none is chosen
if [ "$(grep -c ' yes ' "$tmp/lsets")" -eq 1 ] && grep -q "^default .* yes " "$tmp/lsets"; then ok
else ko "--list-sets: Enabled"; cat "$tmp/lsets" >&2; fi
check 0 "GPUPROF_SAMPLING=off" --dry-run --sampling off ./app
check 0 "GPUPROF_SAMPLING=profiled" --dry-run --sampling profiled ./app
check 0 "GPUPROF_SAMPLING_INTERVAL=4" --dry-run --warp-sampling-interval 4 ./app
check 2 "--sampling" --sampling maybe ./app
check 0 "GPUPROF_METRICS=@default,lts__t_sector_hit_rate.pct" --dry-run --section default --metrics lts__t_sector_hit_rate.pct ./app
check 0 "GPUPROF_REPLAY=profiler" --dry-run --replay-mode kernel ./app
check 0 "GPUPROF_REPLAY=cupti" --dry-run --replay-mode cupti ./app
check 0 "GPUPROF_REPLAY=none" --dry-run --replay-mode none ./app
check 0 "GPUPROF_CACHE_CONTROL=none" --dry-run --cache-control none ./app
check 0 "GPUPROF_CACHE_CONTROL=flush" --dry-run --cache-control all ./app
check 0 "GPUPROF_CACHE_CONTROL=l2" --dry-run --cache-control l2 ./app
check 2 "--cache-control" --cache-control gcc ./app
check 0 "./app" --dry-run --clock-control none ./app
check 0 "GPUPROF_OUTPUT=$tmp/r-%q{OMPI_COMM_WORLD_RANK}" --dry-run -o "$tmp/r-%q{OMPI_COMM_WORLD_RANK}" ./app
check 0 "GPUPROF_LOG_FILE=$tmp/log" --dry-run --log-file "$tmp/log" ./app
check 0 "GPUPROF_SUMMARY=0" --dry-run --print-summary none ./app
check 0 "GPUPROF_LOG_LEVEL=info" --dry-run --verbose ./app
check 0 "GPUPROF_SUMMARY=0" --dry-run -q ./app
check 0 "GPUPROF_FORMAT=json" --dry-run --format json ./app
check 0 "GPUPROF_BATCH=4" --dry-run --batch 4 ./app
check 0 "GPUPROF_SNAPSHOT=host" --dry-run --snapshot host ./app
check 0 "GPUPROF_CROSSCHECK=0" --dry-run --crosscheck off ./app
check 0 "LD_PRELOAD=$lib" --dry-run ./app
check 0 "./app -k x --metrics y" --dry-run ./app -k x --metrics y # the program's own options
GPUPROF_BATCH=8 "$gp" --dry-run ./app >"$tmp/out" 2>&1
if grep -qx "GPUPROF_BATCH=8" "$tmp/out"; then ok; else ko "a variable already set is not kept"; fi
"$gp" --dry-run ./app -k x >"$tmp/out" 2>&1
if grep -q "GPUPROF_KERNEL_INCLUDE" "$tmp/out"; then ko "options after the program were taken"; else ok; fi

# what gpuprof cannot honour is refused, saying why
check 2 "leaves the GPU's settings alone" --clock-control base ./app
check 2 "does not replay applications or ranges" --replay-mode application ./app
check 2 "use --replay-mode none" --replay-mode application ./app
check 2 "--set 'ful': no such set; Nsight Compute's sets are basic, detailed, full, nvlink, pmsampling, roofline; gpuprof's own are default, fast, extended, source, warpstate" --set ful ./app
check 2 "--section 'speedoflight': no such section; the sections are SpeedOfLight, SpeedOfLight_RooflineChart" --section speedoflight ./app
check 2 "WorkloadDistribution, SourceCounters (gpuprof --list-sections)" --section Bogus ./app
check 2 "--section regex:^Nope: no section's identifier matches" --section 'regex:^Nope' ./app
GPUPROF_METRICS=@section:Bogus "$gp" ./app >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -qF "GPUPROF_METRICS='@section:Bogus' is not valid: item 1: --section 'Bogus': no such section" "$tmp/out"; then ok
else ko "GPUPROF_METRICS=@section:Bogus: rc $rc"; head -3 "$tmp/out" >&2; fi
check 2 "gpuprof-report --format ncu-csv" --csv ./app
check 2 "ncu-raw-csv (--page raw)" --page raw ./app
check 2 "CUDA_VISIBLE_DEVICES" --devices 0 ./app
check 2 "never writes to the program's standard output" --log-file stdout ./app
check 2 "summary is per kernel" --print-summary per-gpu ./app
check 2 "full names only" --metrics regex:dram ./app
check 2 "--kernel-name-base takes function, demangled or mangled, not 'x'" --kernel-name-base x ./app
check 2 "--profile-from-start takes on, off, yes, no, 1 or 0, not 'maybe'" --profile-from-start maybe ./app
# the library's own parser checks the whole configuration
check 2 "GPUPROF_LAUNCH_COUNT='abc' is not valid: expected a whole number >= 0" -c abc ./app
check 2 "GPUPROF_NVTX_INCLUDE='a//b' is not valid" --nvtx-include a//b ./app
check 2 "GPUPROF_KERNEL_INCLUDE='(' is not valid" -k 'regex:(' ./app
check 2 "GPUPROF_OUTPUT='r-%z' is not valid" -o r-%z ./app

# -f: existing results are not replaced without it
touch "$tmp/old.jsonl"
check 2 "$tmp/old.jsonl exists; use -f (--force-overwrite)" -o "$tmp/old" true
check 0 "" -f -o "$tmp/old" true

# the program runs with the library preloaded, its status comes back
"$gp" -o "$tmp/envrun" --launch-count 1 env >"$tmp/env.out" 2>"$tmp/env.err"; rc=$?
if [ $rc -eq 0 ] && grep -qx "LD_PRELOAD=$lib" "$tmp/env.out" &&
   grep -qx "GPUPROF_LAUNCH_COUNT=1" "$tmp/env.out" && [ ! -s "$tmp/env.err" ]; then ok
else ko "env under gpuprof: rc $rc, $(grep -c GPUPROF "$tmp/env.out") variables, stderr '$(head -1 "$tmp/env.err")'"; fi
LD_PRELOAD=/lib/x86_64-linux-gnu/libm.so.6 "$gp" env >"$tmp/env2.out" 2>&1
if grep -qx "LD_PRELOAD=$lib:/lib/x86_64-linux-gnu/libm.so.6" "$tmp/env2.out"; then ok
else ko "an existing LD_PRELOAD is not kept: $(grep LD_PRELOAD "$tmp/env2.out")"; fi
# with an NVTX expression the library points NVTX_INJECTION64_PATH at CUPTI
# when the program initializes CUDA (the GPU tests check that the ranges are
# seen); a program that never does, like env here, is left alone
"$gp" --nvtx-include step/ env >"$tmp/nvtx.out" 2>"$tmp/nvtx.err"
if ! grep -q "^NVTX_INJECTION64_PATH=" "$tmp/nvtx.out" && [ ! -s "$tmp/nvtx.err" ]; then ok
else ko "NVTX_INJECTION64_PATH set in a program without CUDA: $(grep NVTX "$tmp/nvtx.out") $(head -1 "$tmp/nvtx.err")"; fi
if grep -q "^NVTX_INJECTION64_PATH=" "$tmp/env.out"; then ko "NVTX_INJECTION64_PATH set without NVTX expressions"; else ok; fi
NVTX_INJECTION64_PATH=/opt/other/libtool.so "$gp" --nvtx-include step/ env >"$tmp/nvtx2.out" 2>&1
if grep -qx "NVTX_INJECTION64_PATH=/opt/other/libtool.so" "$tmp/nvtx2.out"; then ok
else ko "another tool's NVTX_INJECTION64_PATH was replaced"; fi
"$gp" sh -c 'echo out; exit 7' >"$tmp/st.out" 2>&1; rc=$?
if [ $rc -eq 7 ] && [ "$(cat "$tmp/st.out")" = out ]; then ok; else ko "exit status $rc, output '$(cat "$tmp/st.out")'"; fi
check 127 "cannot run './no-such-program'" ./no-such-program

# --query-metrics: the chip's metrics through CUPTI's host API, no GPU needed with --chip
check 0 "dram__bytes " --query-metrics --chip GH100
check 0 "dram__bytes_read.sum" --query-metrics-mode suffix --metrics dram__bytes_read --chip GH100
check 0 "GH100" --list-chips
check 1 "does not know chip 'XX999'" --query-metrics --chip XX999
check 1 "is not a metric of GH100" --query-metrics-mode suffix --metrics no__such_metric --chips GH100
check 2 "lists the sub-metrics of the base metrics named by --metrics" --query-metrics-mode suffix --chip GH100
"$gp" --query-metrics --chip GH100 >"$tmp/q" 2>&1
n=$(wc -l <"$tmp/q")
d=$(grep '^dram__bytes ' "$tmp/q" | awk '{ $1 = $2 = $3 = ""; print }' | tr -s ' ')
if [ "$n" -gt 500 ] && [ -n "$(echo "$d" | tr -d ' ')" ]; then ok
else ko "--query-metrics --chip GH100: $n lines, dram__bytes described as '$d'"; fi
if ! nvidia-smi -L >/dev/null 2>&1; then
    check 1 "give the chip, e.g. --chip GH100" --query-metrics
else
    skip=$((skip + 1)); echo "SKIP --query-metrics without --chip fails without a GPU: this machine has one"
fi
check 0 "extended" --list-sets
check 0 "without its instrumented pass" --list-sets

# values echoed back are escaped: no raw ESC or bidirectional override reaches
# the terminal from an option, a variable, a chip or the program's name
esc=$(printf '\033[2J\033[31m')
rlo=$(printf '\342\200\256')
rawctl() { LC_ALL=C grep -c "$(printf '\033')\|$rlo" "$1"; }
for args in "--set ${esc}X" "--chip $esc --query-metrics" "--replay-mode ${rlo}x ./app" "-k regex:${esc}( ./app" \
            "-s ${esc}1 ./app" "--bogus$esc ./app" "--cache-control $esc ./app" "./no-such-$esc"; do
    # shellcheck disable=SC2086
    "$gp" $args >"$tmp/esc" 2>&1
    if [ "$(rawctl "$tmp/esc")" -eq 0 ] && grep -q '\\x1b\|\\u{202e}' "$tmp/esc"; then ok
    else ko "gpuprof $(printf '%s' "$args" | od -c | head -1): raw control characters or no escape in: $(od -c "$tmp/esc" | head -3)"; fi
done
for v in GPUPROF_VARIANTS_MAX GPUPROF_METRICS GPUPROF_KERNEL_INCLUDE GPUPROF_FORMAT; do
    env "$v=$esc$rlo(" "$gp" /bin/true >"$tmp/esc" 2>&1
    if [ "$(rawctl "$tmp/esc")" -eq 0 ] && grep -q "$v" "$tmp/esc"; then ok
    else ko "$v with ESC and U+202E: raw control characters in: $(od -c "$tmp/esc" | head -3)"; fi
done

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
