#!/usr/bin/env python3
"""compare_records.py OLD.jsonl NEW.jsonl - the launch records of two runs of
one program (two builds of the library) side by side: launches matched by
kernel and ordinal, the metrics both records hold compared.  Counts must be
equal; what varies from run to run (times, cycles, rates, DRAM and L2 bytes,
which follow what the cache holds) is listed but not judged.  Exit 0 when every
count agrees, 1 otherwise; prints one line per difference and a total."""
import json
import math
import sys

# name parts of metrics that vary between two runs of the same kernel
VARIES = ("time", "cycles", "per_second", "pct_of_peak", "dram__", "lts__", "l1tex__t_",
          "sm__throughput", "gpu__compute_memory", "achieved_occupancy", "warps_active",
          "sm__maximum_warps", "hit_rate", "clock", "elapsed", "throughput")


def launches(path):
    seen, out = {}, {}
    for line in open(path):
        r = json.loads(line)
        if r.get("type") != "launch":
            continue
        k = r["kernel"]
        seen[k] = seen.get(k, 0) + 1
        out[(k, seen[k])] = r
    return out


def main():
    old, new = launches(sys.argv[1]), launches(sys.argv[2])
    bad = counts = varied = 0
    if set(old) != set(new):
        print("launches differ: only old %s, only new %s" %
              (sorted(set(old) - set(new))[:5], sorted(set(new) - set(old))[:5]))
        bad += 1
    for key in sorted(set(old) & set(new)):
        a, b = old[key], new[key]
        for f in ("grid", "block", "regs_per_thread", "static_smem", "dynamic_smem"):
            if a.get(f) != b.get(f):
                print("%s #%d: %s %s vs %s" % (key[0], key[1], f, a.get(f), b.get(f)))
                bad += 1
        for m in sorted(set(a["metrics"]) & set(b["metrics"])):
            x, y = a["metrics"][m], b["metrics"][m]
            if x is None and y is None:
                continue
            if any(v in m for v in VARIES):
                varied += 1
                continue
            counts += 1
            same = x is not None and y is not None and (
                x == y or (math.isfinite(x) and abs(x - y) <= 1e-9 * max(abs(x), abs(y))))
            if not same:
                print("%s #%d: %s old %s new %s" % (key[0], key[1], m, x, y))
                bad += 1
    print("compare-records: %d launches, %d counts compared, %d differ; %d varying values "
          "not judged" % (len(set(old) & set(new)), counts, bad, varied))
    return 1 if bad or not counts else 0


if __name__ == "__main__":
    sys.exit(main())
