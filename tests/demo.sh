#!/bin/sh
# demo.sh - the script behind `make demo` (the Makefile builds everything first).
#
#   make demo                      profiles build/tests/gpu/known_work 1, then
#                                  build/tests/gpu/replay_cases_static all
#   make demo APP="./prog args"    profiles that program instead
#
# Each program runs under the launcher (build/gpuprof -o build/demo/gpuprof-%p)
# with its results in build/demo/gpuprof-<pid>.{jsonl,csv}; then gpuprof-report
# prints the text report and writes build/demo/report.html.  On a machine
# without an NVIDIA GPU it says so and shows the report of a recorded H100 run
# (tests/data/report) instead, so the first run anywhere shows what gpuprof
# gives.  Exit status: 0, or the first non-zero status of a program or of the
# report.  DEMO_OUT (tests): where the results go (default build/demo).
B=${BUILD:-build}
root=$(pwd)
launcher=$root/$B/gpuprof
report=$root/$B/gpuprof-report
out=${DEMO_OUT:-$root/$B/demo}
peaks=$root/tools/gpupeak/results/h200-peaks.json
fix=$root/tests/data/report

for f in "$launcher" "$report" "$root/$B/libgpuprof.so"; do
    if [ ! -f "$f" ]; then
        echo "gpuprof demo: $f is missing; run \`make\` first" >&2
        exit 1
    fi
done
mkdir -p "$out" || exit 1
# outputs of an earlier demo would be mixed into this report
rm -f "$out"/gpuprof-*.jsonl "$out"/gpuprof-*.csv "$out"/report.html

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "gpuprof demo: no NVIDIA GPU on this machine (nvidia-smi -L fails or is absent), so nothing"
    echo "gpuprof demo: can be profiled here${1:+ ($*)}.  Instead, the report of a recorded run: kernels"
    echo "gpuprof demo: with one planted problem each, profiled on an H100 (tests/data/report/)."
    echo "== gpuprof demo: $B/gpuprof-report --peaks tests/data/report/peaks-h100.json tests/data/report/h100-planted.jsonl tests/data/report/h100-second.jsonl"
    "$report" --peaks "$fix/peaks-h100.json" "$fix/h100-planted.jsonl" "$fix/h100-second.jsonl" ||
        exit 1
    "$report" --format html --peaks "$fix/peaks-h100.json" -o "$out/report.html" \
        "$fix/h100-planted.jsonl" "$fix/h100-second.jsonl" || exit 1
    echo "gpuprof demo: (recorded run, not this machine) HTML report: $out/report.html"
    echo "gpuprof demo: on a machine with a GPU, \`make demo\` profiles the demo programs, or yours:"
    echo "gpuprof demo:   make demo APP=\"./prog args\"    or    $B/gpuprof ./prog args"
    exit 0
fi

status=0
run_one() {
    echo "== gpuprof demo: $B/gpuprof -f -o $out/gpuprof-%p $*"
    "$launcher" -f -o "$out/gpuprof-%p" "$@"
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
