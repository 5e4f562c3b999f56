#!/bin/sh
# test_where_cli.sh - "why and where" through gpuprof-report: every fixture of
# tests/data/where (*.jsonl, a recorded file dropped there included) in every
# format, checked against its FIXTURE.expect when there is one; the fixtures
# are what make-where.py writes; the Nsight Compute source-page layout
# against ncu's own recorded page; the disassembly path with a stand-in for
# nvdisasm (arguments, private temporary file, time and output bounds,
# failures) and with the real one when installed (SKIP otherwise); source
# text (missing, a directory, a FIFO, too big, binary, --source-folders,
# --no-source-text).
suite=where-cli
pass=0; fail=0; skip=0
report=${BUILD:-build}/gpuprof-report
fix=tests/data/where
fake=tests/report/fake-nvdisasm
chk=tests/report/where_check.py
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
sk() { skip=$((skip + 1)); echo "SKIP $*" >&2; }
# t CONDITION MESSAGE: a check; on failure the message and what a checker
# left in $tmp/chk
t() {
    if eval "$1"; then ok; else
        ko "$2"
        [ -s "$tmp/chk" ] && head -5 "$tmp/chk" >&2
    fi
    rm -f "$tmp/chk"
}
if [ ! -x "$report" ]; then
    echo "FAIL: $report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
py=$(command -v python3 || true)
# the stand-in disassembler is Python: without it, reports run without SASS text
if [ -n "$py" ]; then dis="--nvdisasm $fake"; else dis=""; sk "fake nvdisasm: python3 is not installed"; fi

