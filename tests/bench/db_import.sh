#!/bin/sh
# db_import.sh - the database import's benchmark (docs/database.md): a
# million launches (1,000 kernels, the records of
# tests/bench/report_records.py, about 2.7 KB each) into a database with
# gpuprof-report --format sqlite: wall and CPU time, peak resident memory
# (/usr/bin/time -v), the database's size against the JSON lines', and the
# text report on the same file for comparison.  Prints figures, asserts
# nothing; make test checks bounded memory and size on small files
# (tests/report/test_report_db.sh).
#
#   sh tests/bench/db_import.sh            (from the repository root, after make)
#   BENCH_DIR=dir     where the files go (default a temporary directory, removed
#                     at the end; the record file is about 2.7 GB, the database 1.8 GB)
#   BENCH_LAUNCHES=N  launches (default 1000000)
#   REPORT=path       the gpuprof-report to time (default build/gpuprof-report)
set -e
report=${REPORT:-build/gpuprof-report}
launches=${BENCH_LAUNCHES:-1000000}
[ -x "$report" ] || { echo "db_import.sh: $report not built (make)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "db_import.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
if [ -n "$BENCH_DIR" ]; then dir=$BENCH_DIR; mkdir -p "$dir"; else
    dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT; fi
in=$dir/launches-$launches.jsonl
[ -s "$in" ] || python3 tests/bench/report_records.py 1000 "$launches" "$in"

# name, command...: one line of figures from /usr/bin/time -v
measure() {
    name=$1; shift
    /usr/bin/time -v -o "$dir/time" "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
    awk -v n="$name" -F': ' '
        /Elapsed \(wall clock\)/ { split($2, t, ":"); w = t[1] * 60 + t[2]; if (length(t) == 3) w = t[1] * 3600 + t[2] * 60 + t[3] }
        /User time/ { u = $2 } /System time/ { s = $2 } /Percent of CPU/ { p = $2 }
        /Maximum resident/ { m = $2 }
        END { printf "%-26s %9.1f %9.1f %9.1f %6s %10.0f\n", n, w, u, s, p, m / 1024 }' "$dir/time"
}
# read once first, so that no run pays for the disk (each reads it from memory)
cat "$in" >/dev/null
printf '%-26s %9s %9s %9s %6s %10s\n' run "wall [s]" "user [s]" "sys [s]" CPU "peak MB"
rm -f "$dir/out.db"
measure "sqlite, 2 threads" "$report" --format sqlite -o "$dir/out.db" "$in"
db=$(stat -c %s "$dir/out.db")
rm -f "$dir/out1.db"
measure "sqlite, 1 thread" env GPUPROF_DB_NO_THREAD=1 "$report" --format sqlite -o "$dir/out1.db" "$in"
rm -f "$dir/out1.db"
measure "text report (no database)" "$report" -o "$dir/out.txt" "$in"
js=$(stat -c %s "$in")
awk -v d="$db" -v j="$js" -v n="$launches" 'BEGIN {
    printf "JSON lines %.0f MB, database %.0f MB (%.0f%% of it), %.0f bytes a launch\n",
           j / 1e6, d / 1e6, 100 * d / j, d / n }'
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print("rows: %d launches, %d metric rows, %d kernels" % tuple(c.execute(q).fetchone()[0] for q in
      ("SELECT COUNT(*) FROM launches", "SELECT COUNT(*) FROM metrics", "SELECT COUNT(*) FROM kernels")))' "$dir/out.db"
fi
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg); $(uname -m); report $("$report" --version)"
