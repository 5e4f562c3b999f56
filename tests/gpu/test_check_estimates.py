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


def table_csv(path, metrics, rows):
    """ncu's raw page with the given metric columns; rows: (kernel, values...)."""
    with open(path, "w") as f:
        f.write(",".join(['"ID"', '"Process ID"', '"Kernel Name"', '"Block Size"', '"Grid Size"'] +
                         ['"%s"' % m for m in metrics]) + "\n")
        f.write(",".join(['""'] * 5 + ['"byte"'] * len(metrics)) + "\n")
        for i, r in enumerate(rows):
            f.write(",".join(['"%d"' % i, '"7"', '"%s"' % r[0], '"(32, 1, 1)"', '"(4, 1, 1)"'] +
                             ['"%s"' % v for v in r[1:]]) + "\n")


def run(none, csv, *extra):
    p = subprocess.run([sys.executable, os.path.join(HERE, "check_estimates.py"), "--ncu"] +
                       list(extra) + [none, csv, "fixed_work", "drift_work"],
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

    # --one-pass: L2 bytes from ncu's run of the metric alone, where its
    # multi-pass list carries traffic of its own passes (10% more here)
    full, alone = os.path.join(d, "full.csv"), os.path.join(d, "alone.csv")
    m2 = ["smsp__inst_executed.sum", "lts__t_bytes.sum"]
    table_csv(full, m2, [("fixed_work", 1000, 500000)] * 10 +
              [("drift_work", 2000 - 100 * i, 1100000) for i in range(10)])
    table_csv(alone, ["lts__t_bytes.sum"], [("fixed_work", 500000)] * 10 +
              [("drift_work", 1000000)] * 10)
    with open(none, "w") as f:
        for r in (estimate("fixed_work(float*, float const*, int)", 10,
                           {"smsp__inst_executed.sum": 10000, "lts__t_bytes.sum": 5000000},
                           {"smsp__inst_executed.sum": 0, "lts__t_bytes.sum": 0}),
                  estimate("drift_work(float*, int, int)", 10,
                           {"smsp__inst_executed.sum": 15500, "lts__t_bytes.sum": 10000000},
                           {"smsp__inst_executed.sum": 100, "lts__t_bytes.sum": 100000})):
            f.write(json.dumps(r) + "\n")
    rc, out = run(none, full, "--one-pass", alone)
    ok(rc == 0 and "drifting launches: 2 of 2" in out,
       "L2 bytes judged against the one-pass run: " + out)
    ok("drifting launches 1 of 2 within the printed bound" in out,
       "the whole list's figure printed beside it: " + out)
    rc, out = run(none, full)
    ok(rc == 1 and "drifting launches: 1 of 2" in out,
       "without --one-pass the whole list's L2 bytes are the truth: " + out)

    # --stepped: a configuration of several passes must have completed
    ncu_csv(csv, rows)
    write(10000, 15600, 200)
    rc, out = run(none, csv, "--stepped")
    ok(rc == 1 and "no configuration of several passes" in out,
       "--stepped fails without a configuration of several passes: " + out)
    recs = [json.loads(line) for line in open(none)]
    for r, n in zip(recs, (2, 0)):
        r["configurations"] = [{"configuration": 1, "passes": 1, "launches": 5, "first": 1,
                                "last": 9},
                               {"configuration": 2, "passes": 9, "launches": n, "first": 9,
                                "last": 9}]
    with open(none, "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in recs))
    rc, out = run(none, csv, "--stepped")
    ok(rc == 1 and "configuration 2 of 9 passes collected 2 times" in out,
       "--stepped names the collections; one never completed fails: " + out)
    recs[1]["configurations"][1]["launches"] = 1
    with open(none, "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in recs))
    rc, out = run(none, csv, "--stepped")
    ok(rc == 0, "--stepped passes when every variant completed one: " + out)

print("check-estimates: %d passed, %d failed, 0 skipped" % (passed, failed))
sys.exit(1 if failed else 0)
