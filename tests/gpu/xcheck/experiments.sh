#!/bin/sh
# experiments.sh - a contributor's diagnostic: where gpuprof's duration and
# DRAM-write differences against ncu come from.  Runs the patterns and the
# Thrust programs under ncu (cache control all / none) and under gpuprof in
# several configurations (default; no L2 flush; hardware metrics only, one
# pass; no batches), each with the same time and DRAM metrics, and prints,
# per configuration, the median and quartiles of (value - ncu's value) over
# matched launches.  Outputs under $XE (default /tmp/xexp).
B=${BUILD:-build}
X=$B/tests/gpu/xcheck
LIB=$(cd "$B" && pwd)/libgpuprof.so
E=${XE:-/tmp/xexp}
HERE=$(dirname "$0")
mkdir -p "$E"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,dram__bytes_write.sum,dram__bytes_read.sum,lts__t_bytes.sum
for prog in patterns thrust; do
    case $prog in
        patterns) cmd="$X/patterns"; n=60 ;;
        thrust) cmd="$X/libs thrust"; n=30 ;;
    esac
    for cc in all none; do
        ncu --csv --page raw --print-units base --clock-control none --cache-control $cc -c $n \
            --metrics $M $cmd >"$E/$prog.ncu-$cc.csv" 2>/dev/null
    done
    run() { # name, env...
        c=$1; shift
        env "$@" GPUPROF_LAUNCH_COUNT=$n GPUPROF_OUTPUT=$E/$prog.gp-$c LD_PRELOAD=$LIB $cmd >/dev/null 2>"$E/$prog.gp-$c.err"
    }
    run default GPUPROF_ENABLE=1
    run noflush GPUPROF_CACHE_CONTROL=none
    run hwonly GPUPROF_METRICS=$M
    run hwonly-noflush GPUPROF_METRICS=$M GPUPROF_CACHE_CONTROL=none
    run nobatch GPUPROF_BATCH=1
done
python3 - "$E" "$HERE" <<'EOF'
import sys, os, statistics
sys.path.insert(0, sys.argv[2])
from compare import load_gpuprof, load_ncu, match
E = sys.argv[1]
def q(xs):
    xs = sorted(xs)
    if not xs: return 'n/a'
    return 'median %+9.0f  q1 %+9.0f  q3 %+9.0f  (n=%d)' % (statistics.median(xs), xs[len(xs)//4], xs[3*len(xs)//4], len(xs))
for prog in ('patterns', 'thrust'):
    for ref in ('all', 'none'):
        ncu = load_ncu(os.path.join(E, '%s.ncu-%s.csv' % (prog, ref)))
        print('== %s against ncu --cache-control %s' % (prog, ref))
        cands = [('ncu-none' if ref == 'all' else 'ncu-all', None)] + [(c, c) for c in ('default', 'noflush', 'hwonly', 'hwonly-noflush', 'nobatch')]
        for name, c in cands:
            if c is None:
                other = load_ncu(os.path.join(E, '%s.%s.csv' % (prog, name)))
                gp = [{'kernel': r['kernel'], 'metrics': r['values']} for r in other]
            else:
                gp = load_gpuprof(os.path.join(E, '%s.gp-%s.jsonl' % (prog, c)))
            pairs, _ = match(gp, ncu)
            for m in ('gpu__time_duration.sum', 'dram__bytes_write.sum'):
                d = [r['metrics'][m] - row['values'][m] for k, i, r, row in pairs
                     if r['metrics'].get(m) is not None and row['values'].get(m) is not None]
                print('  %-16s %-24s %s' % (name, m, q(d)))
EOF
