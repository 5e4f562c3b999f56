#!/bin/sh
# report_load.sh - the report's load benchmark: time and peak memory of
# gpuprof-report on 10,000 and 100,000 kernels (one launch each) and on
# 100,000 and 1,000,000 launches (of 1,000 kernels), side by side, so that
# linear scaling (and memory that follows the kernels, not the launches)
# can be read off.  Prints figures, asserts nothing; make test keeps cheap
# linearity tests (tests/report/test_report_cli.sh, test_report_scale.sh).
#
#   sh tests/bench/report_load.sh            (from the repository root, after make)
#   BENCH_DIR=dir     where the record files go (default a temporary directory,
#                     removed at the end; the 1M-launch file is about 2.7 GB)
#   BENCH_FORMATS     formats to time (default "text json")
#   BENCH_SMALL=1     a tenth of each size, for a quick look
#   REPORT=path       the gpuprof-report to time (default build/gpuprof-report)
set -e
report=${REPORT:-build/gpuprof-report}
formats=${BENCH_FORMATS:-text json}
div=1
[ "${BENCH_SMALL:-0}" = 1 ] && div=10
[ -x "$report" ] || { echo "report_load.sh: $report not built (make)" >&2; exit 1; }
if [ -n "$BENCH_DIR" ]; then dir=$BENCH_DIR; mkdir -p "$dir"; else
    dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT; fi
timer=
if [ -x /usr/bin/time ]; then timer=/usr/bin/time; fi

# name kernels launches: the record file (made once)
make_input() {
    f="$dir/$1.jsonl"
    [ -s "$f" ] || python3 tests/bench/report_records.py "$2" "$3" "$f"
    echo "$f"
}

printf '%-22s %10s %10s %-6s %9s %10s %14s\n' input kernels launches format seconds "peak MB" "per launch"
run() {
    name=$1; k=$2; l=$3
    f=$(make_input "$name" "$k" "$l")
    for fmt in $formats; do
        if [ -n "$timer" ]; then
            $timer -f '%e %M' -o "$dir/time" "$report" -f "$fmt" -o "$dir/out" "$f" 2>/dev/null
            read -r secs kb <"$dir/time"
        else
            s0=$(date +%s%N); "$report" -f "$fmt" -o "$dir/out" "$f" 2>/dev/null
            secs=$(awk -v ns=$(( $(date +%s%N) - s0 )) 'BEGIN { printf "%.2f", ns / 1e9 }'); kb=0
        fi
        awk -v n="$name" -v k="$k" -v l="$l" -v f="$fmt" -v s="$secs" -v kb="$kb" 'BEGIN {
            printf "%-22s %10d %10d %-6s %9.2f %10s %11.1f us\n", n, k, l, f, s,
                   kb ? sprintf("%.0f", kb / 1024) : "n/a", 1e6 * s / l }'
        rm -f "$dir/out"
    done
}
run "kernels-$((10000 / div))" $((10000 / div)) $((10000 / div))
run "kernels-$((100000 / div))" $((100000 / div)) $((100000 / div))
run "launches-$((100000 / div))" $((1000 / div)) $((100000 / div))
run "launches-$((1000000 / div))" $((1000 / div)) $((1000000 / div))
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo); $(uname -m); report $("$report" --version)"
