"""ncu_full.py - Nsight Compute's full set as a test oracle for long metric
lists (used by tests/gpu/split_list.sh and tests/gpu/bench/replay_cost.sh).

  ncu_full.py list FULL.csv [N]
      N (default 250) hardware counter rollups spread evenly over the metrics
      of `ncu --set full --csv --page raw` (every k-th; SASS, derived, device,
      launch, NVLink/C2C/PM-sampling and peak names left out), comma-separated.
  ncu_full.py compare FULL.csv GPUPROF.jsonl LIST
      The first launch of each: every name of LIST must have a value in
      gpuprof's record, and the counts must agree within 5% (or 2.5 units),
      for at least 95% of them.  Left out of the comparison: what depends on
      the clock (cycles, time, rates, percentages of peak) and the units whose
      counts depend on what ncu's cache control does before each pass (DRAM,
      L2, the GPCs' constant caches, PCIe, the whole-GPU counters).
      Prints one line per disagreement and "split-list: ..." and exits 1 on
      failure."""
import csv
import json
import re
import sys

SKIP = ('derived__', 'device__', 'launch__', 'c2clink__', 'nvlink__', 'profiler__',
        'pmsampling', 'numa__', 'nvlrx__', 'nvltx__')
ROLLUP = re.compile(r'^[a-z0-9]+__[a-z0-9_]+\.(sum|avg|max|min)(\.[a-z_]+)*$')
NOT_COMPARED = re.compile(r'^(dram|lts|ltc|fbpa|gcc|pcie|gpu)__|cycles|time|per_second|pct|ratio|'
                          r'throughput|frequency|elapsed')


def ncu_rows(path):
    rows = list(csv.reader(open(path)))
    i = next(k for k, r in enumerate(rows) if r[:2] == ['ID', 'Process ID'])
    return rows[i], rows[i + 2:]  # header, (units), launches


def full_list(path, n):
    head, _ = ncu_rows(path)
    names = [h for h in head if ROLLUP.match(h) and 'sass' not in h and not h.startswith(SKIP)
             and not h.endswith('peak_sustained')]
    return names[::max(1, len(names) // n)][:n]


def number(s):
    try:
        return float(s.replace(',', ''))
    except ValueError:
        return None


def compare(csv_path, jsonl_path, names):
    head, launches = ncu_rows(csv_path)
    ncu = dict(zip(head, launches[0]))
    rec = next(r for r in map(json.loads, open(jsonl_path)) if r.get('type') == 'launch')
    got = rec['metrics']
    missing = [m for m in names if got.get(m) is None]
    counts = [m for m in names if not NOT_COMPARED.search(m) and m in ncu
              and number(ncu[m]) is not None]
    bad = []
    for m in counts:
        a, b = number(ncu[m]), got.get(m)
        if b is None:
            continue
        if abs(b - a) > 0.05 * max(abs(a), 50.0):  # small counts: 2.5 units
            bad.append((m, a, b))
    for m in missing[:10]:
        print('split-list: no value for %s' % m)
    for m, a, b in bad[:20]:
        print('split-list: %s ncu %.6g gpuprof %.6g' % (m, a, b))
    within = len(counts) - len(bad) - sum(1 for m in counts if got.get(m) is None)
    ok = not missing and counts and within >= 0.95 * len(counts)
    print('split-list: %d names, %d without a value; %d of %d counts within 5%% of ncu (%s, %d passes)'
          % (len(names), len(missing), within, len(counts), rec['kernel'].split('(')[0],
             rec.get('passes', 0)))
    return 0 if ok else 1


if __name__ == '__main__':
    if sys.argv[1] == 'list':
        print(','.join(full_list(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 250)))
    elif sys.argv[1] == 'compare':
        sys.exit(compare(sys.argv[2], sys.argv[3], sys.argv[4].split(',')))
    else:
        sys.exit('usage: ncu_full.py list FULL.csv [N] | compare FULL.csv GPUPROF.jsonl LIST')
