#!/bin/sh
# Runs each test binary or script given, collects its "N passed, N failed,
# N skipped" line (and under it the "SKIP what: why" lines of a suite that
# skipped something), and prints the total last.  Exit status 1 if any failed
# (or crashed without printing its line).
tp=0; tf=0; ts=0
for t in "$@"; do
    case "$t" in
        *.sh) out=$(sh "$t" 2>&1); rc=$? ;;
        *) out=$("./$t" 2>&1); rc=$? ;;
    esac
    line=$(printf '%s\n' "$out" | grep -E '[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -z "$line" ]; then
        printf '%s\n' "$out"
        echo "CRASH $t (exit $rc, no result line)"
        tf=$((tf + 1))
        continue
    fi
    p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p'); s=${s:-0}
    if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then printf '%s\n' "$out"; fi
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    echo "$line"
    # a skip is never silent: its reason, as the test printed it ("SKIP what: why")
    if [ "$s" -ne 0 ]; then
        reasons=$(printf '%s\n' "$out" | grep -E '^SKIP' | sed 's/^/    /')
        printf '%s\n' "${reasons:-    SKIP (the test gave no reason: $t)}"
    fi
    tp=$((tp + p)); tf=$((tf + f)); ts=$((ts + s))
done
echo "${tp} passed, ${tf} failed, ${ts} skipped"
[ "$tf" -eq 0 ]
