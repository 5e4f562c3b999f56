#!/bin/sh
# test_characterize_hostile.sh - gpuprof-characterize given what a careless
# or hostile user gives it: compare files it did not create (never deleted or
# changed), a library path LD_PRELOAD cannot carry, ignore rules that would
# hide every difference or hang, links planted in the output folder (never
# written through), file modes, escapes in a program's output, misleading
# messages, a suite of 100,000 programs, NUL bytes and duplicate compare
# names in a suite, compare files that are not regular files or are too big,
# comparisons past the timeout or interrupted, --lib files that are not
# gpuprof's library, escapes in every summary and message, FIFOs in a result
# folder.
suite=characterize-hostile
. tests/lib/characterize.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LD_PRELOAD GPUPROF_OUTPUT
export CUDA_VISIBLE_DEVICES=0
mkdir "$tmp/work"
status_of() { sed -n 's/^  "status": "\(.*\)",$/\1/p' "$1/result.json"; }

# 1. a compare file the command only reads: refused, left exactly as it was
printf 'input data\n' >"$tmp/work/input.dat"
touch -d '2001-02-03 04:05:06' "$tmp/work/input.dat"
before=$(stat -c '%i %s %Y %a' "$tmp/work/input.dat")
cat >"$tmp/reads.suite" <<'S'
[reads]
dir = work
cmd = cat input.dat
compare = input.dat
S
"$tool" run --no-gpu-check "$tmp/reads.suite" -o "$tmp/out1" 2>"$tmp/err1"; rc=$?
check '[ "$rc" -eq 4 ] && [ "$(status_of "$tmp/out1/reads")" = error ]' \
    "compare of an existing file: exit $rc, status '$(status_of "$tmp/out1/reads")', want 4 and error"
check 'grep -q "input.dat exists before the run" "$tmp/err1"' "no clear message for an existing compare file"
check '[ -f "$tmp/work/input.dat" ] && [ "$(stat -c "%i %s %Y %a" "$tmp/work/input.dat")" = "$before" ] && grep -qx "input data" "$tmp/work/input.dat"' \
    "input.dat was deleted or changed"

# 2. a compare file outside the program's directory: refused at parsing
printf 'keep me\n' >"$tmp/elsewhere.txt"
cat >"$tmp/outside.suite" <<'S'
[outside]
dir = work
cmd = echo x > ../elsewhere.txt
compare = ../elsewhere.txt
S
"$tool" run --no-gpu-check "$tmp/outside.suite" -o "$tmp/out2" 2>"$tmp/err2"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "outside.suite:4: compare .*without" "$tmp/err2"' "compare = ../x: exit $rc, $(cat "$tmp/err2")"
check 'grep -qx "keep me" "$tmp/elsewhere.txt"' "../elsewhere.txt was changed"

# 3. compare files the command writes: compared, then moved into the result
# folder, so that the program's directory is as before and a re-run works
cat >"$tmp/writes.suite" <<'S'
[writes]
dir = work
cmd = echo "result 7" > out.txt
compare = out.txt
S
"$tool" run --no-gpu-check "$tmp/writes.suite" -o "$tmp/out3" 2>"$tmp/err3"; rc=$?
check '[ "$rc" -eq 4 ] && [ "$(status_of "$tmp/out3/writes")" = no_records ] && [ ! -e "$tmp/work/out.txt" ]' \
    "writes: exit $rc, status $(status_of "$tmp/out3/writes"), or out.txt left in the program's directory"
check 'grep -qx "result 7" "$tmp/out3/writes/native.1.out.txt" && grep -qx "result 7" "$tmp/out3/writes/profiled.1.out.txt"' \
    "the compared files are not kept in the result folder"
"$tool" run --no-gpu-check "$tmp/writes.suite" -o "$tmp/out3" --force 2>"$tmp/err3b"; rc=$?
check '[ "$rc" -eq 4 ]' "a re-run of a compare program fails (exit $rc)"

