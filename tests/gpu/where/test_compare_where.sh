#!/bin/sh
# test_compare_where.sh - compare_where.py's warp-state judging on made-up
# files (runs in make test; SKIP when python3 is absent).
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP compare_where.py: python3 is not installed"
    echo "compare-where: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
PYTHONDONTWRITEBYTECODE=1 exec python3 tests/gpu/where/test_compare_where.py
