#!/bin/sh
# test_details_oracle.sh - gpuprof-report's Nsight Compute pages against
# Nsight Compute's own, on kernels gpuprof did not write: cuBLAS's test
# program (fills, conversions, an sm80_xmma SGEMM, an nvjet HGEMM with
# clusters of 2) and a PyTorch training step, 8 launches each, profiled by
# Nsight Compute 2025.3.1 with --set full on an H100 SXM
# (tests/gpu/details/ncu_facts.sh; the files are in tests/data/details/ncu-h100,
# README.txt there).  Each report's raw page becomes gpuprof's records
# (ncu_raw_records.py: the counters ncu measured, as the library would
# record them), and gpuprof-report's pages of those records are judged
# against the pages ncu printed from the same counters:
#   - --page details --csv: every (launch, section, metric) row present, with
#     a value or as n/a with its reason; at least 99% of the values agree
#     (compare_details.py, the GPU machine's judge);
#   - --page details as text and --print-summary per-kernel: the same rows,
#     labels, units and cells (within the raw page's two decimals), 99%;
#     the summary's CSV: ncu's header, every row, 99% of values agreeing;
#   - --set basic and --set detailed (ncu's pages of other runs of the same
#     program): the same sections and every row present;
#   - --section SpeedOfLight --section 'regex:Memory.*': the same sections.
# This judges the report's side (the section table, its formulas, units,
# scaling and layout, the launch and occupancy figures); what the library
# collects is judged on the GPU machine by tests/gpu/details/check.sh.
suite=report-details-oracle
pass=0; fail=0; skip=0
report=${BUILD:-build}/gpuprof-report
D=tests/data/details/ncu-h100
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
finish() { echo "$suite: $pass passed, $fail failed, $skip skipped"; [ "$fail" -eq 0 ]; exit $?; }
if [ ! -x "$report" ]; then ko "$report not built"; finish; fi
if ! command -v python3 >/dev/null 2>&1; then
    skip=$((skip + 1)); echo "SKIP details against Nsight Compute's pages: python3 is not installed" >&2
    finish
fi
py() { PYTHONDONTWRITEBYTECODE=1 python3 "$@"; }
set_sections() { grep -o "^GP_NCU_SET(\"$1\", \"[^\"]*" metrics/ncu/sections.def | sed 's/.*"//' | tr ' ' ','; }
# the sections a CSV details page shows, one per line
csv_sections() {
    py - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors='replace', newline='')))
start = next(i for i, r in enumerate(rows) if r[:2] == ['ID', 'Process ID'])
print('\n'.join(sorted(set(r[11] for r in rows[start + 1:] if len(r) > 12 and r[12]))))
PY
}
# ok when the last line of $tmp/cmp says what $1 matches (and exit 0)
judged() { # rc, label
    if [ "$1" -eq 0 ]; then ok; else ko "$2: $(grep -v '^  n/a ' "$tmp/cmp" | tail -4)"; fi
}

