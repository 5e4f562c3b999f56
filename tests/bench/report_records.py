#!/usr/bin/env python3
"""Record files for the report's load benchmark (tests/bench/report_load.sh).

    report_records.py KERNELS LAUNCHES [OUT]      (OUT: standard output when absent)

Writes one device record, then LAUNCHES launch records of KERNELS distinct kernels
(launch i runs kernel i % KERNELS), each a full record as the profiler writes it: the
first launch record of tests/data/report/h100-planted.jsonl with its kernel name,
launch id and duration changed.  The records are made from a template, not from
json.dumps, so that a million of them take seconds."""
import json
import os
import sys


def main(argv):
    if len(argv) not in (3, 4) or not argv[1].isdigit() or not argv[2].isdigit():
        sys.exit(__doc__)
    kernels, launches = int(argv[1]), int(argv[2])
    if kernels < 1 or launches < kernels:
        sys.exit("report_records.py: need 1 <= KERNELS <= LAUNCHES")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "data", "report", "h100-planted.jsonl")) as f:
        lines = f.read().splitlines()
    device = next(l for l in lines if json.loads(l)["type"] == "device")
    rec = json.loads(next(l for l in lines if json.loads(l)["type"] == "launch"))
    rec["kernel"] = "\0K\0"
    rec["mangled"] = "\0M\0"
    rec["launch_id"] = -101
    rec["metrics"]["gpu__time_duration.sum"] = -202
    tmpl = json.dumps(rec, separators=(",", ":"))
    for a, b in (('"\\u0000K\\u0000"', "{kernel}"), ('"\\u0000M\\u0000"', "{mangled}"),
                 ("-101", "{lid}"), ("-202", "{dur}")):
        if tmpl.count(a) != 1:
            sys.exit("report_records.py: template placeholder %s not found once" % a)
    tmpl = tmpl.replace("{", "{{").replace("}", "}}")
    for a, b in (('"\\u0000K\\u0000"', '"{kernel}"'), ('"\\u0000M\\u0000"', '"{mangled}"'),
                 ("-101", "{lid}"), ("-202", "{dur}")):
        tmpl = tmpl.replace(a, b)
    out = open(argv[3], "w") if len(argv) == 4 else sys.stdout
    out.write(device + "\n")
    for i in range(launches):
        k = i % kernels
        out.write(tmpl.format(kernel="bench_kernel_%d(float*, int)" % k,
                              mangled="_Z14bench_kernel_%dPfi" % k, lid=i + 1,
                              dur=10000 + (k * 7919) % 90000) + "\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main(sys.argv)
