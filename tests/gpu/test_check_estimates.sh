#!/bin/sh
# test_check_estimates.sh - check_estimates.py --ncu (replay mode none's
# estimates against Nsight Compute's per-launch values) on made-up files;
# runs in make test; SKIP when python3 is absent.
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP check_estimates.py: python3 is not installed"
    echo "check-estimates: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
PYTHONDONTWRITEBYTECODE=1 exec python3 tests/gpu/test_check_estimates.py
