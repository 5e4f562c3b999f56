#!/bin/sh
# test_record_doc.sh - the record format is defined once, in
# metrics/records/record_fields.def: the field tables and CSV columns of
# docs/output-format.md match a fresh generation and have one row per field;
# a malformed definition stops the generator (and so `make`); the test
# fixtures are what tests/data/report/make-fixtures.py writes, and that
# generator refuses a record whose keys the definition does not have.
suite=report-record-doc
. tests/lib/doc_gen.sh
def=metrics/records/record_fields.def

# the page
cp docs/output-format.md "$tmp/format.md"
t '"$gen" --record-doc "$tmp/format.md"' "generator failed on $def"
t 'cmp -s "$tmp/format.md" docs/output-format.md' "docs/output-format.md is stale: run make docs/output-format.md"
block() { sed -n "/^<!-- generated: $1 -->/,/^<!-- end generated: $1 -->/p" "$tmp/format.md"; }
n_dev=$(grep -c '^GP_DEVICE_FIELD(' $def)
n_launch=$(grep -c '^GP_LAUNCH_FIELD(' $def)
t '[ "$(block "device fields" | grep -c "^| \`")" -eq "$n_dev" ]' "device table rows != $n_dev fields"
t '[ "$(block "launch fields" | grep -c "^| \`")" -eq "$n_launch" ]' "launch table rows != $n_launch fields"
t 'block "csv columns" | grep -q "^\`launch_id,device,context,stream,kernel,mangled,grid_x,grid_y,grid_z,"' "CSV columns"
# a page without its markers is refused, not silently left alone
grep -v 'generated: launch fields' docs/output-format.md >"$tmp/nomark.md"
t '! "$gen" --record-doc "$tmp/nomark.md" 2>"$tmp/err" && grep -q "launch fields" "$tmp/err"' "page without markers accepted"

# a broken definition stops the generator
for bad in 's/^GP_LAUNCH_FIELD("pid", pid,/GP_LAUNCH_FIELD("passes", pid,/' \
           's/^GP_LAUNCH_FIELD("api", api, STR, 0, 0, 0, 0, ""/GP_LAUNCH_FIELD("api", api, STR, 0, 0, 0, 0, "ms"/' \
           's/^GP_DEVICE_FIELD("chip", chip,/GP_DEVICE_FIELD("Chip", chip,/' \
           's/GP_RF_CSV | GP_RF_NAME/GP_RF_CSV/'; do
    sed "$bad" $def >"$tmp/record_fields.def"
    if cmp -s $def "$tmp/record_fields.def"; then
        fail=$((fail + 1)); echo "FAIL: test edit '$bad' changed nothing" >&2; continue
    fi
    test_gen record_fields.def || continue
    cp docs/output-format.md "$tmp/f.md"
    "$tmp/gen" --record-doc "$tmp/f.md" 2>"$tmp/err"; rc=$?
    t '[ "$rc" -ne 0 ] && grep -q "record_fields.def" "$tmp/err"' "accepted: $bad"
done

# the fixtures and their generator
if command -v python3 >/dev/null 2>&1; then
    root=$(pwd)
    mkdir -p "$tmp/fx/tests/data/report"
    t '(cd "$tmp/fx" && python3 "$root/tests/data/report/make-fixtures.py")' "make-fixtures.py failed"
    for f in "$tmp"/fx/tests/data/report/*; do
        t 'cmp -s "$f" "tests/data/report/$(basename "$f")"' "tests/data/report/$(basename "$f") is not what make-fixtures.py writes"
    done
    sed 's/^GP_LAUNCH_FIELD("passes", passes,/GP_LAUNCH_FIELD("pass_count", passes,/' $def >"$tmp/renamed.def"
    t '! (cd "$tmp/fx" && GP_RECORD_FIELDS="$tmp/renamed.def" python3 "$root/tests/data/report/make-fixtures.py") 2>"$tmp/err" && grep -q "pass_count" "$tmp/err"' \
      "make-fixtures.py accepted records without a field of the definition"
else
    skip=$((skip + 1)); echo "SKIP fixture generator: python3 is not installed" >&2
fi
echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
