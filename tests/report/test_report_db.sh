#!/bin/sh
# test_report_db.sh - gpuprof-report --format sqlite (docs/database.md) as a
# command: a database is written whole or not at all, and every bad case is
# one clear message: -o missing, an existing file without --force, a path
# that cannot be written, a full disk (a file size limit), SQLite absent, a
# kill in the middle (nothing under the final name, the leftover temporary
# file marked unfinished); SQL in names stored as text; memory that does not
# grow with the launches.  The rows themselves are checked by
# tests/python/test_sqlite.py.  SKIP when libsqlite3 cannot be loaded.
suite=report-db
pass=0; fail=0; skip=0
report=${BUILD:-build}/gpuprof-report
fix=tests/data/report
P=$fix/h100-planted.jsonl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$1"; then ok; else ko "$2"; fi; }
if [ ! -x "$report" ]; then
    echo "FAIL: $report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
# the database's meta value of KEY (python's sqlite3, else the sqlite3 tool)
meta() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sqlite3,sys; print(dict(sqlite3.connect(sys.argv[1]).execute("SELECT key, value FROM meta")).get(sys.argv[2], ""))' "$1" "$2" 2>/dev/null
    elif command -v sqlite3 >/dev/null 2>&1; then
        sqlite3 "$1" "SELECT value FROM meta WHERE key = '$2'" 2>/dev/null
    else
        echo "?"
    fi
}
query() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sqlite3,sys; [print("|".join(map(str, r))) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]' "$1" "$2" 2>/dev/null
    else
        sqlite3 "$1" "$2"
    fi
}
can_query=0
{ command -v python3 >/dev/null 2>&1 || command -v sqlite3 >/dev/null 2>&1; } && can_query=1

"$report" --format sqlite -o "$tmp/first.db" "$P" >"$tmp/out" 2>&1; rc=$?
if [ "$rc" -ne 0 ] && grep -q "SQLite is not installed" "$tmp/out"; then
    echo "SKIP: $(cat "$tmp/out")"
    echo "$suite: 0 passed, 0 failed, 1 skipped"; exit 0
fi
check '[ "$rc" -eq 0 ] && [ -s "$tmp/first.db" ] && [ ! -s "$tmp/out" ]' \
    "a database of the fixture: exit $rc, $(cat "$tmp/out")"
check '[ "$(ls -A "$tmp" | grep -c "^\.first")" -eq 0 ]' "a temporary file is left: $(ls -A "$tmp")"
if [ "$can_query" = 1 ]; then
    check '[ "$(meta "$tmp/first.db" complete)" = yes ] && [ "$(meta "$tmp/first.db" format)" = gpuprof-db/1 ]' \
        "meta: complete '$(meta "$tmp/first.db" complete)'"
    check '[ "$(query "$tmp/first.db" "SELECT COUNT(*) FROM launches")" = 12 ] && [ "$(query "$tmp/first.db" "SELECT COUNT(*) FROM kernels")" = 10 ]' \
        "12 launches and 10 kernels: $(query "$tmp/first.db" "SELECT COUNT(*) FROM launches")"
else
    skip=$((skip + 2)); echo "SKIP: neither python3 nor sqlite3 to read the database" >&2
fi
mode=$(stat -c %a "$tmp/first.db")
check '[ "$mode" = 644 ]' "database mode $mode, want 644"

# -o is required; --force only with sqlite
"$report" --format sqlite "$P" >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 2 ] && grep -q "give -o FILE.db" "$tmp/out"' "no -o: exit $rc, $(head -1 "$tmp/out")"
"$report" --force "$P" >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 2 ] && grep -q "^gpuprof-report: --force replaces an existing database" "$tmp/out"' \
    "--force without sqlite: exit $rc, $(head -1 "$tmp/out")"

# an existing file: refused, untouched; --force replaces it
echo "precious" >"$tmp/keep.db"
"$report" --format sqlite -o "$tmp/keep.db" "$P" >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 1 ] && [ "$(cat "$tmp/keep.db")" = precious ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "keep.db exists: give --force to replace it" "$tmp/out"' \
    "existing file: exit $rc, $(cat "$tmp/out")"
"$report" --format sqlite --force -o "$tmp/keep.db" "$P" >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 0 ] && [ "$(head -c 15 "$tmp/keep.db")" = "SQLite format 3" ]' "--force: exit $rc, $(cat "$tmp/out")"

# paths that cannot be written: one line each, nothing left
: >"$tmp/afile"
for bad in "$tmp/afile/x.db" "$tmp/nodir/x.db" "$tmp" /dev/null; do
    "$report" --format sqlite --force -o "$bad" "$P" >"$tmp/out" 2>&1; rc=$?
    check '[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "^gpuprof-report: cannot write" "$tmp/out"' \
        "unwritable $bad: exit $rc, $(cat "$tmp/out")"
done

# a full disk: the file size limit makes writes fail (EFBIG) as ENOSPC would
python3 tests/bench/report_records.py 50 3000 "$tmp/big.jsonl" 2>/dev/null ||
    { for i in $(seq 1 250); do cat "$P"; done >"$tmp/big.jsonl"; }
