#!/bin/sh
# gcc_evict.sh - a contributor's check of the GPC cache eviction before each
# pass (GPUPROF_CACHE_CONTROL=flush) against GPUPROF_CACHE_CONTROL=l2 (L2
# only) and Nsight Compute's --cache-control all, for the access-pattern and
# known-work kernels: the L2 sectors the GPCs' constant and instruction caches
# ask for, the GCC's crossbar sectors, L2 bytes, the instruction and constant
# cache miss stall ratios and the duration.  Prints, per kernel and metric,
# ncu, gpuprof flush and gpuprof l2; then per metric the median over kernels
# of |gpuprof - ncu| / ncu for each mode; then the eviction's cost (debug log).
# Expected: lts__t_sectors_srcunit_gcc.sum and gcc__xbar2gcc_sectors.sum
# near ncu's under flush (far under them with l2), the stall ratios of
# microsecond kernels closer to ncu's under flush.
#   sh tests/gpu/xcheck/gcc_evict.sh       (outputs under $XE, default /tmp/xgcc)
B=${BUILD:-build}
X=$B/tests/gpu/xcheck
LIB=$(cd "$B" && pwd)/libgpuprof.so
E=${XE:-/tmp/xgcc}
HERE=$(dirname "$0")
mkdir -p "$E"
nvidia-smi -L >/dev/null 2>&1 && command -v ncu >/dev/null 2>&1 ||
    { echo "SKIP gcc_evict: needs a GPU and ncu"; exit 0; }
M=lts__t_sectors_srcunit_gcc.sum,gcc__xbar2gcc_sectors.sum,lts__t_bytes.sum,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio,gpu__time_duration.sum
for p in patterns known_work; do
    case $p in patterns) cmd="$X/patterns"; n=30 ;; known_work) cmd="$B/tests/gpu/known_work 1"; n=4 ;; esac
    timeout 300 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
        -c $n --metrics $M $cmd >"$E/$p.ncu.csv" 2>"$E/$p.ncu.err"
    for cc in flush l2; do
        GPUPROF_CACHE_CONTROL=$cc GPUPROF_LOG_LEVEL=debug GPUPROF_LAUNCH_COUNT=$n \
            GPUPROF_METRICS=$M GPUPROF_OUTPUT=$E/$p.gp-$cc GPUPROF_SUMMARY=0 LD_PRELOAD=$LIB \
            timeout 300 $cmd >/dev/null 2>"$E/$p.gp-$cc.err"
    done
done
python3 - "$E" "$HERE" "$M" <<'PY'
import re, sys, statistics
sys.path.insert(0, sys.argv[2])
from compare import load_gpuprof, load_ncu, match
E, metrics = sys.argv[1], sys.argv[3].split(',')
med = lambda xs: statistics.median(xs) if xs else float('nan')
fmt = lambda v: '%14s' % 'n/a' if v is None else '%14.4g' % v
rel = {(m, cc): [] for m in metrics for cc in ('flush', 'l2')}
for p in ('patterns', 'known_work'):
    ncu = load_ncu('%s/%s.ncu.csv' % (E, p))
    by = {}
    for cc in ('flush', 'l2'):
        pairs, unmatched = match(load_gpuprof('%s/%s.gp-%s.jsonl' % (E, p, cc)), ncu)
        for k, i, r, row in pairs:
            by.setdefault((k, i), {'ncu': row['values']})[cc] = r.get('metrics', {})
        if unmatched:
            print('%s, %s: not in the ncu run: %s' % (p, cc, ' '.join(unmatched[:8])))
    print('\n%s: %d kernels' % (p, len(by)))
    print('%-28s %-70s %14s %14s %14s' % ('kernel', 'metric', 'ncu all', 'gpuprof flush',
                                         'gpuprof l2'))
    for (k, i), v in sorted(by.items()):
        for m in metrics:
            n = v['ncu'].get(m)
            vals = [v.get(cc, {}).get(m) for cc in ('flush', 'l2')]
            print('%-28s %-70s %s %s %s' % (('%s#%d' % (k, i))[:28], m, fmt(n), fmt(vals[0]),
                                            fmt(vals[1])))
            for cc, g in zip(('flush', 'l2'), vals):
                if n and g is not None:
                    rel[(m, cc)].append(abs(g - n) / abs(n))
print('\nmedian over kernels of |gpuprof - ncu all| / ncu all')
print('%-70s %10s %10s' % ('metric', 'flush', 'l2'))
for m in metrics:
    print('%-70s %10.3f %10.3f' % (m, med(rel[(m, 'flush')]), med(rel[(m, 'l2')])))

# cost: the eviction per pass (flush's debug log), the loading of its kernel,
# and each launch's flush time (every pass's eviction and L2 flush) per mode
ev, load, tf = [], [], {'flush': [], 'l2': []}
for p in ('patterns', 'known_work'):
    for cc in ('flush', 'l2'):
        for line in open('%s/%s.gp-%s.err' % (E, p, cc), errors='replace'):
            x = re.search(r'GPC caches emptied in ([0-9.]+) ms', line)
            if x:
                ev.append(float(x.group(1)))
            x = re.search(r'GPC cache eviction kernel: .* loaded in ([0-9.]+) ms', line)
            if x:
                load.append(float(x.group(1)))
            x = re.search(r' ms in all: .* L2 flush ([0-9.]+),', line)
            if x:
                tf[cc].append(float(x.group(1)))
print('\neviction per pass: median %.3f ms over %d passes (launch to completion, debug sync)'
      % (med(ev), len(ev)))
print('eviction kernel loaded (PTX compiled by the driver) in: %s ms'
      % (', '.join('%.0f' % x for x in load) or 'n/a'))
print('t_flush per launch (every pass): median %.2f ms with flush, %.2f ms with l2'
      % (med(tf['flush']), med(tf['l2'])))
PY
