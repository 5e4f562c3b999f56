#!/bin/sh
# test_compare_details.sh - compare_details.py's judging on made-up pages and
# on gpuprof-report's own details page of a recorded --set full run (runs in
# make test; SKIP when python3 is absent).
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP compare_details.py: python3 is not installed"
    echo "compare-details: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${BUILD:-build}/gpuprof-report --page details --csv tests/data/details/h100-full.jsonl >"$tmp/page.csv" || {
    echo "FAIL gpuprof-report --page details --csv"; echo "compare-details: 0 passed, 1 failed, 0 skipped"; exit 1; }
PYTHONDONTWRITEBYTECODE=1 python3 tests/gpu/details/test_compare_details.py "$tmp/page.csv"