(trap '' XFSZ; ulimit -f 2048; exec "$report" --format sqlite -o "$tmp/full.db" "$tmp/big.jsonl") \
    >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 1 ] && [ ! -e "$tmp/full.db" ] && [ "$(ls -A "$tmp" | grep -c "^\.full")" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "cannot write .*full.db: .* (nothing written under that name)" "$tmp/out"' \
    "full disk: exit $rc, $(cat "$tmp/out"), left: $(ls -A "$tmp" | grep full)"

# no SQLite: one line saying what to install; the other formats work
GPUPROF_SQLITE=/nonexistent/libsqlite3.so.0 "$report" --format sqlite -o "$tmp/none.db" "$P" >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 1 ] && [ ! -e "$tmp/none.db" ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "SQLite is not installed: cannot load /nonexistent/libsqlite3.so.0 .*apt-get install libsqlite3-0" "$tmp/out"' \
    "no SQLite: exit $rc, $(cat "$tmp/out")"
GPUPROF_SQLITE=/nonexistent/libsqlite3.so.0 "$report" --format csv "$P" >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 11 ]' "no SQLite, csv: exit $rc"
GPUPROF_SQLITE=/bin/true "$report" --format sqlite -o "$tmp/none.db" "$P" >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 1 ] && [ ! -e "$tmp/none.db" ] && grep -q "cannot load /bin/true" "$tmp/out"' \
    "not a library: exit $rc, $(cat "$tmp/out")"

# killed in the middle: nothing under the final name; the temporary file
# says it is unfinished, and a new run writes the database
python3 tests/bench/report_records.py 100 50000 "$tmp/huge.jsonl" 2>/dev/null ||
    { for i in $(seq 1 12); do cat "$tmp/big.jsonl"; done >"$tmp/huge.jsonl"; }
"$report" --format sqlite -o "$tmp/killed.db" "$tmp/huge.jsonl" >/dev/null 2>&1 &
pid=$!
n=0
while [ "$n" -lt 100 ] && [ "$(ls -A "$tmp" | grep -c "^\.killed.db\.")" -eq 0 ]; do sleep 0.05; n=$((n + 1)); done
sleep 0.3
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
left=$(ls -A "$tmp" | grep "^\.killed.db\." | head -1)
check '[ ! -e "$tmp/killed.db" ] && [ -n "$left" ]' "after a kill: killed.db exists or no temporary file ($left)"
if [ -n "$left" ] && command -v python3 >/dev/null 2>&1; then
    PYTHONDONTWRITEBYTECODE=1 python3 -c 'import sys; sys.path.insert(0, "python"); import gpuprof; gpuprof.load(sys.argv[1], as_frame=False)' \
        "$tmp/$left" >"$tmp/out" 2>&1; rc=$?
    check '[ "$rc" -ne 0 ] && grep -q "was not finished (its writer stopped or was killed before the end): write it again" "$tmp/out"' \
        "the loader on the unfinished file: exit $rc, $(tail -1 "$tmp/out")"
else
    skip=$((skip + 1))
fi
"$report" --format sqlite -o "$tmp/killed.db" "$P" >"$tmp/out" 2>&1; rc=$?
check '[ "$rc" -eq 0 ] && [ -s "$tmp/killed.db" ]' "a new run after the kill: exit $rc, $(cat "$tmp/out")"

# SQL in a name is a name
sed 's/"kernel":"saxpy_4x4(int, float, const float\*, float\*)"/"kernel":"x'"'"'); DROP TABLE kernels; --"/' "$P" >"$tmp/sql.jsonl"
"$report" --format sqlite -o "$tmp/sql.db" "$tmp/sql.jsonl" >"$tmp/out" 2>&1; rc=$?
if [ "$can_query" = 1 ]; then
    check '[ "$rc" -eq 0 ] && [ "$(query "$tmp/sql.db" "SELECT COUNT(*) FROM kernels WHERE kernel = '"'"'x'"'"''"'"'); DROP TABLE kernels; --'"'"'")" = 1 ] && [ "$(query "$tmp/sql.db" "SELECT COUNT(*) FROM kernels")" = 10 ]' \
        "a name holding SQL: exit $rc, $(query "$tmp/sql.db" "SELECT kernel FROM kernels" | head -3)"
else
    skip=$((skip + 1))
fi

# memory follows the kernels, not the launches: 4x the launches (15,000 more,
# some 25 MB if they were kept) stay within the writer's bounds (its two
# chunks of rows and SQLite's 16 MB page cache)
if [ -x /usr/bin/time ] && python3 tests/bench/report_records.py 20 5000 "$tmp/m1.jsonl" 2>/dev/null &&
    python3 tests/bench/report_records.py 20 20000 "$tmp/m4.jsonl" 2>/dev/null; then
    /usr/bin/time -f %M -o "$tmp/t1" "$report" --format sqlite -o "$tmp/m1.db" "$tmp/m1.jsonl" 2>/dev/null
    /usr/bin/time -f %M -o "$tmp/t4" "$report" --format sqlite -o "$tmp/m4.db" "$tmp/m4.jsonl" 2>/dev/null
    k1=$(tail -1 "$tmp/t1"); k4=$(tail -1 "$tmp/t4")
    # (64 MB in all, but under AddressSanitizer, whose shadow memory is RSS too)
    cap=65536; ldd "$report" 2>/dev/null | grep -q libasan && cap=1048576
    check '[ "$k4" -lt $((k1 + 16000)) ] && [ "$k4" -lt "$cap" ]' \
        "peak memory $k1 KB for 5,000 launches, $k4 KB for 20,000"
    s4=$(stat -c %s "$tmp/m4.db"); j4=$(stat -c %s "$tmp/m4.jsonl")
    check '[ "$s4" -lt "$j4" ]' "database $s4 bytes, larger than its JSON lines ($j4)"
else
    skip=$((skip + 2)); echo "SKIP: memory check (no /usr/bin/time or python3)" >&2
fi

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
