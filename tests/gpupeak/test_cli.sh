#!/bin/sh
# test_cli.sh - gpupeak as a command: options (anywhere, --x=v), --help,
# --version, usage errors said once with exit 2, and a device that cannot
# be used (CUDA_VISIBLE_DEVICES empty hides every GPU, so this runs the same
# with or without one): one sentence, exit 1, no output folder left behind.
suite=gpupeak-cli
pass=0; fail=0
bin=${BUILD:-build}/gpupeak/gpupeak
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$bin" ]; then
    echo "FAIL: $bin not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: gpupeak $1" >&2; head -5 "$tmp/err" >&2; }
# case: want_rc  want_stdout_pattern  want_stderr_pattern ("" for none)  args...
# A usage error is one "gpupeak:" line, then the usage text.
check() {
    want=$1; opat=$2; epat=$3; shift 3
    CUDA_VISIBLE_DEVICES= "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -ne "$want" ]; then no "$*: exit $rc, want $want"; return; fi
    if [ -n "$opat" ] && ! grep -q -- "$opat" "$tmp/out"; then
        no "$*: no '$opat' on stdout"; return; fi
    if [ -z "$opat" ] && [ -s "$tmp/out" ]; then no "$*: wrote to stdout"; return; fi
    if [ -n "$epat" ] && ! grep -q -- "$epat" "$tmp/err"; then
        no "$*: no '$epat' on stderr"; return; fi
    if [ -z "$epat" ] && [ -s "$tmp/err" ]; then no "$*: wrote to stderr"; return; fi
    if [ "$(grep -c '^gpupeak:' "$tmp/err")" -gt 1 ]; then
        no "$*: more than one message"; return; fi
    ok
}
check 0 "^usage: gpupeak" "" --help
check 0 "^usage: gpupeak" "" -h
check 0 "^gpupeak .*gpupeak/1" "" --version
check 0 "^gpupeak " "" --vers
check 2 "" "unknown option '--bogus'" --bogus
check 2 "" "unknown option '--bogus=1'" --quick --bogus=1
check 2 "" "unknown option '-x'" -x
check 2 "" "--out needs a value" --out
check 2 "" "--quick takes no value" --quick=1
check 2 "" "--profile-measured takes no value" --profile-measured=1
check 1 "" "no usable CUDA device" --profile-measured --only fp32_fma --out "$tmp/pm"
check 2 "" "unexpected argument 'extra'" --quick extra
check 2 "" "--out needs a folder" --out=
check 2 "" "--only: no line 'nope'; the lines are: fp32_fma" --only nope
check 2 "" "--only: no line 'l1'" --only fp32_fma,l1
check 2 "" "^usage: gpupeak" --only=
check 2 "" "^usage: gpupeak" --bogus
# no usable device: one sentence, and nothing left behind, whatever the
# options' order or form
for args in "--out $tmp/new" "--quick --out=$tmp/new" "--out=$tmp/new --quick"; do
    # shellcheck disable=SC2086
    check 1 "" "no usable CUDA device" $args
    if [ -e "$tmp/new" ]; then no "$args: left $tmp/new behind"; rm -rf "$tmp/new"; else ok; fi
done
# a folder that was there stays, and stays as it was
mkdir "$tmp/there"
check 1 "" "no usable CUDA device" --out "$tmp/there"
if [ -d "$tmp/there" ] && [ -z "$(ls -A "$tmp/there")" ]; then ok
else no "--out existing: changed it"; fi
# a folder that cannot be made is said before anything is measured
check 1 "" "cannot create $tmp/no/such" --out "$tmp/no/such"
# values echoed back are escaped: no raw ESC or U+202E on the terminal
for a in "--only=$(printf '\342\200\256')x" "--bogus$(printf '\033[2J')" "--quick=$(printf '\033[31m')" \
         "extra$(printf '\033[2J')"; do
    CUDA_VISIBLE_DEVICES= "$bin" "$a" >"$tmp/out" 2>"$tmp/err"
    if [ "$(LC_ALL=C grep -c "$(printf '\033')\|$(printf '\342\200\256')" "$tmp/err")" -eq 0 ] &&
       grep -q '\\x1b\|\\u{202e}' "$tmp/err"; then ok
    else no "$(printf '%s' "$a" | od -c | head -1): raw control characters on stderr"; fi
done

echo "$suite: $pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
