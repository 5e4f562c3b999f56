#!/bin/sh
# test_compare.sh - compare.py's judging on made-up files (runs in make test;
# SKIP when python3 is absent).
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP compare.py: python3 is not installed"
    echo "compare: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
PYTHONDONTWRITEBYTECODE=1 exec python3 tests/gpu/xcheck/test_compare.py
