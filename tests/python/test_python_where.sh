#!/bin/sh
# test_python_where.sh - gpuprof.load_instructions (python/gpuprof) on the
# "why and where" fixtures.  SKIP when python3 is absent.
suite=python-where
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP python loader: python3 is not installed"
    echo "$suite: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
PYTHONDONTWRITEBYTECODE=1 exec python3 tests/python/test_where.py