# 4. a library path with a space: refused, not run unprofiled as "ok"
mkdir "$tmp/my tools"
cp "$lib" "$tmp/my tools/libgpuprof.so"
cat >"$tmp/echo.suite" <<'S'
[echo]
dir = work
cmd = echo hello
S
"$tool" run --no-gpu-check "$tmp/echo.suite" -o "$tmp/out4" --lib "$tmp/my tools/libgpuprof.so" 2>"$tmp/err4"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "splits LD_PRELOAD" "$tmp/err4" && [ ! -e "$tmp/out4/echo/result.json" ]' \
    "--lib with a space: exit $rc, $(head -c 300 "$tmp/err4")"

# 5. ignore rules that hide everything or take the matcher out of bounds
for rule in '' '.*' 'a+++++++++++++++++++++' '(x)\1'; do
    printf '[p]\ncmd = echo x\nignore = %s\n' "$rule" >"$tmp/ign.suite"
    start=$(date +%s)
    "$tool" list "$tmp/ign.suite" >/dev/null 2>"$tmp/err5"; rc=$?
    took=$(( $(date +%s) - start ))
    check '[ "$rc" -eq 1 ] && [ "$took" -lt 5 ] && grep -q "ign.suite:3: ignore" "$tmp/err5"' \
        "ignore = '$rule': exit $rc after $took s: $(cat "$tmp/err5")"
done
printf '[p]\ncmd = echo x\nignore = ^$\n' >"$tmp/ign.suite"
check '"$tool" list "$tmp/ign.suite" >/dev/null 2>&1' "ignore = ^\$ (blank lines) refused"

# 6. links planted in the output folder are not written through
printf 'victim\n' >"$tmp/victim"
mkdir -p "$tmp/out6/echo" "$tmp/victimdir"
ln -s "$tmp/victim" "$tmp/out6/echo/native.stdout"
ln -s "$tmp/victim" "$tmp/out6/echo/result.json"
ln -s "$tmp/victimdir" "$tmp/out6/summary"
"$tool" run --no-gpu-check "$tmp/echo.suite" -o "$tmp/out6" 2>"$tmp/err6"; rc=$?
check 'grep -qx victim "$tmp/victim" && [ -z "$(ls "$tmp/victimdir")" ]' "a planted link was written through"
check '[ "$rc" -eq 1 ] && grep -q "summary is a symbolic link" "$tmp/err6"' "a linked summary folder: exit $rc, $(cat "$tmp/err6")"
check '[ -f "$tmp/out6/echo/native.stdout" ] && [ ! -L "$tmp/out6/echo/native.stdout" ] && grep -qx hello "$tmp/out6/echo/native.stdout"' \
    "the program's output did not replace the planted link"
mkdir -p "$tmp/out6b"
ln -s "$tmp/victimdir" "$tmp/out6b/echo"
"$tool" run --no-gpu-check "$tmp/echo.suite" -o "$tmp/out6b" 2>"$tmp/err6b"; rc=$?
check '[ -z "$(ls "$tmp/victimdir")" ] && grep -q "echo is a symbolic link" "$tmp/err6b"' \
    "a linked program folder was written into: $(cat "$tmp/err6b")"
# a link in a folder the summary writes, whoever owns it (the user, root,
# another user): replaced by the file, never written through
for owner in self 0 12345; do
    rm -rf "$tmp/out6c"; mkdir -p "$tmp/out6c/summary"
    ln -s "$tmp/victim" "$tmp/out6c/summary/summary.txt"
    if [ $owner != self ] && ! chown -h $owner "$tmp/out6c/summary/summary.txt" 2>/dev/null; then
        skip=$((skip + 1)); echo "SKIP a link owned by $owner: chown needs root" >&2; continue
    fi
    "$tool" run --no-gpu-check "$tmp/echo.suite" -o "$tmp/out6c" 2>"$tmp/err6c"; rc=$?
    check '[ "$rc" -eq 4 ] && grep -qx victim "$tmp/victim" && [ -f "$tmp/out6c/summary/summary.txt" ] && [ ! -L "$tmp/out6c/summary/summary.txt" ]' \
        "a link owned by $owner in the summary folder: exit $rc, victim $(head -c 40 "$tmp/victim"), $(cat "$tmp/err6c")"
