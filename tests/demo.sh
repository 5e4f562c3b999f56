#!/bin/sh
# demo.sh - the script behind `make demo` (the Makefile builds everything first).
#
#   make demo                      profiles build/tests/gpu/known_work 1, then
#                                  build/tests/gpu/replay_cases_static all
#   make demo APP="./prog args"    profiles that program instead
#
# Each program runs under LD_PRELOAD=build/libgpuprof.so with its output in
# build/demo/gpuprof-<pid>.{jsonl,csv}; then gpuprof-report prints the text
# report and writes build/demo/report.html.  On a machine without an NVIDIA
# GPU it says so and exits 0 (the build is what can be checked there).
# Exit status: 0, or the first non-zero status of a program or of the report.
B=${BUILD:-build}
root=$(pwd)
lib=$root/$B/libgpuprof.so
report=$root/$B/gpuprof-report
out=$root/$B/demo
peaks=$root/tools/gpupeak/results/h200-peaks.json

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "gpuprof demo: no NVIDIA GPU on this machine (nvidia-smi -L fails or is absent)."
    echo "gpuprof demo: built everything ($B/libgpuprof.so, $B/gpuprof-report, $B/gpupeak/gpupeak);"
    echo "gpuprof demo: run \`make demo\` (or \`make demo APP=\"./prog args\"\`) on a machine with a GPU to profile a program."
    exit 0
fi
for f in "$lib" "$report"; do
    if [ ! -f "$f" ]; then
        echo "gpuprof demo: $f is missing; run \`make\` first" >&2
        exit 1
    fi
done

mkdir -p "$out" || exit 1
# outputs of an earlier demo would be mixed into this report
rm -f "$out"/gpuprof-*.jsonl "$out"/gpuprof-*.csv "$out"/report.html

status=0
run_one() {
    echo "== gpuprof demo: LD_PRELOAD=$lib GPUPROF_OUTPUT=$out/gpuprof-%p $*"
    LD_PRELOAD=$lib GPUPROF_OUTPUT=$out/gpuprof-%p "$@"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "gpuprof demo: '$*' exited with status $rc" >&2
        [ $status -eq 0 ] && status=$rc
    fi
}

nvidia-smi -L
if [ $# -gt 0 ]; then
    run_one "$@"
else
    run_one "$root/$B/tests/gpu/known_work" 1
    run_one "$root/$B/tests/gpu/replay_cases_static" all
fi

set -- "$out"/gpuprof-*.jsonl
if [ ! -f "$1" ]; then
    echo "gpuprof demo: no profiled launch was written to $out (see gpuprof's messages above)" >&2
    exit 1
fi

echo "== gpuprof demo: $B/gpuprof-report --format text $*"
"$report" --format text "$@"
rc=$?
if [ $rc -ne 0 ]; then
    echo "gpuprof demo: gpuprof-report --format text failed (status $rc)" >&2
    [ $status -eq 0 ] && status=$rc
fi

if [ -f "$peaks" ]; then
    "$report" --format html --peaks "$peaks" -o "$out/report.html" "$@"
else
    "$report" --format html -o "$out/report.html" "$@"
fi
rc=$?
if [ $rc -ne 0 ]; then
    echo "gpuprof demo: gpuprof-report --format html failed (status $rc)" >&2
    [ $status -eq 0 ] && status=$rc
else
    echo "gpuprof demo: HTML report: $out/report.html"
fi
echo "gpuprof demo: raw results: $out/gpuprof-*.jsonl and .csv"
exit $status
