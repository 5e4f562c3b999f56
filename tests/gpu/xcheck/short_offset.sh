#!/bin/sh
# short_offset.sh - a contributor's study of the duration and elapsed-cycle
# offset of kernels under 10 us against Nsight Compute (gpuprof a median
# 64-96 ns and 130-200 cycles above the mean of two ncu runs on the corpus,
# docs/measurements.md).  The access-pattern kernels run under ncu twice and
# under gpuprof in several settings: the two metrics alone (one pass) with
# GPUPROF_CACHE_CONTROL=flush, l2 and none, and the default set (several
# passes, the hardware pass last).  Prints, per setting, over the kernels
# that ncu times under 10 us: the median and the 95th percentile of gpuprof
# - (ncu1 + ncu2) / 2 for each metric, beside ncu1 - ncu2 (ncu against
# itself).  A setting whose median offset is near 0 points at the cause.
#   sh tests/gpu/xcheck/short_offset.sh    (outputs under $XS, default /tmp/xshort)
B=${BUILD:-build}
X=$B/tests/gpu/xcheck
LIB=$(cd "$B" && pwd)/libgpuprof.so
S=${XS:-/tmp/xshort}
HERE=$(dirname "$0")
mkdir -p "$S"
nvidia-smi -L >/dev/null 2>&1 && command -v ncu >/dev/null 2>&1 ||
    { echo "SKIP short_offset: needs a GPU and ncu"; exit 0; }
M=gpu__time_duration.sum,sm__cycles_elapsed.avg
N=60
for r in 1 2; do
    timeout 300 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
        -c $N --metrics $M "$X/patterns" >"$S/ncu$r.csv" 2>"$S/ncu$r.err"
done
for cc in flush l2 none; do
    GPUPROF_CACHE_CONTROL=$cc GPUPROF_METRICS=$M GPUPROF_LAUNCH_COUNT=$N GPUPROF_OUTPUT=$S/gp-$cc \
        GPUPROF_SUMMARY=0 LD_PRELOAD=$LIB timeout 300 "$X/patterns" >/dev/null 2>"$S/gp-$cc.err"
done
GPUPROF_LAUNCH_COUNT=$N GPUPROF_OUTPUT=$S/gp-default GPUPROF_SUMMARY=0 LD_PRELOAD=$LIB \
    timeout 300 "$X/patterns" >/dev/null 2>"$S/gp-default.err"
python3 - "$S" "$HERE" <<'PY'
import statistics, sys
sys.path.insert(0, sys.argv[2])
from compare import load_gpuprof, load_ncu, match, match_rows
S = sys.argv[1]
n1, n2 = load_ncu(S + '/ncu1.csv'), load_ncu(S + '/ncu2.csv')
again = {(k, i): row for k, i, row, _ in match_rows(n2)}
q = lambda xs, p: sorted(xs)[int(p * (len(xs) - 1))] if xs else float('nan')
ms = ('gpu__time_duration.sum', 'sm__cycles_elapsed.avg')
print('%-28s %-24s %8s %10s %10s' % ('setting', 'metric', 'kernels', 'median', '95th pct'))
for name in ('ncu1 - ncu2', 'flush', 'l2', 'none', 'default'):
    if name == 'ncu1 - ncu2':
        pairs = [(k, i, None, row) for k, i, row, _ in match_rows(n1)]
    else:
        pairs, _ = match(load_gpuprof('%s/gp-%s.jsonl' % (S, name)), n1)
    for m in ms:
        d = []
        for k, i, r, row in pairs:
            t, a = row['values'].get('gpu__time_duration.sum'), row['values'].get(m)
            b = again.get((k, i), {}).get('values', {}).get(m)
            if t is None or t >= 10000 or a is None or b is None:
                continue
            g = a if r is None else r.get('metrics', {}).get(m)
            if g is None:
                continue
            d.append(a - b if r is None else g - (a + b) / 2)
        print('%-28s %-24s %8d %10.0f %10.0f' % (name, m, len(d),
                                                 statistics.median(d) if d else float('nan'),
                                                 q(sorted(abs(x) for x in d), 0.95)))
PY
