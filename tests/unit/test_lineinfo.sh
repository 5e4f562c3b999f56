#!/bin/sh
# test_lineinfo.sh - each instruction's source line as gpuprof gives it
# (CUPTI's correlation of the cubin it keeps, test_lineinfo --lines) against
# binutils' reading of the same cubin's DWARF line table (readelf), an
# oracle outside gpuprof: for every instruction of each kernel of
# tests/unit/lines.cu, the line of the last table row at or before its pc.
# The kernels differ in code size, which tells readelf's sequences apart.
B=${BUILD:-build}
pass=0; fail=0; skip=0
T=$B/tests/test_lineinfo
C=$B/tests/lines.cubin
if ! command -v readelf >/dev/null 2>&1; then
    echo "    SKIP lines against readelf: readelf (binutils) is not installed"
    echo "lineinfo-readelf: 0 passed, 0 failed, 1 skipped"; exit 0
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# readelf's rows, one sequence per function: "addr line", "end ADDR" closes one
readelf --debug-dump=decodedline "$C" 2>/dev/null | awk '
    function hex(s,    v, i) { s = tolower(s); sub(/^0x/, "", s); v = 0
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v }
    NF >= 3 && $2 ~ /^[0-9]+$/ && $3 ~ /^(0x[0-9a-f]+|0)$/ { printf "%d %d\n", hex($3), $2 }
    NF >= 3 && $2 == "-" && $3 ~ /^0x/ { printf "end %d\n", hex($3) }' >"$d/table"
for f in _Z11lines_saxpyfPKfPfi _Z11lines_countPi; do
    if ! "$T" --lines "$C" "$f" >"$d/ours" 2>"$d/err"; then
        fail=$((fail + 1)); echo "FAIL $f: $(cat "$d/err")"; continue
    fi
    n=$(wc -l <"$d/ours")
    size=$((n * 16))
    # the sequence whose end is the function's size, expanded to every pc
    awk -v size="$size" '
        $1 == "end" { if ($2 == size) { for (i = 0; i < nr; i++) row[i] = r[i]; n = nr; found = 1 } nr = 0; next }
        { r[nr++] = $0 }
        END { if (!found) exit 1
              for (pc = 0; pc < size; pc += 16) { line = 0
                  for (i = 0; i < n; i++) { split(row[i], a, " "); if (a[1] <= pc) line = a[2] }
                  print pc, line } }' "$d/table" >"$d/readelf"
    if [ $? -ne 0 ] || [ "$n" -eq 0 ]; then
        fail=$((fail + 1)); echo "FAIL $f: no readelf sequence of $size bytes"; continue
    fi
    if cmp -s "$d/ours" "$d/readelf"; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL $f: lines differ from readelf's"; diff "$d/ours" "$d/readelf" | head -5; fi
done
echo "lineinfo-readelf: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
