#!/usr/bin/env python3
"""test_check_estimates.py - check_estimates.py --ncu on made-up files: mode
none's estimates against Nsight Compute's per-launch rows (matched by
function name, grid and block), the same launches' sums; a wrong estimate, a
missing row and a drift outside the bound fail; the second figure (the bound
widened by what two runs of the same launches differ by) counts what it
should."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


def estimate(kernel, n, metrics, bound):
    return {"type": "variant_estimate", "kernel": kernel, "grid": [4, 1, 1], "block": [32, 1, 1],
            "dynamic_smem": 0, "launches": n, "configurations": [{"configuration": 1}],
            "metrics": metrics, "bound": bound, "missing": {}}


def ncu_csv(path, rows):
    head = ['"ID"', '"Process ID"', '"Kernel Name"', '"Block Size"', '"Grid Size"',
            '"smsp__inst_executed.sum"', '"gpu__time_duration.sum"',
            '"sm__warps_active.avg.pct_of_peak_sustained_active"']
    with open(path, "w") as f:
        f.write('"==PROF== Connected to process 7"\n')
        f.write(",".join(head) + "\n")
        f.write('"","","","","","inst","ns","%"\n')
        for i, (k, inst, ns, pct) in enumerate(rows):
            f.write('"%d","7","%s","(32, 1, 1)","(4, 1, 1)","%s","%s","%s"\n'
                    % (i, k, "{:,}".format(inst), ns, pct))


def run(none, csv):
    p = subprocess.run([sys.executable, os.path.join(HERE, "check_estimates.py"), "--ncu",
                        none, csv, "fixed_work", "drift_work"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


with tempfile.TemporaryDirectory() as d:
    none, csv = os.path.join(d, "none.jsonl"), os.path.join(d, "ncu.csv")
    # ten identical launches of fixed_work, ten shrinking ones of drift_work
    rows = [("fixed_work", 1000, 5000, 50.0)] * 10 + \
        [("drift_work", 2000 - 100 * i, 8000 - 400 * i, 40.0) for i in range(10)]
    ncu_csv(csv, rows)

    def write(fixed_inst, drift_inst, drift_bound):
        with open(none, "w") as f:
            for r in (estimate("fixed_work(float*, float const*, int)", 10,
                               {"smsp__inst_executed.sum": fixed_inst, "gpu__time_duration.sum": 50000,
                                "sm__warps_active.avg.pct_of_peak_sustained_active": 50.4,
                                "gpuprof__own.sum": 3},
                               {"smsp__inst_executed.sum": 0, "gpu__time_duration.sum": 500,
                                "sm__warps_active.avg.pct_of_peak_sustained_active": 0.5}),
                      estimate("drift_work(float*, int, int)", 10,
                               {"smsp__inst_executed.sum": drift_inst, "gpu__time_duration.sum": 62000,
                                "sm__warps_active.avg.pct_of_peak_sustained_active": 40.0},
                               {"smsp__inst_executed.sum": drift_bound, "gpu__time_duration.sum": 2000,
                                "sm__warps_active.avg.pct_of_peak_sustained_active": 1.0})):
                f.write(json.dumps(r) + "\n")

    write(10000, 15600, 200)  # truth: 10000 and 15500 (within the bound 200)
    rc, out = run(none, csv)
    ok(rc == 0, "estimates equal to ncu's sums pass: " + out)
    ok("identical launches: 3 of 3" in out, "three metrics of fixed_work compared (not gpuprof's own): " + out)
    ok("drifting launches: 3 of 3" in out, "three metrics of drift_work within the bound: " + out)
    write(10300, 15600, 200)  # fixed_work 3% off
    rc, out = run(none, csv)
    ok(rc == 1 and "identical launches: 2 of 3" in out, "a 3% wrong count fails: " + out)
    write(10000, 15900, 200)  # drift_work 400 off, bound 200
    rc, out = run(none, csv)
    ok(rc == 1 and "drifting launches: 2 of 3" in out, "a drift outside its bound fails: " + out)
    # the second figure widens the bound by what two runs differ by (2% of a count: 310)
    ok("3 of 3 pairs (100.0%) within the bound plus" in out,
       "400 off, within the bound 200 plus two runs' 310: " + out)
    write(10000, 16100, 200)  # 600 off: outside 200 + 310 as well
    rc, out = run(none, csv)
    ok(rc == 1 and "2 of 3 pairs (66.7%) within the bound plus" in out,
       "600 off, outside the bound plus two runs' difference: " + out)
    ncu_csv(csv, rows[:9] + rows[10:])  # one fixed_work row missing
    write(10000, 15600, 200)
    rc, out = run(none, csv)
    ok(rc == 1 and "10 launches estimated, 9 launch records in ncu's table" in out,
       "a launch missing from ncu's table fails: " + out)

print("check-estimates: %d passed, %d failed, 0 skipped" % (passed, failed))
sys.exit(1 if failed else 0)
