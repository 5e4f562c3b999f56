#!/bin/sh
# l2_sources.sh - a contributor's diagnostic: where Nsight Compute's extra L2
# traffic under --cache-control all comes from.  L2 sectors by source unit
# (tex = L1, gcc = the GPC's constant and instruction cache, ltcfabric = the
# other L2 partition), by node, aperture and operation, for the access-pattern
# and known-work kernels: ncu with cache control all and none, and gpuprof
# with the same list.  Prints, per metric, the median over kernels of
# (ncu all - ncu none) and (ncu all - gpuprof), in sectors.
#   sh tests/gpu/xcheck/l2_sources.sh       (outputs under $XE, default /tmp/xl2)
B=${BUILD:-build}
X=$B/tests/gpu/xcheck
LIB=$(cd "$B" && pwd)/libgpuprof.so
E=${XE:-/tmp/xl2}
HERE=$(dirname "$0")
mkdir -p "$E"
nvidia-smi -L >/dev/null 2>&1 && command -v ncu >/dev/null 2>&1 ||
    { echo "SKIP l2_sources: needs a GPU and ncu"; exit 0; }
M=lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_gcc.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcnode_gpc.sum,lts__t_sectors_aperture_sysmem.sum,lts__t_sectors_aperture_device.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_membar.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_requests_srcunit_gcc_op_read.sum,lts__t_bytes.sum
for p in patterns known_work; do
    case $p in patterns) cmd="$X/patterns"; n=30 ;; known_work) cmd="$B/tests/gpu/known_work 1"; n=4 ;; esac
    for cc in all none; do
        ncu --csv --page raw --print-units base --clock-control none --cache-control $cc -c $n \
            --metrics $M $cmd >"$E/$p.ncu-$cc.csv" 2>"$E/$p.ncu-$cc.err"
    done
    GPUPROF_LAUNCH_COUNT=$n GPUPROF_METRICS=$M GPUPROF_OUTPUT=$E/$p.gp LD_PRELOAD=$LIB $cmd >/dev/null 2>"$E/$p.gp.err"
done
python3 - "$E" "$HERE" "$M" <<'PY'
import sys, statistics
sys.path.insert(0, sys.argv[2])
from compare import load_gpuprof, load_ncu, match
E, metrics = sys.argv[1], sys.argv[3].split(',')
for p in ('patterns', 'known_work'):
    gp = load_gpuprof('%s/%s.gp.jsonl' % (E, p))
    a = {(k, i): row for k, i, r, row in match(gp, load_ncu('%s/%s.ncu-all.csv' % (E, p)))[0]}
    n = {(k, i): row for k, i, r, row in match(gp, load_ncu('%s/%s.ncu-none.csv' % (E, p)))[0]}
    g = {(k, i): r for k, i, r, row in match(gp, load_ncu('%s/%s.ncu-all.csv' % (E, p)))[0]}
    print('\n%s: %d kernels; median over kernels, sectors' % (p, len(g)))
    print('%-45s %12s %12s %12s %12s' % ('metric', 'ncu all', 'ncu none', 'gpuprof', 'all-gpuprof'))
    for m in metrics:
        def med(f):
            xs = [f(k) for k in g if f(k) is not None]
            return statistics.median(xs) if xs else float('nan')
        va = lambda k: a[k]['values'].get(m) if k in a else None
        vn = lambda k: n[k]['values'].get(m) if k in n else None
        vg = lambda k: g[k]['metrics'].get(m)
        d = lambda k: (va(k) - vg(k)) if va(k) is not None and vg(k) is not None else None
        print('%-45s %12.0f %12.0f %12.0f %12.0f' % (m, med(va), med(vn), med(vg), med(d)))
PY
