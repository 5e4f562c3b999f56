#!/bin/sh
# setup_cache.sh - the set-up cache on a GPU (a benchmark: prints figures,
# asserts nothing).  The 250-metric list in replay mode none over
# repeat_work, three runs with a fresh GPUPROF_CACHE_DIR: the first splits the
# list and keeps the split, the second and third read it.  Per run: the set-up
# (setup_ms), its grouping part, the splits cached and made, the time parts
# (time_ms), and whether the output is unchanged; then GPUPROF_CACHE=0 once.
#   sh tests/gpu/bench/setup_cache.sh
# LIST_FILE: the metric list (default tests/data/gh100-250-counters.txt, one
# name a line); LAUNCHES: repeat_work's launches (default 300); MODE: none
# (default) or profiler (kernel replay: only kernel replay's split is kept).
B=${BUILD:-build}
LIB=$(cd "$B" && pwd)/libgpuprof.so
OUT=${GPU_TEST_OUT:-$B/gpu-test-out}/setup-cache
PY=${PYTHON:-python3}
LIST_FILE=${LIST_FILE:-tests/data/gh100-250-counters.txt}
LAUNCHES=${LAUNCHES:-300}
MODE=${MODE:-none}
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP setup-cache: no GPU on this machine"
    exit 0
fi
rm -rf "$OUT"
mkdir -p "$OUT"
LIST=$(grep -v '^#' "$LIST_FILE" | grep . | paste -sd, -)
prog="$B/tests/gpu/repeat_work $LAUNCHES"
$prog >"$OUT/plain.out" 2>&1
run() { # name, then extra variables
    name=$1
    shift
    t0=$(date +%s.%N)
    env "$@" GPUPROF_REPLAY=$MODE GPUPROF_METRICS="$LIST" GPUPROF_CACHE_DIR="$OUT/cache" \
        GPUPROF_OUTPUT="$OUT/$name" GPUPROF_FORMAT=json LD_PRELOAD=$LIB $prog \
        >"$OUT/$name.out" 2>"$OUT/$name.err"
    t1=$(date +%s.%N)
    same=changed
    cmp -s "$OUT/plain.out" "$OUT/$name.out" && same=unchanged
    $PY - "$OUT/$name.jsonl" "$name" "$same" "$t0" "$t1" <<'PY'
import json, sys
s = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get('type') == 'summary':
        s = r
t = s.get('time_ms', {})
sp = s.get('setup_splits', {})
print('setup-cache %s: wall %.2f s, output %s; set-up %.3f s (grouping %.3f s, warm-up %.3f s), '
      'splits %s cached %s made; profiler %.3f s: first launches %.3f, passes %.3f, snapshots %.3f, '
      'restores %.3f, waiting %.3f, other %s s' % (
          sys.argv[2], float(sys.argv[5]) - float(sys.argv[4]), sys.argv[3],
          s.get('setup_ms', 0) / 1e3, s.get('setup_grouping_ms', 0) / 1e3,
          s.get('setup_warmup_ms', 0) / 1e3, sp.get('cached'), sp.get('made'),
          s.get('profiler_ms', 0) / 1e3, t.get('first_launches', 0) / 1e3,
          t.get('passes', 0) / 1e3, t.get('snapshots', 0) / 1e3, t.get('restores', 0) / 1e3,
          t.get('waiting', 0) / 1e3,
          'n/a' if t.get('other') is None else '%.3f' % (t['other'] / 1e3)))
PY
    grep "set-up cache" "$OUT/$name.err" | head -3
}
run first
run second
run third
run off GPUPROF_CACHE=0
ls -l "$OUT/cache" 2>/dev/null | sed 's/^/setup-cache entry: /'
