#!/bin/sh
# test_verdict.sh - the cross-check's verdict (verdict.sh, which run.sh
# calls on the GPU machine) on recorded files, no GPU: the sums of
# gpuprof-report --against over programs, a program whose ncu CSV holds no
# table (SKIP), one with nothing in common (FAIL), the exit status.
# Prints `xcheck-verdict: N passed, N failed, N skipped`.
suite=xcheck-verdict
pass=0; fail=0
A=tests/data/against
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
has() { if grep -q -- "$1" "$tmp/v.txt"; then ok; else ko "verdict.sh: no '$1'"; cat "$tmp/v.txt" >&2; fi; }
# PYTHON=false: the figures here are --against's alone
verdict() { PYTHON=false sh tests/gpu/xcheck/verdict.sh "$tmp/o" >"$tmp/v.txt" 2>&1; }
mkdir "$tmp/o"
for p in a b; do
    cp $A/synth.jsonl "$tmp/o/$p.jsonl"
    cp $A/synth.ncu.csv "$tmp/o/$p.ncu.csv"
    cp $A/synth.ncu2.csv "$tmp/o/$p.ncu2.csv"
    cp $A/synth.ncu-dram.csv "$tmp/o/$p.ncu-dram.csv"
done
cp tests/data/report/h100-planted.jsonl "$tmp/o/c.jsonl"
cp $A/hostile/no-table.ncu.csv "$tmp/o/c.ncu.csv"
verdict; rc=$?
[ $rc -eq 0 ] && ok || ko "verdict.sh: exit $rc with every judged pair agreeing"
has "^a against: 32 agree, 0 differ, 3 not judged (2 unstable, 1 over 100%), 2 unmatched launches$"
has "^SKIP c: no comparison with ncu: gpuprof-report: .*c.ncu.csv: no Nsight Compute raw table"
has "^agreement: 100.00% of 64 (launch, metric) pairs; 4 launches unmatched (2 gpuprof only, 2 ncu only); programs: a b$"
has "^all pairs: 97.06% of 68 agree with the first ncu run, counting the 4 pairs ncu did not repeat (2 of them agree)$"
has "^xcheck: 64 passed, 0 failed, 2 skipped$"
# without the DRAM-alone run of b: its write-back difference counts
rm "$tmp/o/b.ncu-dram.csv" "$tmp/o/b.ncu2.csv"
verdict; rc=$?
[ $rc -eq 1 ] && ok || ko "verdict.sh: exit $rc with a pair differing"
has "^  b: DIFF scale#0 dram__bytes_write.sum: ncu 1.6384e+06, gpuprof 20000 (98.78%)$"
has "^xcheck: 64 passed, 2 failed, 2 skipped$"
# files of two programs: nothing compared is a failure, never a pass
rm "$tmp/o/b."*
cp tests/data/report/h100-second.jsonl "$tmp/o/d.jsonl"
cp $A/synth.ncu.csv "$tmp/o/d.ncu.csv"
verdict; rc=$?
[ $rc -eq 1 ] && ok || ko "verdict.sh: exit $rc with nothing compared for a program"
has "^FAIL d: against: nothing compared"
rm "$tmp/o/"*
verdict; rc=$?
[ $rc -eq 1 ] && ok || ko "verdict.sh: exit $rc with no program at all"
has "^xcheck: 0 passed, 0 failed, 0 skipped$"
echo "$suite: $pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
