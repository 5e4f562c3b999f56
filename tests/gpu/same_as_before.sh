#!/bin/sh
# same_as_before.sh - a build of the library from before a restructuring
# (OLD: a folder with its libgpuprof.so and libgpuprof-core.so) against this
# one on the same programs: the replay cases' checksums and the known-work
# programs' counts must be the same.  Needs a GPU.
#   OLD=build/old sh tests/gpu/same_as_before.sh
. tests/gpu/common.sh
NEW=$(cd "$B" && pwd)/libgpuprof.so
OLD=$(cd "${OLD:-$B/old}" 2>/dev/null && pwd)/libgpuprof.so
if ! nvidia-smi -L >/dev/null 2>&1; then
    skipped "same as before: no GPU on this machine"
elif [ ! -f "$OLD" ]; then
    skipped "same as before: no earlier build at ${OLD:-$B/old}"
else
    for v in old new; do
        lib=$([ $v = old ] && echo "$OLD" || echo "$NEW")
        GPUPROF_OUTPUT=$OUT/before-$v-rc timeout 300 env LD_PRELOAD=$lib \
            $G/replay_cases_static all >"$OUT/before-$v-rc.out" 2>"$OUT/before-$v-rc.err"
        GPUPROF_OUTPUT=$OUT/before-$v-kw timeout 300 env LD_PRELOAD=$lib \
            $G/known_work 3 >"$OUT/before-$v-kw.out" 2>"$OUT/before-$v-kw.err"
    done
    $G/replay_cases_static all >"$OUT/before-plain-rc.out" 2>/dev/null
    # uninit reads memory no one wrote: with every case in one process what
    # it reads depends on where the allocator puts it, which the profiler's
    # own allocations move (run alone, it is checked by run-gpu-tests.sh)
    for v in old new plain; do grep -v "^checksum uninit " "$OUT/before-$v-rc.out" >"$OUT/before-$v-rc.cmp"; done
    if cmp -s "$OUT/before-old-rc.cmp" "$OUT/before-new-rc.cmp" &&
       cmp -s "$OUT/before-plain-rc.cmp" "$OUT/before-new-rc.cmp"; then
        ok "same as before: replay-case checksums equal (plain, old, new: $(wc -l <"$OUT/before-new-rc.cmp") cases)"
    else bad "same as before: replay-case checksums differ"; diff "$OUT/before-old-rc.cmp" "$OUT/before-new-rc.cmp" | head -5; fi
    if cmp -s "$OUT/before-old-kw.out" "$OUT/before-new-kw.out" &&
       python3 tests/gpu/compare_records.py "$OUT/before-old-kw.jsonl" "$OUT/before-new-kw.jsonl" >"$OUT/before-kw.cmp"; then
        ok "same as before: known-work records $(tail -1 "$OUT/before-kw.cmp")"
    else bad "same as before: known-work records differ"; tail -8 "$OUT/before-kw.cmp"; fi
fi
echo "same-as-before: $pass passed, $fail failed, $skip skipped"
