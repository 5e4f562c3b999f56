#!/bin/sh
# test_python.sh - the Python loader (python/gpuprof) on the report fixtures,
# with the gpuprof-report built here.  SKIP when python3 is absent.
suite=python
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP python loader: python3 is not installed"
    echo "$suite: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
b=${BUILD:-build}
if [ ! -x "$b/gpuprof-report" ]; then
    echo "FAIL: $b/gpuprof-report not built" >&2
    echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
# no __pycache__ in the source tree
PYTHONDONTWRITEBYTECODE=1 GPUPROF_REPORT=$(cd "$b" && pwd)/gpuprof-report exec python3 tests/python/test_gpuprof.py
