#!/usr/bin/env python3
"""check_batch.py - compares the records of one program profiled with batches
(the default) and one launch at a time (GPUPROF_BATCH=1).

usage: check_batch.py BATCHED.jsonl SINGLE.jsonl
Instruction and L1 counts must be equal, DRAM bytes of launches moving more than
64 MB within 1%, durations of launches longer than 100 us within 3%; every record
must have its duration.  Prints one line per failure and 'batch: OK ...' or
'batch: FAIL ...' last; exit status 0 when all hold."""
import json
import sys


def launches(path):
    with open(path) as f:
        return [r for r in map(json.loads, f) if r.get("type") == "launch"]


def main():
    a, b = launches(sys.argv[1]), launches(sys.argv[2])
    fails = []
    if len(a) != len(b) or not a:
        fails.append("records: %d batched, %d single" % (len(a), len(b)))
    exact = ("smsp__sass_", "l1tex__t_bytes_pipe_lsu_mem_global",
             "l1tex__t_sectors_pipe_lsu_mem_global", "smsp__inst_executed.sum",
             "smsp__thread_inst_executed")
    checked = 0
    for x, y in zip(a, b):
        if x["kernel"] != y["kernel"]:
            fails.append("launch %s: kernel %s vs %s" % (x["launch_id"], x["kernel"], y["kernel"]))
            continue
        mx, my = x["metrics"], y["metrics"]
        if mx.get("gpu__time_duration.sum") is None:
            fails.append("launch %s %s: no duration (%s)" % (x["launch_id"], x["kernel"],
                         x.get("missing", {}).get("gpu__time_duration.sum")))
            continue
        for k, v in mx.items():
            w = my.get(k)
            if v is None or w is None:
                continue
            if k.startswith(exact) and k.endswith(".sum"):
                checked += 1
                if v != w:
                    fails.append("%s %s: %r vs %r" % (x["kernel"], k, v, w))
            elif k.startswith("dram__bytes") and w > 64e6:
                checked += 1
                if abs(v - w) > 0.01 * w:
                    fails.append("%s %s: %.0f vs %.0f" % (x["kernel"], k, v, w))
            elif k == "gpu__time_duration.sum" and w > 100e3:
                checked += 1
                if abs(v - w) > 0.03 * w:
                    fails.append("%s duration: %.0f vs %.0f ns" % (x["kernel"], v, w))
    for f in fails:
        print("  " + f)
    print("batch: %s, %d records, %d values compared, %d differences" %
          ("OK" if not fails else "FAIL", len(a), checked, len(fails)))
    return 0 if not fails else 1


if __name__ == "__main__":
    sys.exit(main())
