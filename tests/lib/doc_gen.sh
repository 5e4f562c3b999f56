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

# test_gen DEF: builds $tmp/gen from a copy of metrics/catalog/gen.c with the
# test's own $tmp/DEF and copies of the other definitions under $tmp/metrics/
# (gen.c's quoted #include looks next to it first).  A build that fails is counted and shown; returns 1.
test_gen() {
    cp metrics/catalog/gen.c "$tmp/"
    for d in catalog/derived.def catalog/facts.def catalog/counters.def records/record_fields.def \
             records/guards.def catalog/gpupeak.def; do
        mkdir -p "$tmp/metrics/${d%/*}"
        if [ "${d#*/}" = "$1" ]; then
            cp "$tmp/$1" "$tmp/metrics/$d"
        else
            cp "metrics/$d" "$tmp/metrics/$d"
        fi
    done
    srcs="$tmp/gen.c metrics/catalog/expr.c metrics/catalog/facts.c metrics/records/record.c metrics/records/guard.c metrics/records/json.c metrics/records/device.c metrics/catalog/occupancy.c metrics/catalog/peaks.c metrics/records/textfile.c util/num.c util/textio.c util/strhash.c"
    if $CC -std=gnu11 -I"$tmp" -I. -Iinclude $srcs -o "$tmp/gen" -lm 2>"$tmp/cc.log"; then
        return 0
    fi
    fail=$((fail + 1)); echo "FAIL: cannot build the generator on a test copy" >&2; cat "$tmp/cc.log" >&2
    return 1
}
