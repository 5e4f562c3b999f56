#!/bin/sh
# test_fake_run.sh - gpupeak's host side end to end without a GPU: the
# program linked with the device test double (fake_device.c) runs a full and
# a quick measurement, and every file it writes must be what the recorded
# run wrote (tests/data/gpupeak/fake-run/, the SVGs by checksum).  This pins
# the tables, the measurement loops, the fits and the writers together; the
# kernels are the SASS check's and the GPU machine's business.
# After an intended change of gpupeak's output: sh tests/gpupeak/test_fake_run.sh --record
suite=gpupeak-fake-run
pass=0; fail=0
bin=${BUILD:-build}/gpupeak/gpupeak_fake
ref=tests/data/gpupeak/fake-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$bin" ]; then
    echo "FAIL: $bin not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
for mode in full quick; do
    if [ "$mode" = quick ]; then flag=--quick; else flag=; fi
    "$bin" $flag --out "$tmp/$mode" >"$tmp/$mode.stdout" 2>"$tmp/$mode.stderr"; rc=$?
    if [ "$rc" -ne 0 ]; then
        fail=$((fail + 1)); echo "FAIL: $mode run: exit $rc" >&2
        cat "$tmp/$mode.stderr" >&2
        continue
    fi
    (cd "$tmp/$mode" && for f in *.svg; do [ -f "$f" ] && sha256sum "$f"; done) \
        >"$tmp/$mode/svg.sha256"
    rm -f "$tmp/$mode"/*.svg
    cp "$tmp/$mode.stderr" "$tmp/$mode/stderr.txt"
    if [ "${1:-}" = --record ]; then
        mkdir -p "$ref/$mode" && rm -f "$ref/$mode"/* && cp "$tmp/$mode"/* "$ref/$mode/"
        echo "recorded $ref/$mode"
        continue
    fi
    # the table goes to stdout and to peaks.txt alike
    if cmp -s "$tmp/$mode.stdout" "$tmp/$mode/peaks.txt"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: $mode: stdout is not peaks.txt" >&2
    fi
    for f in "$ref/$mode"/*; do
        n=$(basename "$f")
        if cmp -s "$f" "$tmp/$mode/$n"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAIL: $mode: $n differs from $f" >&2
            diff "$f" "$tmp/$mode/$n" 2>&1 | head -20 >&2
        fi
    done
    # no file written that the recorded run did not write
    if [ "$(ls "$tmp/$mode")" = "$(ls "$ref/$mode")" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: $mode: other files than $ref/$mode" >&2
    fi
done
# --only: the named lines' kernels and no other (the probe included), their
# figures in peaks.json, the others null
if [ "${1:-}" != --record ]; then
    "$bin" --only fp16x2_fma,l1_read --out "$tmp/only" >/dev/null 2>"$tmp/only.stderr"; rc=$?
    n=$(grep -c '^gpupeak: [a-z0-9_]*  *[0-9.e+]* [a-zA-Z/]*  *[0-9.]* [a-zA-Z/]*clk/SM' "$tmp/only.stderr")
    if [ "$rc" -eq 0 ] && [ "$n" -eq 2 ] && grep -q '^gpupeak: fp16x2_fma ' "$tmp/only.stderr" &&
        grep -q '^gpupeak: l1_read ' "$tmp/only.stderr" && ! grep -q 'probe' "$tmp/only.stderr" &&
        python3 - "$tmp/only/peaks.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["throughput"]["fp16x2_fma"]["value"] > 0 and d["bandwidth"]["l1_read"]["value"] > 0
assert d["throughput"]["fp32_fma"]["value"] is None and d["bandwidth"]["dram_copy"]["value"] is None
PY
    then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: --only fp16x2_fma,l1_read: exit $rc, $n lines measured" >&2
        cat "$tmp/only.stderr" >&2
    fi
fi
echo "$suite: $pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
