#!/bin/sh
# test_report_hostile.sh - gpuprof-report on input written to harm it
# (tests/data/report/hostile/, each file a case of docs/report.md's "Bad
# input"): inputs that never end or never start (/dev/zero, a FIFO nobody
# writes, a line or a file over its limit) are refused or bounded at once;
# names, reasons and device names reach a terminal only escaped, in every
# text writer and message; no NaN or infinity reaches any format; JSON stays
# valid JSON; no CSV layout lets a spreadsheet run a formula; a repeated JSON
# key and an unknown peaks schema are refused with a message naming them.
suite=report-hostile
pass=0; fail=0; skip=0
report=${BUILD:-build}/gpuprof-report
fix=tests/data/report
hx=$fix/hostile
P=$fix/h100-planted.jsonl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
if [ ! -x "$report" ]; then
    echo "FAIL: $report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
# run WANT_RC PATTERN ARGS...: exit status and a pattern in stdout+stderr
# ($tmp/out), within 20 s (a read that never ends fails here, not by hanging)
run() {
    want=$1; pat=$2; shift 2
    timeout 20 "$report" "$@" >"$tmp/out" 2>&1; rc=$?
    if [ "$rc" -ne "$want" ]; then ko "gpuprof-report $*: exit $rc, want $want"; head -3 "$tmp/out" >&2; return 1; fi
    if [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/out"; then
        ko "gpuprof-report $*: no '$pat' in output"; head -3 "$tmp/out" >&2; return 1
    fi
    ok
}
# raw FILE: 0 when FILE holds a byte a terminal acts on: C0 controls but tab
# and newline, DEL, C1 controls (U+0080..U+009F), U+2028/U+2029, bidi
# overrides (U+202A..U+202E, U+2066..U+2069), or bytes that are not UTF-8
raw() {
    LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1" && return 0
    LC_ALL=C grep -qP '\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]' "$1" 2>/dev/null && return 0
    command -v iconv >/dev/null || return 1 # without iconv, UTF-8 validity is not checked here
    ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1
}

# D1: inputs without end or limit
run 1 "cannot read peaks file /dev/zero: it is a character device" --peaks /dev/zero "$P"
run 1 "cannot open /dev/zero: \|cannot read /dev/zero: it is a character device" /dev/zero
mkfifo "$tmp/fifo"
run 1 "nothing usable read" "$tmp/fifo"                 # nobody writes: empty, at once
run 1 "peaks file" --peaks "$tmp/fifo" "$P"
run 0 "#1 one_block" - <"$P"                            # a pipe is still read
head -c 5000000 /dev/zero | tr '\0' ' ' >"$tmp/big-peaks.json"
run 1 "cannot read peaks file .*larger than 4194304 bytes" --peaks "$tmp/big-peaks.json" "$P"
# a record line over 32 MiB: skipped with its line number, the records after it read
{ head -c 34000000 /dev/zero | tr '\0' x; echo; cat "$P"; } >"$tmp/longline.jsonl"
run 0 "longline.jsonl:1: line longer than 33554432 bytes; skipped" "$tmp/longline.jsonl" &&
    run 0 "12 launches of 10 kernels" "$tmp/longline.jsonl"

# D4, D5, D6 and every other text writer: names, reasons and device names escaped
run 0 "" --baseline "$hx/names_all.jsonl" "$hx/names_all.jsonl"
if raw "$tmp/out" || ! grep -q '#[0-9]* \\x1b\[2J\\x1b\[31mEVIL (device 0)' "$tmp/out" ||
   ! grep -q '\\u{202e}RTL' "$tmp/out"; then ko "--baseline text prints names raw"; else ok; fi
for f in "" "--details" "--kernel-name-base demangled" "--kernel-name-base mangled"; do
    # shellcheck disable=SC2086
    run 0 "" $f "$hx/names_all.jsonl" && { if raw "$tmp/out"; then ko "text report $f prints a name raw"; else ok; fi; }
done
run 0 "" --peaks "$hx/peaks_dev_esc.json" "$P"
if raw "$tmp/out" || ! grep -q 'measured ceilings: .*, measured on \\x1b\]0;pwned\\x07\\x1b\[2J' "$tmp/out" ||
   ! grep -q '^gpuprof-report: warning: .*are from \\x1b\]0;pwned' "$tmp/out"; then
    ko "a peaks file's device name reaches stderr or the header raw"; else ok; fi
run 0 "" --details "$hx/missing_hostile.jsonl"
if raw "$tmp/out" || ! grep -q "measured ceilings: *n/a (gpu__time_duration.sum: \\\\x1b\[31m" "$tmp/out"; then
    ko "the roofline's n/a reason is printed raw"; else ok; fi
run 0 "" "$hx/missing_hostile.jsonl"
if raw "$tmp/out" || ! grep -q "roofline (FP32): .*n/a (gpu__time_duration.sum: \\\\x1b\[31m" "$tmp/out"; then
    ko "the short report prints the roofline's n/a reason raw"; else ok; fi
run 0 "" "$hx/utf8_bad.jsonl"
if raw "$tmp/out"; then ko "bytes that are not UTF-8 reach the text report"; else ok; fi
# messages: a malformed record's kernel name, a peaks file's name
printf '{"type":"launch","kernel":"\\u001b[2Jk","block":[1,1,1],"static_smem":-1}\n' >"$tmp/bad.jsonl"
run 1 "" "$tmp/bad.jsonl"
if raw "$tmp/out" || ! grep -q 'launch of \\x1b\[2Jk: "static_smem" is negative' "$tmp/out"; then
    ko "a malformed line's message prints the kernel name raw"; else ok; fi
cp "$hx/peaks_dev_esc.json" "$tmp/$(printf 'p\033[2J.json')"
run 1 "" --peaks "$tmp/$(printf 'p\033[2J')" "$P"
if raw "$tmp/out"; then ko "a message prints a file name raw"; else ok; fi

# D7: no NaN or infinity in any format; n/a with its reason instead
for f in met_time0 met_timetiny met_all_1e+308; do
    for fmt in text "text --details" csv html "html --details" json ncu-csv ncu-raw-csv; do
        # shellcheck disable=SC2086
        run 0 "" -f $fmt "$hx/$f.jsonl" || continue
        if grep -qiw 'nan\|-nan\|inf\|-inf\|infinity' "$tmp/out" || grep -q 'nan%\|inf%\|="-\?\(nan\|inf\)' "$tmp/out"; then
            ko "$f, format $fmt: NaN or infinity in the output"; grep -oi '.\{30\}\(nan\|inf\).\{10\}' "$tmp/out" | head -2 >&2
        else ok; fi
    done
done
run 0 "of attainable n/a (division by zero (duration is 0))" "$hx/met_time0.jsonl"
run 0 "fp32_flops_per_s *overflow: division by" --details "$hx/met_timetiny.jsonl"
run 0 "tensor_util *impossible value 1e+308 (at most 100" --details "$hx/met_all_1e+308.jsonl"
# the short report says those n/a with their reasons too, once per kernel
run 0 "n/a (overflow: division by .*fp32_flops_per_s\|n/a (.*overflow: division by" "$hx/met_timetiny.jsonl"
run 0 "n/a (impossible value 1e+308 (at most 100.*tensor_util" "$hx/met_all_1e+308.jsonl"
run 0 "" -f html "$hx/met_timetiny.jsonl"
if grep -q '<rect[^>]*width="-' "$tmp/out" || ! grep -q '<rect class="bar"' "$tmp/out"; then
    ko "an SVG bar of a tiny duration has a negative or no width"; else ok; fi
run 0 "" -f csv "$hx/met_all_1e+308.jsonl"
if awk -F, 'NR == 2 && $0 ~ /,inf|,-inf/ { bad = 1 } END { exit bad }' "$tmp/out"; then ok
else ko "csv: an infinite cell"; fi

# D8: the JSON document is JSON whatever bytes the names hold
for f in utf8_bad names_all; do
    run 0 "" -f json "$hx/$f.jsonl" || continue
    if ! command -v python3 >/dev/null; then skip=$((skip + 1)); echo "    SKIP JSON check: python3 not installed" >&2
    elif python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/out" 2>"$tmp/pyerr"; then ok
    else ko "-f json $f is not valid JSON: $(tail -1 "$tmp/pyerr")"; fi
done
if grep -q '\\ufffd' "$tmp/out" 2>/dev/null || "$report" -f json "$hx/utf8_bad.jsonl" | grep -q '\\ufffd'; then ok
else ko "invalid UTF-8 not written as \\ufffd"; fi

# D9: Nsight Compute's layouts guard formulas as gpuprof's CSV does
for fmt in ncu-csv ncu-raw-csv csv; do
    run 0 "" -f $fmt "$hx/names_all.jsonl" || continue
    if grep -q '"[=+@-]\|,[=+@-]' "$tmp/out" || ! grep -q "\"'=HYPERLINK" "$tmp/out"; then
        ko "-f $fmt: a cell starting with = + - @ is not guarded"; else ok; fi
done

# a repeated key: the record is refused, the message names the key and the line
printf '%s\n' '{"type":"launch","kernel":"k","block":[32,1,1]}' \
    '{"type":"launch","kernel":"a","block":[32,1,1],"metrics":{"gpu__time_duration.sum":1,"gpu__time_duration.sum":2}}' >"$tmp/dup.jsonl"
run 0 'dup.jsonl:2: malformed JSON (offset [0-9]*: duplicate key "gpu__time_duration.sum")' "$tmp/dup.jsonl" &&
    run 0 "1 launches of 1 kernels" "$tmp/dup.jsonl"
printf '{"fp32_flops_per_s":6e13,"fp32_flops_per_s":1}\n' >"$tmp/duppeak.json"
run 1 'duplicate key "fp32_flops_per_s"' --peaks "$tmp/duppeak.json" "$P"
# a peaks schema this version does not know is refused, naming it
sed 's|"gpupeak/1"|"gpupeak/2"|' "$fix/peaks-gpupeak1.json" >"$tmp/peaks2.json"
run 1 "schema is \"gpupeak/2\", not gpupeak/1" --peaks "$tmp/peaks2.json" "$P"
printf '{"schema":7,"fp32_flops_per_s":6e13}\n' >"$tmp/peaks7.json"
run 1 "schema is not a string" --peaks "$tmp/peaks7.json" "$P"
run 0 "measured ceilings: $fix/peaks-gpupeak1.json" --peaks "$fix/peaks-gpupeak1.json" "$P"

# counts: estimates whose launches would overflow a kernel's count are left
# out, never summed into a negative; one estimate three times counts once
run 0 "variant_estimate of 1000000000000000000 launches: with the estimates before it, more than 4611686018427387904 launches, which no run makes; left out" \
    "$hx/estimate_launch_overflow.jsonl"
for fmt in text json csv; do
    timeout 20 "$report" -f $fmt "$hx/estimate_launch_overflow.jsonl" >"$tmp/o3" 2>/dev/null
    if grep -qE -- '-[0-9]{6,}' "$tmp/o3"; then ko "-f $fmt: a negative launch count: $(grep -oE -- '.{20}-[0-9]{6,}' "$tmp/o3" | head -1)"; else ok; fi
done
run 0 "1 launches (and 199 estimated) of 1 kernels" "$hx/estimate_three_times.jsonl" &&
    run 0 "estimate_three_times.jsonl: 2 records repeat what was read before" "$hx/estimate_three_times.jsonl"

# Every writer over the whole hostile corpus, and over every fixture with each
# of its string values made hostile (an ESC sequence and U+202E appended):
# each run ends within 20 s with a bounded output, no writer and no message
# puts a raw control character, override or stray byte on the terminal or in
# a file, no NaN or infinity reaches any format, JSON stays JSON.  The promise
# is checked on every case, so that the next writer or field that forgets an
# escape fails here.
mkdir "$tmp/gen"
for f in "$fix"/*.jsonl tests/data/where/*.jsonl; do
    sed -e 's/":"\([^"\\]*\)"/":"\1\\u001b[31m\\u202e"/g' -e 's/": "\([^"\\]*\)"/": "\1\\u001b[31m\\u202e"/g' \
        -e 's/"type": \{0,1\}"\([a-z_]*\)\\u001b\[31m\\u202e"/"type":"\1"/g' "$f" >"$tmp/gen/$(basename "$f")"
done
nvd=tests/report/hostile-nvdisasm
# nan or inf where a number stands (not "inf" quoted in a program's source line)
num_nan='(^|[] ,:;(=>\t[])[-+]?(nan|inf|infinity)(%|[] ,;)<\t]|$)'
bad=""; n=0
for f in "$hx"/*.jsonl tests/data/where/*.jsonl "$tmp"/gen/*.jsonl; do
    for fmt in text "text --details" csv html "html --details" json ncu-csv ncu-raw-csv source-csv \
               ncu-source-csv; do
        for dis in "" esc formula; do
            [ -n "$dis" ] && [ "$(basename "$f")" != sass_text.jsonl ] && continue
            n=$((n + 1))
            # shellcheck disable=SC2086
            HOSTILE_NVDISASM=$dis timeout 20 "$report" -f $fmt ${dis:+--nvdisasm $nvd} "$f" \
                >"$tmp/w.out" 2>"$tmp/w.err"; rc=$?
            what="$(basename "$f") -f $fmt${dis:+ --nvdisasm ($dis)}"
            if [ "$rc" -gt 1 ]; then bad="$bad
    $what: exit $rc"
            elif [ "$(wc -c <"$tmp/w.out")" -gt 20000000 ]; then bad="$bad
    $what: $(wc -c <"$tmp/w.out") bytes of output"
            elif raw "$tmp/w.out" || raw "$tmp/w.err"; then bad="$bad
    $what: a raw control character, override or stray byte"
            elif LC_ALL=C grep -qiE "$num_nan" "$tmp/w.out" "$tmp/w.err"; then bad="$bad
    $what: NaN or infinity: $(LC_ALL=C grep -oiE ".{0,20}$num_nan.{0,10}" "$tmp/w.out" "$tmp/w.err" | head -1)"
            elif [ "$fmt" = json ] && command -v python3 >/dev/null &&
                 ! python3 -c 'import json, sys
def no(c): raise ValueError(c)
json.load(open(sys.argv[1], encoding="utf-8"), parse_constant=no)' "$tmp/w.out" 2>/dev/null; then bad="$bad
    $what: not valid JSON (or a NaN or Infinity token)"
            elif [ "$fmt" = ncu-source-csv ] && [ "$dis" = formula ] && grep -q '"[=+@]\|"-[^"]' "$tmp/w.out"; then bad="$bad
    $what: a SASS cell a spreadsheet would run"
            fi
        done
    done
done
if [ -z "$bad" ] && [ "$n" -gt 300 ]; then ok; else ko "every writer over the hostile corpus ($n runs):$bad"; fi

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