done

# 7. modes: nothing world-writable even with umask 0
(umask 0; "$tool" run --no-gpu-check "$tmp/echo.suite" -o "$tmp/out7" >/dev/null 2>&1)
bad=$(find "$tmp/out7" -perm -o+w | head -3)
check '[ -z "$bad" ] && [ "$(stat -c %a "$tmp/out7/echo/result.json")" = 644 ] && [ "$(stat -c %a "$tmp/out7/echo")" = 755 ]' \
    "world-writable or wrong modes with umask 0: $bad $(stat -c '%a %n' "$tmp/out7/echo/result.json" "$tmp/out7/echo")"

# 8. terminal escapes in a program's output are shown escaped
cat >"$tmp/esc.suite" <<'S'
[esc]
dir = work
cmd = if [ -n "$LD_PRELOAD" ]; then printf 'a\033[2J\033[31mforged\n'; else echo a; fi
S
"$tool" run --no-gpu-check "$tmp/esc.suite" -o "$tmp/out8" 2>"$tmp/err8"
check '! grep -q "$(printf "\033")" "$tmp/err8" "$tmp/out8/summary/summary.txt" && grep -q "a\\\\x1b\[2J" "$tmp/err8"' \
    "an escape sequence reached the terminal or summary.txt raw"

# 9. messages that name the problem
"$tool" merge "$tmp/out3" --peaks "$tmp/nonexistent" -o "$tmp/out9" 2>"$tmp/err9"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "cannot read peaks file" "$tmp/err9" && ! grep -q "cannot create" "$tmp/err9"' \
    "merge --peaks /nonexistent: $(cat "$tmp/err9")"
"$tool" merge "$tmp/out3" --peaks "$tmp/work" -o "$tmp/out9" 2>"$tmp/err9"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "is a directory" "$tmp/err9"' "a directory as peaks file: $(cat "$tmp/err9")"
"$tool" list "$tmp/work" 2>"$tmp/err9"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "is a directory" "$tmp/err9"' "a directory as suite file: $(cat "$tmp/err9")"
mkdir -p "$tmp/out9b/bad"
printf '{"format":"gpuprof-characterize-result/1","name":"bad","status":"ok","jsonl":["gpuprof-1.jsonl"]}\n' \
    >"$tmp/out9b/bad/result.json"
printf 'not json\n' >"$tmp/out9b/bad/gpuprof-1.jsonl"
"$tool" merge "$tmp/out9b" -o "$tmp/out9c" 2>"$tmp/err9"
check 'grep -q "^gpuprof-characterize: .*gpuprof-1.jsonl:1: malformed" "$tmp/err9" && ! grep -q "gpuprof-report" "$tmp/err9"' \
    "characterize speaks under another name: $(cat "$tmp/err9")"

# 10. 100,000 programs: listed in seconds, not minutes
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "[p%d]\ncmd = true\n", i }' >"$tmp/big.suite"
start=$(date +%s)
n=$("$tool" list "$tmp/big.suite" | wc -l)
took=$(( $(date +%s) - start ))
check '[ "$n" -eq 100000 ] && [ "$took" -lt 10 ]' "list of 100,000 programs: $n lines in $took s"

# 11. a NUL byte in a suite line: refused naming the line, never a command cut short
printf '[a]\ncmd = echo hi\0; touch %s/cut\n' "$tmp" >"$tmp/nul.suite"
"$tool" list - <"$tmp/nul.suite" >"$tmp/out11" 2>"$tmp/err11"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "^gpuprof-characterize: <stdin>:2: NUL byte" "$tmp/err11" && [ ! -s "$tmp/out11" ]' \
    "a NUL in cmd on standard input: exit $rc, $(cat "$tmp/err11" "$tmp/out11")"
"$tool" run --no-gpu-check - -o "$tmp/out11r" <"$tmp/nul.suite" 2>"$tmp/err11r"; rc=$?
check '[ "$rc" -eq 1 ] && [ ! -e "$tmp/out11r/a" ] && grep -q "<stdin>:2: NUL byte" "$tmp/err11r"' \
    "run - with a NUL in cmd: exit $rc, $(cat "$tmp/err11r")"