# 1. every fixture in every format; its .expect lines
for f in "$fix"/*.jsonl; do
    name=$(basename "$f" .jsonl)
    for fmt in text details csv html json source-csv ncu-source-csv; do
        # "details": the full text report (--details)
        opt="-f $fmt"
        [ "$fmt" = details ] && opt="-f text --details"
        # shellcheck disable=SC2086
        "$report" $dis $opt "$f" >"$tmp/$name.$fmt" 2>"$tmp/$name.$fmt.err"
        rc=$?
        t '[ "$rc" -eq 0 ]' "$name --format $fmt: exit $rc ($(head -2 "$tmp/$name.$fmt.err"))"
    done
    if [ -n "$py" ]; then
        # valid JSON in UTF-8, names with bytes that are not UTF-8 included
        t '"$py" $chk json "$tmp/$name.json" >"$tmp/chk" 2>&1' "$name: --format json is not JSON"
        for fmt in csv source-csv ncu-source-csv; do
            t '"$py" $chk width "$tmp/$name.$fmt" >"$tmp/chk"' \
              "$name --format $fmt: rows of another width than their header"
        done
        t '"$py" $chk ncu-header "$tmp/$name.ncu-source-csv" "$fix/ncu-source-sass-stall_chase.csv" >"$tmp/chk"' \
          "$name: ncu-source-csv's header is not ncu's"
    fi
    [ -f "$fix/$name.expect" ] || continue
    while IFS='	' read -r fmt pat; do
        case "$fmt" in ''|'#'*) continue ;; esac
        neg=0
        case "$fmt" in '!'*) neg=1; fmt=${fmt#!} ;; esac
        if [ ! -f "$tmp/$name.$fmt" ]; then ko "$name.expect: no format '$fmt'"; continue; fi
        if grep -qF -- "$pat" "$tmp/$name.$fmt"; then found=1; else found=0; fi
        if [ "$found" -ne "$neg" ]; then ok; else
            ko "$name --format $fmt: $([ $neg -eq 1 ] && echo 'has' || echo 'lacks') '$pat'"; fi
    done <"$fix/$name.expect"
done
# no terminal control or bidi override reaches the text report
for f in "$tmp"/*.text "$tmp"/*.details; do
    t '! LC_ALL=C grep -q "$(printf "\033")" "$f" && ! grep -q "$(printf "\342\200\256")" "$f"' \
      "$(basename "$f"): raw control or bidi characters"
done

# 2. the fixtures are what their generator writes
if [ -n "$py" ]; then
    root=$(pwd)
    mkdir -p "$tmp/gen/tests/data/where"
    t '(cd "$tmp/gen" && "$py" "$root/$fix/make-where.py")' "make-where.py failed"
    for g in "$tmp"/gen/tests/data/where/*.jsonl; do
        t 'cmp -s "$g" "$fix/$(basename "$g")"' "$fix/$(basename "$g") is not what make-where.py writes"
    done
else
    sk "fixture generator: python3 is not installed"
fi

# 3. Nsight Compute's source page: stall_chase's counts are ncu's own, so
# every column gpuprof has data for must read as ncu printed it
if [ -n "$py" ]; then
    t '"$py" $chk ncu-compare "$tmp/where-stall.ncu-source-csv" "$fix/ncu-source-sass-stall_chase.csv" >"$tmp/chk"' \
      "ncu-source-csv differs from ncu's page"
fi

# 4. the disassembler: a private file of the function's code, -b SM90, bounds
if [ -n "$py" ]; then
    mkdir -p "$tmp/t"
    TMPDIR=$tmp/t FAKE_NVDISASM_ARGS=$tmp/args "$report" --nvdisasm "$fake" "$fix/where-stall.jsonl" \
        >/dev/null 2>&1
    t '[ "$(wc -l <"$tmp/args")" -eq 5 ]' "nvdisasm ran $(wc -l <"$tmp/args") times, want 5 (one per function)"
    t 'grep -q "^-b SM90 $tmp/t/gpuprof-sass-[A-Za-z0-9]*/code.bin size=3200$" "$tmp/args"' \
      "nvdisasm arguments: $(head -1 "$tmp/args")"
    t '[ -z "$(ls -A "$tmp/t")" ]' "temporary files left behind: $(ls "$tmp/t")"
    for c in "sleep:ran over 1 s" "flood:its output passed" "fail:exited with status 3" \
             "empty:printed no instruction"; do
        mode=${c%%:*}; want=${c#*:}
        start=$(date +%s)
        # 1 s for the one that never ends; the others must not be cut by a
        # Python start-up that takes over a second on a loaded machine
        lim=1; [ "$mode" = sleep ] || lim=20
        FAKE_NVDISASM=$mode timeout 120 "$report" --nvdisasm "$fake" --nvdisasm-timeout $lim \
            "$fix/where-stall.jsonl" >"$tmp/out" 2>"$tmp/err"
        rc=$?; took=$(( $(date +%s) - start ))
        t '[ "$rc" -eq 0 ] && grep -q "$want" "$tmp/err" && [ "$(grep -c fake-nvdisasm "$tmp/err")" -eq 1 ]' \
          "nvdisasm $mode: exit $rc, message '$(head -1 "$tmp/err")'"
        t 'grep -q "^#1 stall_chase" "$tmp/out" && grep -q "global load at +0x1b0" "$tmp/out"' \
          "nvdisasm $mode: no report by offsets"
        t '[ "$took" -lt 30 ]' "nvdisasm $mode: the report took $took s"
    done
    # found through CUDA_HOME
    mkdir -p "$tmp/cuda/bin"
    ln -s "$(pwd)/$fake" "$tmp/cuda/bin/nvdisasm"
    t 'CUDA_HOME=$tmp/cuda PATH=/usr/bin:/bin "$report" "$fix/where-stall.jsonl" 2>&1 | grep -q "^SASS text: $tmp/cuda/bin/nvdisasm$"' \
      "\$CUDA_HOME/bin/nvdisasm not found"
    t 'CUDA_HOME= PATH=$tmp/cuda/bin:/usr/bin:/bin "$report" "$fix/where-stall.jsonl" 2>&1 | grep -q "^SASS text: $tmp/cuda/bin/nvdisasm$"' \
      "nvdisasm on the PATH not found"
fi
# none at all: said once, in the report
CUDA_HOME= PATH=/nonexistent "$report" "$fix/where-stall.jsonl" >"$tmp/out" 2>"$tmp/err"
t '[ "$(grep -c "^SASS text: no nvdisasm (give --nvdisasm PATH" "$tmp/out")" -eq 1 ] && [ ! -s "$tmp/err" ]' \
  "without a disassembler: not said once in the report"
"$report" --nvdisasm /nonexistent/nvdisasm "$fix/where-stall.jsonl" >"$tmp/out" 2>"$tmp/err"
t '[ $? -eq 0 ] && grep -q "is not an executable file" "$tmp/err"' "--nvdisasm of a missing file"
t '"$report" --nvdisasm-timeout 0 "$fix/where-stall.jsonl" >/dev/null 2>&1; [ $? -eq 2 ]' \
  "--nvdisasm-timeout 0 accepted"
# the real disassembler, when this machine has it
real=""
[ -n "$CUDA_HOME" ] && [ -x "$CUDA_HOME/bin/nvdisasm" ] && real=$CUDA_HOME/bin/nvdisasm
[ -z "$real" ] && real=$(command -v nvdisasm || true)
if [ -n "$real" ]; then
    "$report" --nvdisasm "$real" -f source-csv "$fix/where-stall.jsonl" >"$tmp/real.csv" 2>"$tmp/err"
    t 'grep -q ",0x1b0,tests/gpu/where/stall_kernels.cu,11,\"LDG.E R4, desc\[UR4\]\[R4.64\]\"," "$tmp/real.csv"' \
      "nvdisasm ($real) on stall_chase's code: not the recorded LDG.E at 0x1b0 ($(head -1 "$tmp/err"))"
else
    sk "the real nvdisasm: not installed (CUDA toolkit with its binary utilities)"
fi

# 5. source text: what is read, what is refused, and nothing hangs
sed 's|tests/gpu/where/stall_kernels.cu|moved/away/stall_kernels.cu|' "$fix/where-stall.jsonl" >"$tmp/moved.jsonl"
t '! "$report" "$tmp/moved.jsonl" | grep -q "i = next\[i & 0xfffffu\];"' "a missing file's text shown"
t '"$report" --source-folders /nonexistent:tests/gpu/where "$tmp/moved.jsonl" | grep -q "stall_kernels.cu:11  i = next\[i & 0xfffffu\];"' \
  "--source-folders: the file not found by its name"
t '! "$report" --no-source-text "$fix/where-stall.jsonl" | grep -q "i = next"' "--no-source-text read the file"
mkfifo "$tmp/fifo.cu"
head -c 5242880 /dev/zero | tr '\0' 'x' >"$tmp/big.cu"
printf 'int main()\0{}\n' >"$tmp/nul.cu"
mkdir "$tmp/dir.cu"
for c in "fifo.cu:not a regular file" "big.cu:over 4194304 bytes" "nul.cu:not text (it holds NUL bytes)" \
         "dir.cu:not a regular file"; do
    file=${c%%:*}; want=${c#*:}
    sed "s|tests/gpu/where/stall_kernels.cu|$tmp/$file|" "$fix/where-stall.jsonl" >"$tmp/src.jsonl"
    timeout 60 "$report" -f html -o "$tmp/src.html" "$tmp/src.jsonl" 2>/dev/null
    rc=$?
    t '[ "$rc" -eq 0 ] && grep -qF "(source not shown: $want)" "$tmp/src.html"' \
      "source $file: exit $rc, not '$want'"
done

# a source file that is a link (kernel.cu -> a secret): never followed, in
# any format, at its recorded path or under --source-folders
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do echo "root:x:0:0:secret-line:/root:/bin/bash"; done >"$tmp/secret"
mkdir "$tmp/lnk"
ln -s "$tmp/secret" "$tmp/lnk/stall_kernels.cu"
sed "s|tests/gpu/where/stall_kernels.cu|$tmp/lnk/stall_kernels.cu|" "$fix/where-stall.jsonl" >"$tmp/src.jsonl"
sed "s|tests/gpu/where/stall_kernels.cu|moved/stall_kernels.cu|" "$fix/where-stall.jsonl" >"$tmp/src2.jsonl"
cp "$tmp/secret" "$tmp/lnk/plain.cu"
sed "s|tests/gpu/where/stall_kernels.cu|$tmp/lnk/plain.cu|" "$fix/where-stall.jsonl" >"$tmp/src3.jsonl"
for f in text html json; do
    "$report" -f $f "$tmp/src.jsonl" >"$tmp/lnk.$f" 2>&1
    "$report" -f $f --source-folders "$tmp/lnk" "$tmp/src2.jsonl" >>"$tmp/lnk.$f" 2>&1
    "$report" -f $f "$tmp/src3.jsonl" >"$tmp/plain.$f" 2>&1
    t '! grep -q "secret-line" "$tmp/lnk.$f" && grep -q "secret-line" "$tmp/plain.$f"' \
      "a source file that is a link was read ($f), or the same file as a regular file not shown"
done
t 'grep -qF "(source not shown: not read: a symbolic link)" "$tmp/lnk.html"' "no reason for a linked source file"

# a file the user may not read (root reads every file: then a SKIP)
cp tests/gpu/where/stall_kernels.cu "$tmp/locked.cu"
chmod 000 "$tmp/locked.cu"
if [ "$(id -u)" -ne 0 ]; then
    sed "s|tests/gpu/where/stall_kernels.cu|$tmp/locked.cu|" "$fix/where-stall.jsonl" >"$tmp/src.jsonl"
    "$report" -f html -o "$tmp/src.html" "$tmp/src.jsonl" 2>/dev/null
    t 'grep -qF "(source not shown: Permission denied)" "$tmp/src.html"' "an unreadable source file"
else
    sk "an unreadable source file: running as root, whom permissions do not stop"
fi

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
