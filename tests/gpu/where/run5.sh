P="build/tests/gpu/where/pcs_probe build/tests/gpu/where/stall_kernels.cubin"
for v in "COMBO=2" "COMBO=2 LAZY=0" "COMBO=4"; do echo "== $v"; env $v timeout 60 $P combo 2>&1 | grep -v "^defaults\|^configure\|^enable\|^  stall_chase\|^  stall_barrier\|^  stall_stream\|^  stall_diverge\|^     *stall_[cbsd]"; done
echo "== library --set source at the default interval"
REPS=2 build/gpuprof --set source -c 10 -o /tmp/x1 -f $P work 2>&1 | grep -E "sampling"
python3 - <<'PY'
import json
recs=[json.loads(l) for l in open('/tmp/x1.jsonl')]
for fn in ['stall_fma','stall_diverge','stall_barrier']:
    ins=[r for r in recs if r.get('type')=='source_instr' and r['mangled']==fn]
    tot={}
    for r in ins:
        for k,v in r.get('stall',{}).items(): tot[k]=tot.get(k,0)+v
    s=sum(tot.values()) or 1
    hot=sorted(ins,key=lambda r:-r.get('samples',0))[:5]
    print(fn, s, sorted(((round(100*v/s,1),k) for k,v in tot.items()), reverse=True)[:4], [hex(r['pc']) for r in hot])
PY