"$tool" list "$tmp/nul.suite" >/dev/null 2>"$tmp/err11f"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "nul.suite:2: NUL byte" "$tmp/err11f"' \
    "a NUL in a suite file does not name the line: $(cat "$tmp/err11f")"

# 12. the same compare file twice (also spelt ./y and y): refused at parsing,
# naming both lines, instead of a false native failure
cat >"$tmp/dup.suite" <<'S'
[dup]
dir = work
cmd = echo data > x
compare = x
compare = x
S
"$tool" run --no-gpu-check "$tmp/dup.suite" -o "$tmp/out12" 2>"$tmp/err12"; rc=$?
check '[ "$rc" -eq 1 ] && [ ! -e "$tmp/out12/dup" ] && [ "$(wc -l <"$tmp/err12")" -eq 1 ] && grep -q "dup.suite:5: compare .x. is already listed at line 4 for \[dup\]" "$tmp/err12"' \
    "compare listed twice: exit $rc, $(cat "$tmp/err12")"
printf '[dup2]\ndir = work\ncmd = echo data > y\ncompare = ./y\ncompare = y\n' >"$tmp/dup2.suite"
"$tool" list "$tmp/dup2.suite" >/dev/null 2>"$tmp/err12b"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "dup2.suite:5: compare .y. is already listed at line 4" "$tmp/err12b"' \
    "compare ./y and y: exit $rc, $(cat "$tmp/err12b")"

# 13. compare files that are not regular files: never opened or read (a FIFO
# blocked forever, a link to /dev/zero filled the memory), refused with the
# reason, and taken out of the program's directory
reason_of() { sed -n 's/^  "message": "\(.*\)",$/\1/p' "$1/result.json"; }
cat >"$tmp/special.suite" <<'S'
[fifo]
dir = work
cmd = mkfifo made_fifo
compare = made_fifo

[zero]
dir = work
cmd = ln -s /dev/zero made_zero
compare = made_zero
S
for p in fifo zero; do
    start=$(date +%s)
    (if ! grep -q __asan_init "$tool"; then ulimit -v 4000000; fi # ASan needs the address space
     exec timeout -s KILL 20 "$tool" run --no-gpu-check "$tmp/special.suite" --only $p -o "$tmp/out13") \
        >/dev/null 2>"$tmp/err13"; rc=$?
    took=$(( $(date +%s) - start ))
    check '[ "$rc" -eq 4 ] && [ "$took" -lt 10 ] && [ "$(status_of "$tmp/out13/$p")" = error ]' \
        "compare = a $p: exit $rc after $took s, status '$(status_of "$tmp/out13/$p" 2>/dev/null)'"
    check 'reason_of "$tmp/out13/$p" | grep -q "is a \(FIFO\|symbolic link\), not a regular file"' \
        "compare = a $p: no reason: $(cat "$tmp/err13")"
done
check '[ ! -e "$tmp/work/made_fifo" ] && [ ! -L "$tmp/work/made_zero" ]' "the FIFO or link was left in the program's directory: $(ls "$tmp/work")"

# 14. a compare name through a link the command makes: the file it reaches
# (outside the directory) is not moved
mkdir "$tmp/victimdir2"
printf 'precious\n' >"$tmp/victimdir2/file"
printf '[through]\ndir = work\ncmd = ln -s %s/victimdir2 d\ncompare = d/file\n' "$tmp" >"$tmp/through.suite"
"$tool" run --no-gpu-check "$tmp/through.suite" -o "$tmp/out14" >/dev/null 2>&1; rc=$?
check '[ "$rc" -eq 4 ] && grep -qx precious "$tmp/victimdir2/file" && reason_of "$tmp/out14/through" | grep -q "through a symbolic link"' \
    "compare through a link: exit $rc, victim $(ls "$tmp/victimdir2"), '$(reason_of "$tmp/out14/through")'"
