# doc_gen.sh - sourced by the tests of the pages generated from the
# definitions (the metric list, the record format): the counters, $gen (the
# generator from $BUILD), $tmp (removed at exit), t CMD WHY (counts CMD's
# outcome, WHY on failure) and test_gen.  Needs $suite set by the caller;
# ends the test as failed when the generator is not built.
pass=0; fail=0; skip=0
b=${BUILD:-build}
gen=$b/gen/gp-metrics-gen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-cc}
t() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2" >&2; fi; }
if [ ! -x "$gen" ]; then
    echo "FAIL: $gen not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi

# test_gen DEF: builds $tmp/gen from a copy of metrics/gen.c beside the test's
# own $tmp/DEF and copies of the other definitions (gen.c's quoted #include
# looks next to it first).  A build that fails is counted and shown; returns 1.
test_gen() {
    cp metrics/gen.c "$tmp/"
    for d in derived.def facts.def counters.def record_fields.def; do
        [ "$d" = "$1" ] || cp "metrics/$d" "$tmp/"
    done
    srcs="$tmp/gen.c metrics/expr.c metrics/facts.c metrics/record.c metrics/guard.c metrics/json.c metrics/device.c metrics/occupancy.c metrics/peaks.c metrics/textfile.c util/num.c util/textio.c"
    if $CC -std=gnu11 -I"$tmp" -I. -Imetrics -Iinclude $srcs -o "$tmp/gen" -lm 2>"$tmp/cc.log"; then
        return 0
    fi
    fail=$((fail + 1)); echo "FAIL: cannot build the generator on a test copy" >&2; cat "$tmp/cc.log" >&2
    return 1
}
