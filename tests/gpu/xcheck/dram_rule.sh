#!/bin/sh
# dram_rule.sh - a contributor's diagnostic: how DRAM writes are charged to a
# kernel, by Nsight Compute and by gpuprof, on dram_rule's launches of known
# write traffic (see dram_rule.cu).  ncu: DRAM metrics alone (one pass,
# nothing restored) and with gpuprof's default list (several passes, memory
# restored before each), each with --cache-control all and none; gpuprof:
# default, GPUPROF_CACHE_CONTROL=none, the DRAM metrics alone.  Prints
# dram__bytes_write.sum per launch and configuration, in KB.
#   sh tests/gpu/xcheck/dram_rule.sh      (outputs under $XE, default /tmp/xdram)
B=${BUILD:-build}
P=$B/tests/gpu/xcheck/dram_rule
LIB=$(cd "$B" && pwd)/libgpuprof.so
E=${XE:-/tmp/xdram}
HERE=$(dirname "$0")
mkdir -p "$E"
nvidia-smi -L >/dev/null 2>&1 && command -v ncu >/dev/null 2>&1 ||
    { echo "SKIP dram_rule: needs a GPU and ncu"; exit 0; }
D=dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_op_write.sum
gp() { # name, env...
    c=$1; shift
    env "$@" GPUPROF_OUTPUT=$E/gp-$c LD_PRELOAD=$LIB $P >"$E/gp-$c.out" 2>"$E/gp-$c.err"
}
gp default GPUPROF_ENABLE=1
gp nocache GPUPROF_CACHE_CONTROL=none
gp dramonly GPUPROF_METRICS=$D
LIST=$(python3 -c "
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r.get('type')=='launch':
        print(','.join(m for m in r['metrics'] if not m.endswith('peak_sustained'))); break" "$E/gp-default.jsonl")
for cc in all none; do
    ncu --csv --page raw --print-units base --clock-control none --cache-control $cc \
        --metrics $D $P >"$E/ncu-alone-$cc.csv" 2>/dev/null
    ncu --csv --page raw --print-units base --clock-control none --cache-control $cc \
        --metrics "$LIST,$D" $P >"$E/ncu-list-$cc.csv" 2>/dev/null
done
$P >"$E/plain.out"
for c in default nocache dramonly; do
    cmp -s "$E/plain.out" "$E/gp-$c.out" || echo "FAIL dram_rule: output changed under gpuprof ($c)"
done
python3 - "$E" "$HERE" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from compare import load_gpuprof, load_ncu, short_name
E = sys.argv[1]
cols = ['ncu-alone-all', 'ncu-alone-none', 'ncu-list-all', 'ncu-list-none',
        'gp-default', 'gp-nocache', 'gp-dramonly']
vals = {}
for c in cols:
    if c.startswith('ncu'):
        for r in load_ncu('%s/%s.csv' % (E, c)):
            k = short_name(r['kernel'])
            for m in ('dram__bytes_write.sum', 'dram__bytes_read.sum', 'lts__t_sectors_op_write.sum'):
                vals[(k, c, m)] = r['values'].get(m)
    else:
        for r in load_gpuprof('%s/%s.jsonl' % (E, c)):
            k = short_name(r.get('kernel', ''))
            for m in ('dram__bytes_write.sum', 'dram__bytes_read.sum', 'lts__t_sectors_op_write.sum'):
                v = r['metrics'].get(m)
                vals[(k, c, m)] = v.get('value') if isinstance(v, dict) else v
kernels = ['fill_big', 'write_cold', 'write_warm', 'write_partial', 'read_only', 'write_mid',
           'write_huge', 'rmw_small']
for m in ('dram__bytes_write.sum', 'dram__bytes_read.sum', 'lts__t_sectors_op_write.sum'):
    print('\n%s (KB; sectors for lts)' % m)
    print('%-14s' % 'kernel' + ''.join('%15s' % c for c in cols))
    for k in kernels:
        row = []
        for c in cols:
            v = vals.get((k, c, m))
            row.append('%15s' % ('-' if v is None else '%.0f' % (v / 1000 if 'bytes' in m else v)))
        print('%-14s' % k + ''.join(row))
PY
