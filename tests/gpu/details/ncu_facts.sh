#!/bin/sh
# ncu_facts.sh - a diagnostic, not a test: what Nsight Compute's sets and
# sections are on this machine and how its details page is laid out, gathered
# once into $OUT (the facts the section table metrics/ncu/sections.def is
# written from; ncu's own files are read here, never copied into the tree).
#   OUT=dir sh tests/gpu/details/ncu_facts.sh
# The pages of its two --set full reports (raw, details, summary) and of its
# basic, detailed and regex: runs, as an H100 printed them, are kept in
# tests/data/details/ncu-h100 (the oracle of tests/report/test_details_oracle.sh).
O=${OUT:-build/ncu-facts}; mkdir -p "$O"; T=$(mktemp -d)
B=${BUILD:-build}
ncu --version > "$T/version.txt" 2>&1
ncu --list-sets > "$T/list-sets.txt" 2>&1
ncu --list-sections > "$T/list-sections.txt" 2>&1
ncu --help > "$T/help.txt" 2>&1
NCU_DIR=$(dirname "$(readlink -f "$(command -v ncu)")")
SEC=$(find "$NCU_DIR" /opt/nvidia /usr/local/cuda* -maxdepth 4 -type d -name sections 2>/dev/null | head -1)
echo "sections dir: $SEC" >> "$T/version.txt"
nvidia-smi -q -d CLOCK > "$T/clocks.txt" 2>&1
# one profiling run per program, every page exported from its report
run() { # name, then the command
    n=$1; shift
    ncu --clock-control none --set full -c ${NCU_C:-8} -f -o "$T/$n" "$@" > "$T/$n.prog.txt" 2>&1
    ncu -i "$T/$n.ncu-rep" --page details --csv > "$T/$n.details.csv" 2>&1
    ncu -i "$T/$n.ncu-rep" --page details > "$T/$n.details.txt" 2>&1
    ncu -i "$T/$n.ncu-rep" --page details --csv --print-units base > "$T/$n.details-base.csv" 2>&1
    ncu -i "$T/$n.ncu-rep" --page raw --csv --print-units base > "$T/$n.raw.csv" 2>&1
    ncu -i "$T/$n.ncu-rep" --print-summary per-kernel > "$T/$n.summary.txt" 2>&1
    ncu -i "$T/$n.ncu-rep" --print-summary per-kernel --csv > "$T/$n.summary.csv" 2>&1
    ncu -i "$T/$n.ncu-rep" --page details --print-details all > "$T/$n.details-all.txt" 2>&1
    rm -f "$T/$n.ncu-rep"
}
run blas $B/tests/gpu/xcheck/libs blas
run torch python3 tests/gpu/xcheck/torch_train.py
ncu --clock-control none --set basic -c 2 --page details --csv $B/tests/gpu/xcheck/libs blas > "$T/blas.basic.csv" 2>&1
ncu --clock-control none --set detailed -c 2 --page details --csv $B/tests/gpu/xcheck/libs blas > "$T/blas.detailed.csv" 2>&1
ncu --clock-control none --section SpeedOfLight --section 'regex:Memory.*' -c 2 --page details --csv $B/tests/gpu/xcheck/libs blas > "$T/blas.regex.csv" 2>&1
tar czf "$O/facts.tgz" -C "$T" .
[ -n "$SEC" ] && tar czf "$O/sections.tgz" -C "$SEC" .
ls -la "$T" "$O"
