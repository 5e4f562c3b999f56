#!/bin/sh
# run.sh - `make fuzz`: each target for FUZZ_TIME seconds with libFuzzer,
# starting from fuzz/corpus/NAME.  New interesting inputs go to
# $FUZZ_OUT/work-NAME (merge the useful ones into the corpus by hand), an
# input that crashes, leaks, trips a sanitizer, runs over 5 s or over 2 GB
# goes to fuzz/crashes/NAME/ (keep it: `make test` replays it from then on).
# Prints one line per target and a table.
B=${FUZZ_OUT:-build-fuzz}
T=${FUZZ_TIME:-60}
status=0
printf '%-8s %10s %12s %8s %8s\n' target seconds executions crashes corpus >"$B/table.txt"
for t in "$@"; do
    mkdir -p "$B/work-$t" "fuzz/crashes/$t"
    before=$(ls "fuzz/crashes/$t" | wc -l)
    "$B/fuzz-$t" -max_total_time="$T" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="fuzz/crashes/$t/" "$B/work-$t" "fuzz/corpus/$t" >"$B/$t.log" 2>&1
    rc=$?
    after=$(ls "fuzz/crashes/$t" | wc -l)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/$t.log" | tail -1)
    corpus=$(ls "$B/work-$t" | wc -l)
    printf '%-8s %10s %12s %8s %8s\n' "$t" "$T" "${runs:-?}" "$((after - before))" "$corpus" \
        >>"$B/table.txt"
    if [ "$rc" -ne 0 ] || [ "$after" -ne "$before" ]; then
        status=1
        echo "fuzz $t: exit $rc, $((after - before)) new crash input(s) in fuzz/crashes/$t (log: $B/$t.log)" >&2
        grep -m3 "ERROR\|runtime error\|timeout" "$B/$t.log" >&2
    fi
done
cat "$B/table.txt"
exit $status
