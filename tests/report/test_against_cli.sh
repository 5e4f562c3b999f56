#!/bin/sh
# test_against_cli.sh - gpuprof-report --against on files: the made-up
# program of tests/data/against (each rule of the judging once: n/a against
# 0, a percentage over 100, a second ncu run, the one-pass run, launches on
# one side only) with its figures and exit status; the same figures from the
# project's Python cross-check (tests/gpu/xcheck/compare.py, an independent
# implementation of the rules) on these files and on the recorded ncu output
# of tests/data/against/recorded (SKIP without python3); gpuprof's own
# ncu-raw-csv output read back (everything agrees, exit 0); JSON and CSV; and
# the bad input of docs/report.md: malformed CSV (one message naming the
# file and line, nothing on standard output), the details layout, scaled
# units, files of another program, device, launch count or metric list,
# inputs that are not files.
suite=against-cli
pass=0; fail=0; skip=0
report=${BUILD:-build}/gpuprof-report
A=tests/data/against
H=$A/hostile
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
skipped() { skip=$((skip + 1)); echo "SKIP: $*" >&2; }
if [ ! -x "$report" ]; then
    echo "FAIL: $report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
# run WANT_RC PATTERN ARGS...: exit status and a pattern in stdout+stderr
# ($tmp/out; stdout alone in $tmp/stdout), within 20 s
run() {
    want=$1; pat=$2; shift 2
    timeout 20 "$report" "$@" >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
    cat "$tmp/stdout" "$tmp/stderr" >"$tmp/out"
    if [ "$rc" -ne "$want" ]; then ko "gpuprof-report $*: exit $rc, want $want"; head -5 "$tmp/out" >&2; return 1; fi
    if [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/out"; then
        ko "gpuprof-report $*: no '$pat' in output"; tail -5 "$tmp/out" >&2; return 1
    fi
    ok
}
# refused PATTERN ARGS...: exit 1, one message on stderr holding PATTERN,
# nothing on standard output
refused() {
    pat=$1; shift
    run 1 "$pat" "$@" || return 1
    if [ -s "$tmp/stdout" ] || [ "$(wc -l <"$tmp/stderr")" -ne 1 ]; then
        ko "gpuprof-report $*: want one message and no output"; cat "$tmp/out" >&2
    else ok; fi
}

# the made-up program, three ways
run 1 "^against: 32 agree, 2 differ, 1 not judged (0 unstable, 1 over 100%), 2 unmatched launches$" \
    --against $A/synth.ncu.csv $A/synth.jsonl
for want in "^DIFF scale#0 dram__bytes_write.sum: ncu 1.6384e+06, gpuprof 20000 (98.78%)$" \
            "^DIFF scale#2 smsp__inst_executed.sum: ncu 1.03e+06, gpuprof 1e+06 (2.91%)$" \
            "^OVER-100 scale#1 smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct: ncu 100.8, gpuprof 99$" \
            "^UNMATCHED gpuprof only: tail_kernel#0$" "^UNMATCHED ncu only: finish#0 (ID 4, line 11)$" \
            "^agreement: 94.12% of 34 judged (launch, metric) pairs$" \
            "^smsp__inst_executed.sum  *count  *4  *3  *0.98  *2.91  scale#2$" \
            "^gpu__time_duration.sum  *duration  *4  *4  *4.68  *19.23  scale#0$"; do
    if grep -q -- "$want" "$tmp/out"; then ok; else ko "synth: no '$want'"; fi
done
# n/a in gpuprof against ncu's 0 for a percentage agrees; peaks are not compared
if grep -q "l1tex__t_sector_hit_rate.pct  *percent  *4  *4 " "$tmp/out" &&
    ! grep -q "\.peak_sustained" "$tmp/out"; then ok; else ko "synth: the n/a-vs-0 rule or the peaks"; fi
# no infinity or NaN in the text (reduce#0 writes 4 bytes where ncu counts 0)
if grep -q "^dram__bytes_write.sum  *bytes  *4  *3  *49.46  *-  *reduce#0$" "$tmp/out" &&
    ! grep -qiw "inf\|nan\|infinity" "$tmp/out"; then ok; else ko "synth: an infinity shown"; fi
# a value on one side only differs, and says so
printf '%s\n' '{"type":"launch","kernel":"k","grid":[1,1,1],"block":[32,1,1],"metrics":{"smsp__inst_executed.sum":null,"dram__bytes_read.sum":5}}' >"$tmp/one.jsonl"
printf '%s\n' '"ID","Process ID","Kernel Name","smsp__inst_executed.sum","dram__bytes_read.sum"' '"0","1","k","12","0"' >"$tmp/one.csv"
run 1 "^DIFF k#0 smsp__inst_executed.sum: ncu 12, gpuprof n/a (a value on one side only)$" --against "$tmp/one.csv" "$tmp/one.jsonl"
grep -q "^dram__bytes_read.sum  *bytes  *1  *1  *-  *-  *k#0$" "$tmp/out" && ok || ko "ncu 0 against 5 bytes"
run 3 "^against: 31 agree, 0 differ, 4 not judged (3 unstable, 1 over 100%), 2 unmatched launches$" \
    --against $A/synth.ncu.csv --against $A/synth.ncu2.csv $A/synth.jsonl
grep -q "^UNSTABLE reduce#0 smsp__inst_executed.sum: ncu 51000, ncu again 54000, gpuprof 52000 (agrees with the first run)$" "$tmp/out" &&
    grep -q "^all pairs: 94.12% of 34 agree with the first ncu run" "$tmp/out" && ok ||
    ko "synth with a second run: the unstable pairs"
run 3 "^against: 32 agree, 0 differ, 3 not judged (2 unstable, 1 over 100%), 2 unmatched launches$" \
    --against $A/synth.ncu.csv --against $A/synth.ncu2.csv --against-one-pass $A/synth.ncu-dram.csv $A/synth.jsonl
if grep -q "one-pass metrics from: tests/data/against/synth.ncu-dram.csv (4 launches)" "$tmp/out" &&
    ! grep -q "^UNSTABLE.*dram__" "$tmp/out" && ! grep -q "^note: .*DRAM" "$tmp/out"; then ok
else ko "synth with the one-pass run"; fi
# DRAM write-backs that differ from a run of several passes: why, and what to do
run 1 "^note: 1 DRAM write-back or L2 byte pair differs. With a metric list of several passes Nsight Compute charges" \
    --against $A/synth.ncu.csv $A/synth.jsonl
grep -q "given with --against-one-pass$" "$tmp/out" && ok || ko "the note names --against-one-pass"
# L2 bytes from the one-pass run (its column), the rest from the full list;
# without the one-pass run the L2 bytes differ and the note says why
printf '%s\n' '{"type":"launch","kernel":"k","grid":[1,1,1],"block":[32,1,1],"metrics":{"lts__t_bytes.sum":100000,"smsp__inst_executed.sum":12,"dram__bytes_read.sum":640}}' >"$tmp/l2.jsonl"
printf '%s\n' '"ID","Process ID","Kernel Name","lts__t_bytes.sum","smsp__inst_executed.sum","dram__bytes_read.sum"' '"0","1","k","180000","12","640"' >"$tmp/l2.csv"
printf '%s\n' '"ID","Process ID","Kernel Name","lts__t_bytes.sum","dram__bytes_write.sum"' '"0","1","k","101000","0"' >"$tmp/l2-1pass.csv"
run 0 "^against: 3 agree, 0 differ" --against "$tmp/l2.csv" --against-one-pass "$tmp/l2-1pass.csv" "$tmp/l2.jsonl"
grep -q "^lts__t_bytes.sum  *bytes  *1  *1 " "$tmp/out" && ok || ko "L2 bytes judged against the one-pass run"
run 1 "^note: 1 DRAM write-back or L2 byte pair differs" --against "$tmp/l2.csv" "$tmp/l2.jsonl"
grep -q "^DIFF k#0 lts__t_bytes.sum: ncu 180000, gpuprof 100000" "$tmp/out" && ok || ko "L2 bytes against the full list"
# a second one-pass run: the L2 bytes it does not repeat are set apart, not
# judged; one that repeats them leaves them judged
printf '%s\n' '"ID","Process ID","Kernel Name","lts__t_bytes.sum","dram__bytes_write.sum"' '"0","1","k","180000","0"' >"$tmp/l2-1pass-b.csv"
run 0 "^against: 2 agree, 0 differ, 1 not judged (1 unstable, 0 over 100%), 0 unmatched launches$" \
    --against "$tmp/l2.csv" --against-one-pass "$tmp/l2-1pass.csv" --against-one-pass "$tmp/l2-1pass-b.csv" "$tmp/l2.jsonl"
grep -q "^UNSTABLE k#0 lts__t_bytes.sum: ncu (one pass) 101000, ncu again 180000, gpuprof 100000 (agrees with the first run)$" "$tmp/out" &&
    grep -q "one-pass metrics again: " "$tmp/out" && ok || ko "a second one-pass run sets apart what it does not repeat"
run 0 "^against: 3 agree, 0 differ, 0 not judged" \
    --against "$tmp/l2.csv" --against-one-pass "$tmp/l2-1pass.csv" --against-one-pass "$tmp/l2-1pass.csv" "$tmp/l2.jsonl"
# the older name of the option still works
run 0 "one-pass metrics from: " --against "$tmp/l2.csv" --against-dram "$tmp/l2-1pass.csv" "$tmp/l2.jsonl"

# JSON and CSV: the same figures
run 3 "" -f json --against $A/synth.ncu.csv --against $A/synth.ncu2.csv --against-one-pass $A/synth.ncu-dram.csv $A/synth.jsonl
if command -v python3 >/dev/null 2>&1; then
    if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = d["totals"]
assert (t["agree"], t["differ"], t["unstable"], t["over_100"], t["unmatched"]) == (32, 0, 2, 1, 2), t
assert d["status"] == 3 and len(d["pairs"]) == 35
assert sum(p["ncu_from"] == "one-pass" for p in d["pairs"]) == 7
assert {m["name"]: m["class"] for m in d["metrics"]}["gpu__time_duration.sum"] == "duration"
' "$tmp/stdout"; then ok; else ko "--format json: figures"; fi
else
    skipped "--format json parsed: python3 is not installed"
fi
# the docs' table of classes follows against.def (through the command's own JSON)
if command -v python3 >/dev/null 2>&1; then
    if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = [l for l in open("docs/report.md") if l.startswith("| ")]
for c in d["classes"]:
    row = [r for r in rows if r.startswith("| %s |" % c["name"])]
    assert len(row) == 1, "no row for class %s" % c["name"]
    if c["compared"]:
        want = "%g%%" % (100 * c["rel"]) + (" or %g" % c["abs"] if c["abs"] else "")
        assert want in row[0], "class %s: %r not in %r" % (c["name"], want, row[0])
    else:
        assert "not compared" in row[0], row[0]
' "$tmp/stdout"; then ok; else ko "docs/report.md: the table of tolerance classes differs from metrics/ncu/against.def"; fi
else
    skipped "the docs' table of tolerance classes: python3 is not installed"
fi
run 1 "" -f csv --against $A/synth.ncu.csv $A/synth.jsonl
if [ "$(head -1 "$tmp/stdout")" = "kernel,ordinal,ncu_id,metric,class,outcome,gpuprof,ncu,ncu_again,rel,ncu_from" ] &&
    [ "$(grep -c ',differ,' "$tmp/stdout")" -eq 2 ] && [ "$(grep -c ',agree,' "$tmp/stdout")" -eq 32 ]; then ok
else ko "--format csv"; head -3 "$tmp/stdout" >&2; fi
run 2 "--against writes text, json or csv, not html" -f html --against $A/synth.ncu.csv $A/synth.jsonl
run 2 "--against-one-pass needs --against" --against-one-pass $A/synth.ncu-dram.csv $A/synth.jsonl
run 2 "--against-one-pass is given once or twice" --against $A/synth.ncu.csv --against-one-pass $A/synth.ncu-dram.csv \
    --against-one-pass $A/synth.ncu-dram.csv --against-one-pass $A/synth.ncu-dram.csv $A/synth.jsonl
run 2 "give one" --against $A/synth.ncu.csv --baseline $A/synth.jsonl $A/synth.jsonl
# written to -o even when pairs differ
run 1 "" -o "$tmp/cmp.txt" --against $A/synth.ncu.csv $A/synth.jsonl
grep -q "^against: 32 agree, 2 differ" "$tmp/cmp.txt" && [ ! -s "$tmp/stdout" ] && ok || ko "-o with differences"

# gpuprof's own layout of Nsight Compute's raw page, read back: all agree
P=tests/data/report/h100-planted.jsonl
"$report" -f ncu-raw-csv "$P" >"$tmp/own.csv" 2>/dev/null
run 0 "^against: 417 agree, 0 differ, 0 not judged (0 unstable, 0 over 100%), 0 unmatched launches$" \
    --against "$tmp/own.csv" "$P"
# the same through a pipe and standard input
run 0 "417 agree" --against - "$P" <"$tmp/own.csv"

# bad input: malformed tables, one message naming the file and line
refused "malformed.ncu.csv:7: malformed Nsight Compute CSV: 20 fields where the header has 21" \
    --against $H/malformed.ncu.csv $A/synth.jsonl
refused "newline-in-name.ncu.csv:7: malformed Nsight Compute CSV: the quote opened at column 24 is not closed on this line" \
    --against $H/newline-in-name.ncu.csv $A/synth.jsonl
refused "details.ncu.csv:1: this is Nsight Compute's --page details layout" \
    --against $H/details.ncu.csv $A/synth.jsonl
refused "no-table.ncu.csv: no Nsight Compute raw table in it" --against $H/no-table.ncu.csv $A/synth.jsonl
refused "scaled-units.ncu.csv: dram__bytes_read.sum is in Mbyte, not in its base unit" \
    --against $H/scaled-units.ncu.csv $A/synth.jsonl
refused "malformed.ncu.csv:7" --against $A/synth.ncu.csv --against $H/malformed.ncu.csv $A/synth.jsonl
refused "malformed.ncu.csv:7" --against $A/synth.ncu.csv --against-dram $H/malformed.ncu.csv $A/synth.jsonl
: >"$tmp/empty.csv"
refused "empty.csv: no Nsight Compute raw table" --against "$tmp/empty.csv" $A/synth.jsonl
# inputs that are not files, or never end
refused "cannot read Nsight Compute CSV /dev/zero: it is a character device" --against /dev/zero $A/synth.jsonl
refused "cannot read Nsight Compute CSV $A: it is a directory" --against $A $A/synth.jsonl
mkfifo "$tmp/fifo"
refused "fifo: no Nsight Compute raw table" --against "$tmp/fifo" $A/synth.jsonl
run 1 "cannot open" --against $A/synth.ncu.csv "$tmp/missing.jsonl"
# another program: nothing in common is never a success
run 1 "^against: nothing compared: no launch has the same kernel name and ordinal" --against $A/synth.ncu.csv "$P"
grep -q "^against: 0 agree, 0 differ" "$tmp/out" && grep -q "^UNMATCHED gpuprof only: saxpy_4x4#0" "$tmp/out" &&
    grep -q "^UNMATCHED ncu only: scale#0" "$tmp/out" && ok || ko "another program: both sides listed"
# another device: warned, and not a clean agreement (3) where the values agree
sed 's/"9\.0"/"8.0"/' "$tmp/own.csv" >"$tmp/own-other-device.csv"
run 3 "^warning: the devices differ on 12 matched launches: gpuprof ran on NVIDIA H100 80GB HBM3 (compute capability 9.0), ncu on a device (compute capability 8.0)$" \
    --against "$tmp/own-other-device.csv" "$P"
run 1 "^warning: the devices differ on 4 matched launches" --against $H/other-device.ncu.csv $A/synth.jsonl
# fewer launches in ncu's file: the rest listed, never counted as agreeing
head -n 8 "$tmp/own.csv" >"$tmp/own-6.csv"
run 3 "^against: 211 agree, 0 differ, 0 not judged (0 unstable, 0 over 100%), 6 unmatched launches$" \
    --against "$tmp/own-6.csv" "$P"
# another metric list: gpuprof's metrics ncu lacks are listed (each tool
# has metrics the other lacks: not a partial comparison)
sed '1s/"smsp__inst_executed.sum"/"zz__renamed.sum"/' "$tmp/own.csv" >"$tmp/own-cols.csv"
run 0 "^METRIC gpuprof only (ncu has no column): smsp__inst_executed.sum$" --against "$tmp/own-cols.csv" "$P"
if grep -q "^METRIC ncu only: 7 columns no gpuprof launch has (launch__block_size, launch__grid_size, launch__registers_per_thread, launch__shared_mem_per_block_static, ...)$" "$tmp/out"; then ok
else ko "the columns ncu has alone"; fi
run 0 "" -f json --against "$tmp/own-cols.csv" "$P"
grep -q '"ncu_only_metrics":\[[^]]*"zz__renamed.sum"' "$tmp/stdout" && ok || ko "--format json: every column ncu has alone"
# no metric in common
sed '1s/__/_x_/g' "$tmp/own.csv" >"$tmp/own-none.csv"
run 1 "nothing compared: no metric of gpuprof's records is a column of ncu's table" \
    --against "$tmp/own-none.csv" "$P"

# recorded on an H200 (tests/data/against/recorded, trimmed by
# trim-recorded.py from run.sh's output): the figures compare.py gave on
# the untrimmed files, and ncu's own device name matching gpuprof's
R=$A/recorded
run 1 "^against: 154 agree, 2 differ, 0 not judged (0 unstable, 0 over 100%), 0 unmatched launches$" \
    --against $R/known_work.ncu.csv --against $R/known_work.ncu2.csv --against-one-pass $R/known_work.ncu-dram.csv $R/known_work.jsonl
grep -q "^DIFF fma_sp#0 lts__t_bytes.sum: ncu 1.0687e+06, gpuprof 998752 (6.55%)$" "$tmp/out" &&
    ! grep -q "devices differ" "$tmp/out" && ok || ko "recorded known_work: its difference"
run 1 "^against: 349 agree, 1 differ, 1 not judged (1 unstable, 0 over 100%), 0 unmatched launches$" \
    --against $R/cublas.ncu.csv --against $R/cublas.ncu2.csv --against-one-pass $R/cublas.ncu-dram.csv $R/cublas.jsonl
# Thrust on an H200 (2026-11-27): ncu's L2 bytes follow its own passes there,
# so they agree with its one-pass run and not all with its full-list run
run 1 "^against: 814 agree, 19 differ, 7 not judged (7 unstable, 0 over 100%), 0 unmatched launches$" \
    --against $R/thrust.ncu.csv --against $R/thrust.ncu2.csv --against-one-pass $R/thrust.ncu-dram.csv $R/thrust.jsonl
grep -q "^lts__t_bytes.sum  *bytes  *21  *21 " "$tmp/out" && ok || ko "recorded thrust: L2 bytes against the one-pass run"
run 1 "^against: 803 agree, 28 differ, 9 not judged (9 unstable, 0 over 100%), 0 unmatched launches$" \
    --against $R/thrust.ncu.csv --against $R/thrust.ncu2.csv $R/thrust.jsonl
grep -q "^lts__t_bytes.sum  *bytes  *21  *17 " "$tmp/out" && grep -q "^note: 15 DRAM write-back or L2 byte pairs differ" "$tmp/out" &&
    ok || ko "recorded thrust: L2 bytes against the full-list run"
# the same launches recorded on an H200, said to be an H100 by ncu
sed 's/"NVIDIA H200"/"NVIDIA H100 80GB HBM3"/' $R/known_work.ncu.csv >"$tmp/kw-h100.csv"
run 1 "^warning: the devices differ on 4 matched launches: gpuprof ran on NVIDIA H200 (compute capability 9.0), ncu on NVIDIA H100 80GB HBM3 (compute capability 9.0)$" \
    --against "$tmp/kw-h100.csv" $R/known_work.jsonl

# scale: 8 times the launches (40 metrics each, against two ncu runs) may
# take at most 24 times as long, plus half a second
gen() {
    awk -v n="$1" 'BEGIN { print "{\"type\":\"device\",\"device\":0,\"name\":\"NVIDIA H100 80GB HBM3\",\"cc\":[9,0]}"
        for (i = 0; i < n; i++) {
            printf "{\"type\":\"launch\",\"kernel\":\"void k%d<int>(float*)\",\"grid\":[1,1,1],\"block\":[32,1,1],\"metrics\":{", i % 50
            for (m = 0; m < 40; m++) printf "%s\"u__m%02d.sum\":%d", m ? "," : "", m, i * 40 + m
            print "}}" } }' >"$tmp/big$1.jsonl"
    "$report" -f ncu-raw-csv "$tmp/big$1.jsonl" >"$tmp/big$1.csv"
}
secs() {
    t0=$(date +%s.%N)
    "$report" --against "$tmp/big$1.csv" --against "$tmp/big$1.csv" "$tmp/big$1.jsonl" >"$tmp/big.out" 2>&1
    t1=$(date +%s.%N)
    grep -q "^against: $(($1 * 40)) agree, 0 differ" "$tmp/big.out" || ko "scale: $1 launches not all agreeing"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
gen 1000; gen 8000
small=$(secs 1000); large=$(secs 8000)
if awk -v s="$small" -v l="$large" 'BEGIN { exit !(l <= 24 * s + 0.5) }'; then ok
else ko "scale: 1000 launches in $small s, 8000 in $large s (more than 24 times)"; fi

# the Python cross-check's figures on the same files (an independent
# implementation of the same rules): agree/differ, unstable, over 100,
# gpuprof's unmatched launches
# py_same NAME DIR ARGS...: DIR holds p.jsonl, p.ncu.csv [p.ncu2.csv] [p.ncu-dram.csv]
py_same() {
    name=$1; d=$2; shift 2
    python3 tests/gpu/xcheck/compare.py "$d" >"$tmp/py.txt" 2>&1
    py=$(sed -n 's/^xcheck: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$tmp/py.txt")
    py="$py $(grep -c '^NCU-UNSTABLE' "$tmp/py.txt") $(grep -c '^NCU-OVER-100' "$tmp/py.txt")"
    py="$py $(sed -n 's/^agreement: \([0-9.]*\)%.*/\1/p' "$tmp/py.txt")"
    "$report" "$@" >"$tmp/c.txt" 2>&1
    c=$(sed -n 's/^against: \([0-9]*\) agree, \([0-9]*\) differ, [0-9]* not judged (\([0-9]*\) unstable, \([0-9]*\) over 100%).*/\1 \2 \3 \4/p' "$tmp/c.txt")
    c="$(echo "$c" | cut -d' ' -f1-2) $(grep -c '^UNMATCHED gpuprof only' "$tmp/c.txt") $(echo "$c" | cut -d' ' -f3-4)"
    c="$c $(sed -n 's/^agreement: \([0-9.]*\)%.*/\1/p' "$tmp/c.txt")"
    if [ "$py" = "$c" ] && [ -n "$(echo "$c" | cut -d' ' -f6)" ]; then ok
    else ko "$name: compare.py says '$py' (passed failed skipped unstable over100 agreement%), gpuprof-report --against '$c'"; fi
}
if command -v python3 >/dev/null 2>&1; then
    mkdir "$tmp/py"
    cp $A/synth.jsonl "$tmp/py/p.jsonl"
    cp $A/synth.ncu.csv "$tmp/py/p.ncu.csv"
    py_same "synth" "$tmp/py" --against $A/synth.ncu.csv $A/synth.jsonl
    cp $A/synth.ncu2.csv "$tmp/py/p.ncu2.csv"
    py_same "synth, second run" "$tmp/py" --against $A/synth.ncu.csv --against $A/synth.ncu2.csv $A/synth.jsonl
    cp $A/synth.ncu-dram.csv "$tmp/py/p.ncu-dram.csv"
    py_same "synth, second run, DRAM alone" "$tmp/py" --against $A/synth.ncu.csv \
        --against $A/synth.ncu2.csv --against-one-pass $A/synth.ncu-dram.csv $A/synth.jsonl
    # recorded on a GPU: one program each, gpuprof's records and ncu's runs
    for j in $A/recorded/*.jsonl; do
        [ -f "$j" ] || continue
        b=${j%.jsonl}; n=$(basename "$b")
        rm -rf "$tmp/rec"; mkdir "$tmp/rec"
        cp "$j" "$tmp/rec/p.jsonl"; cp "$b.ncu.csv" "$tmp/rec/p.ncu.csv"
        set -- --against "$b.ncu.csv"
        if [ -f "$b.ncu2.csv" ]; then cp "$b.ncu2.csv" "$tmp/rec/p.ncu2.csv"; set -- "$@" --against "$b.ncu2.csv"; fi
        if [ -f "$b.ncu-dram.csv" ]; then cp "$b.ncu-dram.csv" "$tmp/rec/p.ncu-dram.csv"; set -- "$@" --against-one-pass "$b.ncu-dram.csv"; fi
        py_same "recorded $n" "$tmp/rec" "$@" "$j"
    done
else
    skipped "the Python cross-check's figures: python3 is not installed"
fi
echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