full=$(set_sections full)
for prog in blas torch; do
    zcat "$D/$prog.raw.csv.gz" >"$tmp/$prog.raw.csv"
    if py tests/report/ncu_raw_records.py "$tmp/$prog.raw.csv" "$full" >"$tmp/$prog.jsonl" &&
       [ "$(grep -c '"type":"launch"' "$tmp/$prog.jsonl")" -eq 8 ]; then ok
    else ko "$prog: the raw page as records"; continue; fi
    for page in details.csv details.txt summary.txt; do zcat "$D/$prog.$page.gz" >"$tmp/ncu.$prog.$page"; done

    # the CSV details page, judged as on the GPU machine
    "$report" --page details --csv "$tmp/$prog.jsonl" >"$tmp/$prog.gp.csv" 2>"$tmp/err"
    if [ $? -eq 0 ] && [ ! -s "$tmp/err" ]; then ok; else ko "$prog --page details --csv: $(head -1 "$tmp/err")"; fi
    py tests/gpu/details/compare_details.py "$tmp/ncu.$prog.details.csv" "$tmp/$prog.gp.csv" \
        --label "$prog" >"$tmp/cmp" 2>&1
    judged $? "$prog details csv against ncu's"
    grep '^details ' "$tmp/cmp"
    # every launch and every row of ncu's page (none unmatched or missing)
    if grep -q "^details-counts .* missing=0 .*rows=696 unmatched=0$" "$tmp/cmp"; then ok
    else ko "$prog details csv: $(grep '^details-counts' "$tmp/cmp")"; fi
    # the same sections as ncu's page, no more
    if [ "$(csv_sections "$tmp/ncu.$prog.details.csv")" = "$(csv_sections "$tmp/$prog.gp.csv")" ]; then ok
    else ko "$prog details csv: sections differ from ncu's"; fi

    # the text details page and the per-kernel summary, cell for cell
    "$report" --page details "$tmp/$prog.jsonl" >"$tmp/$prog.gp.txt" 2>&1
    py tests/report/details_pages.py compare --rounded --min 0.99 "$tmp/ncu.$prog.details.txt" \
        "$tmp/$prog.gp.txt" >"$tmp/cmp" 2>&1
    judged $? "$prog details text against ncu's"
    echo "details text $prog: $(tail -1 "$tmp/cmp")"
    "$report" --print-summary per-kernel "$tmp/$prog.jsonl" >"$tmp/$prog.sum.txt" 2>&1
    py tests/report/details_pages.py compare --summary --min 0.99 "$tmp/ncu.$prog.summary.txt" \
        "$tmp/$prog.sum.txt" >"$tmp/cmp" 2>&1
    judged $? "$prog summary against ncu's"
    echo "summary $prog: $(tail -1 "$tmp/cmp")"
    zcat "$D/$prog.summary.csv.gz" >"$tmp/ncu.$prog.summary.csv"
    "$report" --print-summary per-kernel --csv "$tmp/$prog.jsonl" >"$tmp/$prog.sum.csv" 2>&1
    py tests/gpu/details/compare_details.py --summary "$tmp/ncu.$prog.summary.csv" \
        "$tmp/$prog.sum.csv" --label "$prog" >"$tmp/cmp" 2>&1
    judged $? "$prog summary csv against ncu's"
    tail -1 "$tmp/cmp" | sed 's/^summary/summary csv/'
done

# ncu's basic and detailed sets (their pages are of other runs of cuBLAS's
# program, two launches: the values are not judged, the rows and sections are)
for set in basic detailed; do
    zcat "$D/blas.$set.csv.gz" >"$tmp/ncu.$set.csv"
    py tests/report/ncu_raw_records.py "$tmp/blas.raw.csv" "$(set_sections $set)" >"$tmp/$set.jsonl"
    "$report" --page details --csv "$tmp/$set.jsonl" >"$tmp/$set.gp.csv" 2>&1
    py tests/gpu/details/compare_details.py "$tmp/ncu.$set.csv" "$tmp/$set.gp.csv" --min 0 \
        --label "$set" >"$tmp/cmp" 2>&1
    judged $? "--set $set: rows against ncu's"
    if [ "$(csv_sections "$tmp/ncu.$set.csv")" = "$(csv_sections "$tmp/$set.gp.csv")" ]; then ok
    else ko "--set $set: sections $(csv_sections "$tmp/$set.gp.csv" | tr '\n' '|') against ncu's $(csv_sections "$tmp/ncu.$set.csv" | tr '\n' '|')"; fi
done
# the same choice of sections by name and regex: as ncu made
zcat "$D/blas.regex.csv.gz" >"$tmp/ncu.regex.csv"
"$report" --page details --csv --section SpeedOfLight --section 'regex:Memory.*' \
    "$tmp/blas.jsonl" >"$tmp/regex.gp.csv" 2>&1
py tests/gpu/details/compare_details.py "$tmp/ncu.regex.csv" "$tmp/regex.gp.csv" --min 0 >"$tmp/cmp" 2>&1
judged $? "--section regex: rows against ncu's"
if [ "$(csv_sections "$tmp/ncu.regex.csv")" = "$(csv_sections "$tmp/regex.gp.csv")" ]; then ok
else ko "--section regex: sections $(csv_sections "$tmp/regex.gp.csv" | tr '\n' '|')"; fi
finish
