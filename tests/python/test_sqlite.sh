#!/bin/sh
# test_sqlite.sh - the SQLite databases read back by the Python loader and
# the example queries of docs/database.md (tests/python/test_sqlite.py).
# SKIP when python3 or SQLite is absent.
suite="python sqlite"
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import sqlite3' 2>/dev/null; then
    echo "SKIP python sqlite: python3 with its sqlite3 module is not installed"
    echo "$suite: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
b=${BUILD:-build}
for x in gpuprof-report gpuprof-characterize; do
    if [ ! -x "$b/$x" ]; then
        echo "FAIL: $b/$x not built" >&2
        echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
    fi
done
PYTHONDONTWRITEBYTECODE=1 GPUPROF_REPORT=$(cd "$b" && pwd)/gpuprof-report exec python3 tests/python/test_sqlite.py