rm -f "$tmp/work/d"

# 15. a compared output over the size limit (a sparse file: nothing is
# written) is refused unread
printf '[huge]\ndir = work\ncmd = if [ -n "$LD_PRELOAD" ]; then truncate -s 300M h.bin; else echo small > h.bin; fi\ncompare = h.bin\n' >"$tmp/huge.suite"
start=$(date +%s)
"$tool" run --no-gpu-check "$tmp/huge.suite" -o "$tmp/out15" >/dev/null 2>&1; rc=$?
took=$(( $(date +%s) - start ))
check '[ "$rc" -eq 4 ] && [ "$(status_of "$tmp/out15/huge")" = error ] && reason_of "$tmp/out15/huge" | grep -q "file h.bin of the profiled run is 314572800 bytes, over the 256 MiB limit"' \
    "a 300 MB compare file: exit $rc after $took s, '$(reason_of "$tmp/out15/huge")'"

# 16. the timeout covers the comparison: 5 million lines under 8 ignore rules
# take seconds; with timeout = 1 the comparison gives up after about 1 s
big_suite() {
    printf '[big]\ndir = work\ntimeout = %s\ncmd = seq 1 5000000 > big.txt\ncompare = big.txt\n' "$1"
    for r in '[a-z]{3}' '[a-y]+z' 'x[0-9]*y' 'q$' '^[0-9]+[a-f]' '5[0-9]*k' 'w[0-9]' '[0-9]{12}'; do
        printf 'ignore = %s\n' "$r"
    done
}
big_suite 1 >"$tmp/big1.suite"
start=$(date +%s)
timeout -s KILL 60 "$tool" run --no-gpu-check "$tmp/big1.suite" -o "$tmp/out16" >/dev/null 2>&1; rc=$?
took=$(( $(date +%s) - start ))
check '[ "$rc" -eq 4 ] && [ "$took" -lt 5 ] && reason_of "$tmp/out16/big" | grep -q "comparing the outputs took longer than the timeout (1 s)"' \
    "a comparison past the timeout: exit $rc after $took s, '$(reason_of "$tmp/out16/big" 2>/dev/null)'"

# 17. SIGTERM ends a run that is comparing: no result, no process left
big_suite 600 >"$tmp/big600.suite"
timeout -s KILL 60 "$tool" run --no-gpu-check "$tmp/big600.suite" -o "$tmp/out17" >/dev/null 2>"$tmp/err17" &
cpid=$!
i=0
while [ ! -e "$tmp/out17/big/profiled.1.big.txt" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
kill -TERM $cpid 2>/dev/null
start=$(date +%s)
wait $cpid; rc=$?
took=$(( $(date +%s) - start ))
check '[ "$took" -lt 3 ] && [ "$rc" -ne 137 ] && [ ! -e "$tmp/out17/big/result.json" ] && grep -q "interrupted" "$tmp/err17"' \
    "SIGTERM while comparing: exit $rc after $took s, result $(ls "$tmp/out17/big" 2>/dev/null | grep -c result.json), $(tail -2 "$tmp/err17")"
rm -f "$tmp/work/big.txt"

# 18. --lib must be gpuprof's library: anything the dynamic loader would skip
# (every program then runs unprofiled and is reported ok) or block on is
# refused before a program runs
mkdir -p "$tmp/libs/dir.so" "$tmp/libs/alone"
printf 'not a library\n' >"$tmp/libs/text.so"
mkfifo "$tmp/libs/fifo.so"
printf 'int gp_other(void) { return 1; }\n' >"$tmp/libs/other.c"
${CC:-cc} -shared -fPIC "$tmp/libs/other.c" -o "$tmp/libs/libother.so" 2>/dev/null
cp "$lib" "$tmp/libs/alone/libgpuprof.so"
for l in dir.so:"not a regular file (a directory)" text.so:"not an ELF file" \
         fifo.so:"not a regular file" libother.so:"does not define gpuprof_version" \
         alone/libgpuprof.so:"libgpuprof-core.so is not next to"; do
    f=${l%%:*} want=${l#*:}
    if [ ! -e "$tmp/libs/$f" ]; then
        skip=$((skip + 1)); echo "SKIP --lib $f: could not be made (no C compiler?)" >&2; continue
    fi
    timeout -s KILL 20 "$tool" run --no-gpu-check "$tmp/echo.suite" -o "$tmp/out18" --force --lib "$tmp/libs/$f" \
        >/dev/null 2>"$tmp/err18"; rc=$?
    check '[ "$rc" -eq 1 ] && [ ! -e "$tmp/out18/echo" ] && grep -q "$want" "$tmp/err18"' \
        "--lib $f: exit $rc, $(cat "$tmp/err18")"
done

# 19. every string from a program, a suite or a result file is shown escaped:
# in summary.txt, summary.html, on stderr and in `list`
esc=$(printf '\033')
ctl=$(printf '[\001-\010\013\014\016-\037\177]')
raw_ctl() { LC_ALL=C grep -l "$ctl" "$@" 2>/dev/null; } # files with a control character
mkdir -p "$tmp/m2/b"
cat >"$tmp/m2/b/result.json" <<'J'
{"format": "gpuprof-characterize-result/1", "name": "b", "status": "profiler_defect", "message": "\u001b[31m<script>alert(1)</script>=cmd|calc", "cmd": "echo ok", "dir": "w", "gpu": "\u001b[2J", "native": {"exit": 0, "signal": 0, "timed_out": false, "wall_s": 0.002967834}, "profiled": {"exit": 0, "signal": 0, "timed_out": false, "wall_s": 0.002909708}, "diffs": [{"what": "stdout\u001b[2J", "line": -1, "line_profiled": 1e+308, "differing_lines": -5, "native": "\u001b[2Jx", "profiled": null}], "jsonl": []}
J
"$tool" merge "$tmp/m2" --peaks "$tmp/no$esc[2Jpeaks" -o "$tmp/out19" >/dev/null 2>"$tmp/err19"
"$tool" merge "$tmp/m2" -o "$tmp/out19" >/dev/null 2>>"$tmp/err19"; rc=$?
bad=$(raw_ctl "$tmp/out19/summary.txt" "$tmp/out19/summary.html" "$tmp/err19")
check '[ "$rc" -eq 3 ] && [ -z "$bad" ] && grep -q "stdout\\\\x1b\[2J" "$tmp/out19/summary.txt" && grep -q "stdout\\\\x1b\[2J" "$tmp/out19/summary.html"' \
    "merge of a result with escapes: exit $rc, raw control characters in: $bad"
# a kernel name with an escape (the profiler's file of a stand-in program)
sed 's/"kernel":"copy_coalesced(const float4\*, float4\*, long)"/"kernel":"k\\u001b[2J\\u0007x"/' \
    tests/data/report/h100-second.jsonl >"$tmp/work/esc.jsonl"
cat >"$tmp/esck.suite" <<'S'
[esck]
dir = work
cmd = [ -z "$GPUPROF_OUTPUT" ] || cp esc.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"; echo same
S
"$tool" run --no-gpu-check "$tmp/esck.suite" -o "$tmp/out19k" >/dev/null 2>"$tmp/err19k"; rc=$?
bad=$(raw_ctl "$tmp/out19k/summary/summary.txt" "$tmp/out19k/summary/summary.html" "$tmp/err19k")
check '[ "$rc" -eq 0 ] && [ -z "$bad" ] && grep -q "k\\\\x1b\[2J\\\\x07x" "$tmp/out19k/summary/summary.html" && grep -q "k\\\\x1b\[2J" "$tmp/out19k/summary/summary.txt"' \
    "a kernel name with escapes: exit $rc, raw control characters in: $bad"
# a native failure's first error line, a message naming a compare file, list
printf '[fails]\ndir = work\ncmd = printf "error: \\033[2Jgone\\n"; exit 1\n' >"$tmp/fails.suite"
printf '[cmpesc]\ndir = work\ncmd = true\ncompare = x%sy\n' "$esc" >>"$tmp/fails.suite"
printf '[tab]\ndir = work\ncmd = echo a\tb%s[2J\n' "$esc" >>"$tmp/fails.suite"
"$tool" run --no-gpu-check "$tmp/fails.suite" -o "$tmp/out19f" >/dev/null 2>"$tmp/err19f"
"$tool" list "$tmp/fails.suite" >"$tmp/list19" 2>&1
bad=$(raw_ctl "$tmp/err19f" "$tmp/list19" "$tmp/out19f/summary/summary.txt")
check '[ -z "$bad" ] && grep -q "first error line: native.stdout: error: \\\\x1b\[2Jgone" "$tmp/err19f" && grep -q "wrote no x\\\\x1by" "$tmp/err19f"' \
    "stderr or list with raw control characters: $bad; $(cat "$tmp/err19f")"
check '[ "$(awk -F "\t" "/^2\t/ { print NF }" "$tmp/list19")" -eq 6 ] && grep -q "cmd echo a\\\\x09b\\\\x1b\[2J" "$tmp/list19"' \
    "list: a tab in cmd splits the fields: $(cat "$tmp/list19")"

# 20. the profiler's files a result names: only gpuprof-*.jsonl names, and only
# regular files are read (a FIFO planted in a result folder blocked merge)
mkdir -p "$tmp/m20/f" "$tmp/m21/e"
printf '{"format":"gpuprof-characterize-result/1","name":"f","status":"ok","jsonl":["gpuprof-1.jsonl"]}\n' \
    >"$tmp/m20/f/result.json"
mkfifo "$tmp/m20/f/gpuprof-1.jsonl"
timeout -s KILL 20 "$tool" merge "$tmp/m20" -o "$tmp/out20" >/dev/null 2>"$tmp/err20"; rc=$?
check '[ "$rc" -eq 0 ] && grep -q "gpuprof-1.jsonl is not a regular file" "$tmp/err20"' \
    "merge with a FIFO as the profiler's file: exit $rc, $(cat "$tmp/err20")"
printf '{"format":"gpuprof-characterize-result/1","name":"e","status":"ok","jsonl":["\\u001b[2J.jsonl"]}\n' \
    >"$tmp/m21/e/result.json"
"$tool" merge "$tmp/m21" -o "$tmp/out21" >/dev/null 2>"$tmp/err21"; rc=$?
check '[ "$rc" -eq 1 ] && grep -q "jsonl entries are the profiler.s file names" "$tmp/err21" && [ -z "$(raw_ctl "$tmp/err21")" ]' \
    "a result naming another file: exit $rc, $(cat "$tmp/err21")"

# 21. the profiled program plants links at characterize's own names (the
# summary, its result file, the profiled run's captured output): each is
# replaced, the file it points to stays as it was; as root and, where setpriv
# can drop to nobody, as an ordinary user (whose links the older rule followed)
plant21() {
    d=$1; rm -rf "$d"; mkdir -p "$d/w"; printf 'precious user file\n' >"$d/decoy.txt"
    cat >"$d/plant.suite" <<'S'
[plant]
dir = w
cmd = if [ -n "$GPUPROF_OUTPUT" ]; then d=${GPUPROF_OUTPUT%/*}; mkdir -p "$d/../summary"; ln -sf "$(pwd)/../decoy.txt" "$d/../summary/summary.txt"; ln -sf "$(pwd)/../decoy.txt" "$d/result.json"; else ln -sf "$(pwd)/../decoy.txt" "$(pwd)/../out/plant/profiled.stdout"; fi; echo same
S
}
plant21 "$tmp/p21"
"$tool" run --no-gpu-check "$tmp/p21/plant.suite" -o "$tmp/p21/out" >/dev/null 2>"$tmp/err21a"
check 'grep -qx "precious user file" "$tmp/p21/decoy.txt" && [ ! -L "$tmp/p21/out/summary/summary.txt" ] && [ ! -L "$tmp/p21/out/plant/result.json" ] && [ ! -L "$tmp/p21/out/plant/profiled.stdout" ] && grep -q "^gpuprof-characterize summary" "$tmp/p21/out/summary/summary.txt"' \
    "characterize wrote through a planted link (root): decoy now '$(head -c 60 "$tmp/p21/decoy.txt")'"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
    plant21 "$tmp/p21n"; chmod 755 "$tmp"; chown -R nobody "$tmp/p21n"
    setpriv --reuid=nobody --regid=nogroup --clear-groups \
        "$tool" run --no-gpu-check "$tmp/p21n/plant.suite" -o "$tmp/p21n/out" --lib "$lib" >/dev/null 2>"$tmp/err21n"
    check 'grep -qx "precious user file" "$tmp/p21n/decoy.txt" && [ ! -L "$tmp/p21n/out/summary/summary.txt" ]' \
        "characterize wrote through a planted link (nobody): decoy now '$(head -c 60 "$tmp/p21n/decoy.txt")'"
else
    skip=$((skip + 1)); echo "SKIP planted links as another user: needs root and setpriv" >&2
fi

# 22. a result that names one profiler file 1,000 times: read once and said,
# not 1,000 times the launches
mkdir -p "$tmp/m22/p"
cp tests/data/report/h100-planted.jsonl "$tmp/m22/p/gpuprof-1.jsonl"
{ printf '{"format":"gpuprof-characterize-result/1","name":"p","status":"ok","jsonl":['
  i=0; while [ $i -lt 1000 ]; do [ $i -gt 0 ] && printf ','; printf '"gpuprof-1.jsonl"'; i=$((i + 1)); done
  printf ']}\n'; } >"$tmp/m22/p/result.json"
"$tool" merge "$tmp/m22" -o "$tmp/out22" >/dev/null 2>"$tmp/err22"; rc=$?
want=$("$b/gpuprof-report" --format json tests/data/report/h100-planted.jsonl | sed -n 's/.*"launches": *\([0-9]*\).*/\1/p' | head -1)
got=$(tail -n 1 "$tmp/out22/programs.csv" | cut -d, -f7)
check '[ "$rc" -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] && grep -q "999 entries of jsonl name a file named before: each file read once" "$tmp/err22"' \
    "a jsonl entry repeated 1,000 times: exit $rc, $got launches (want $want), $(cat "$tmp/err22")"

# 23. never ok when nothing was measured or the profiler says the results are
# not valid: a summary record with valid false and no launch record (the first
# launch's replay faulted), and the library's stderr line with no file at all
mkdir -p "$tmp/w23"
printf '{"type":"summary","schema":1,"launches_seen":1,"launches_profiled":0,"launches_estimated":0,"results":{"valid":false,"from_launch":1,"kernel":"k","reason":"a replay pass of launch 1 faulted"}}\n' \
    >"$tmp/w23/sum.jsonl"
cat >"$tmp/s23.suite" <<'S'
[sumonly]
dir = w23
cmd = [ -z "$GPUPROF_OUTPUT" ] || cp sum.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"; echo same
[stderronly]
dir = w23
cmd = [ -z "$GPUPROF_OUTPUT" ] || echo "[gpuprof 42] THE PROGRAM'S RESULTS ARE NOT VALID from launch 1 on (k): a replay pass of launch 1 faulted" >&2; echo same
[nothing]
dir = w23
cmd = echo same
S
"$tool" run --no-gpu-check "$tmp/s23.suite" -o "$tmp/out23" >/dev/null 2>"$tmp/err23"; rc=$?
check '[ "$rc" -eq 3 ] && [ "$(status_of "$tmp/out23/sumonly")" = profiler_broke_results ] && [ "$(status_of "$tmp/out23/stderronly")" = profiler_broke_results ] && [ "$(status_of "$tmp/out23/nothing")" = no_records ]' \
    "not valid or nothing measured: exit $rc, statuses $(status_of "$tmp/out23/sumonly") $(status_of "$tmp/out23/stderronly") $(status_of "$tmp/out23/nothing")"
check 'grep -q "from launch 1" "$tmp/out23/stderronly/result.json"' "stderronly: $(grep message "$tmp/out23/stderronly/result.json")"

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
